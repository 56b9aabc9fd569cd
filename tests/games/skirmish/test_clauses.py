"""STYLE habit 12: every clause of the catalogue is named by a test (``sk_10`` in the name, ``SK-10`` in its docstring)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.games.skirmish.helpers import GAME

HERE = Path(__file__).resolve().parent


def clause_tests() -> dict:
    """Test function name -> docstring, over every test module of this folder."""
    tests = {}
    for path in sorted(HERE.glob("test_*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                tests[node.name] = ast.get_docstring(node) or ""
    return tests


def test_every_clause_is_named_by_a_test_and_cited_in_its_docstring():
    tests = clause_tests()
    missing = []
    for clause in GAME.catalogue.ids():
        token = clause.lower().replace("-", "_")
        named = [name for name, doc in tests.items() if f"_{token}_" in f"{name}_" and clause in doc]
        if not named:
            missing.append(clause)
    assert missing == []


def test_a_test_named_for_a_clause_cites_it():
    """A test called ``test_sk_10_…`` says ``SK-10`` in its docstring, so a search for the ID finds both."""
    for name, doc in clause_tests().items():
        for clause in GAME.catalogue.ids():
            if name.startswith(f"test_{clause.lower().replace('-', '_')}_"):
                assert clause in doc, name
