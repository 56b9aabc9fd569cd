"""STYLE habit 12: every clause of the catalogue is named by a test and cited in the rules code.

A test named ``test_ah_c4_…`` says ``AH-C4`` in its docstring, so a search for the ID finds both;
every ID also appears in ``events/games/arkham`` (a rejection, an event's clause, a docstring).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.games.arkham.helpers import ARKHAM_DIR, GAME

HERE = Path(__file__).resolve().parent
DIGEST_IDS = [f"AH-{n}" for n in range(1, 13)] + [f"AH-C{n}" for n in range(1, 11)]


def clause_tests() -> dict:
    """Test function name -> docstring, over every test module of this folder."""
    tests = {}
    for path in sorted(HERE.glob("test_*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                tests[node.name] = ast.get_docstring(node) or ""
    return tests


def test_ah_1_the_catalogue_holds_every_clause_of_the_digest():
    """AH-1…AH-12 and AH-C1…AH-C10, in the digest's order, nothing more."""
    assert GAME.catalogue.ids() == DIGEST_IDS


def test_every_clause_is_named_by_a_test_and_cited_in_its_docstring():
    tests = clause_tests()
    missing = []
    for clause in GAME.catalogue.ids():
        token = clause.lower().replace("-", "_")
        if not [name for name, doc in tests.items() if f"_{token}_" in f"{name}_" and clause in doc]:
            missing.append(clause)
    assert missing == []


def test_a_test_named_for_a_clause_cites_it():
    """A test called ``test_ah_c4_…`` says ``AH-C4`` in its docstring."""
    for name, doc in clause_tests().items():
        for clause in GAME.catalogue.ids():
            if name.startswith(f"test_{clause.lower().replace('-', '_')}_"):
                assert re.search(rf"{clause}(?![0-9])", doc), name


def test_every_clause_is_cited_in_the_rules_code():
    """Each clause ID appears in events/games/arkham (outside the catalogue itself)."""
    source = "\n".join(path.read_text(encoding="utf-8") for path in sorted(ARKHAM_DIR.glob("*.py"))
                       if path.name != "clauses.py")
    missing = [clause for clause in GAME.catalogue.ids() if not re.search(rf'"{clause}"|{clause}(?![0-9])', source)]
    assert missing == []
