"""STYLE habit 12: every clause of the catalogue is named by a test (``gh_c4`` in the name, ``GH-C4`` in its docstring)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.games.gloomhaven.helpers import GAME

HERE = Path(__file__).resolve().parent
DIGEST = ["GH-1", "GH-2", "GH-3", "GH-4", "GH-5", "GH-6", "GH-7", "GH-8", "GH-C1", "GH-C2", "GH-C3", "GH-C4", "GH-C5",
          "GH-C6", "GH-V1", "GH-V2"]


def clause_tests() -> dict:
    tests = {}
    for path in sorted(HERE.glob("test_*.py")) + [HERE.parents[1] / "events" / "test_hexmap.py"]:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                tests[node.name] = ast.get_docstring(node) or ""
    return tests


def test_gh_catalogue_holds_every_clause_of_the_digest():
    assert GAME.catalogue.ids() == DIGEST


def test_every_clause_is_named_by_a_test_and_cited_in_its_docstring():
    tests = clause_tests()
    missing = []
    for clause in GAME.catalogue.ids():
        token = clause.lower().replace("-", "_")
        if not [name for name, doc in tests.items() if f"_{token}_" in f"{name}_" and clause in doc]:
            missing.append(clause)
    assert missing == []


def test_a_test_named_for_a_clause_cites_it():
    for name, doc in clause_tests().items():
        for clause in GAME.catalogue.ids():
            if name.startswith(f"test_{clause.lower().replace('-', '_')}_"):
                assert clause in doc, name
