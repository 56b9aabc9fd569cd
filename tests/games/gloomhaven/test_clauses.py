"""STYLE habit 12: every clause of the catalogue is named by a test (``gh_c4`` in the name, ``GH-C4`` in its docstring)."""

from __future__ import annotations

from pathlib import Path

from tests.games.clauses_check import (
    clause_tests,
    clauses_no_test_names,
    clauses_not_cited_in_code,
    named_tests_not_citing_their_clause,
)
from tests.games.gloomhaven.helpers import GAME, GLOOM_DIR

HERE = Path(__file__).resolve().parent
DIGEST = ["GH-1", "GH-2", "GH-3", "GH-4", "GH-5", "GH-6", "GH-7", "GH-8", "GH-C1", "GH-C2", "GH-C3", "GH-C4", "GH-C5",
          "GH-C6", "GH-C7", "GH-C8", "GH-C9", "GH-C10", "GH-C11", "GH-V1", "GH-V2"]
EXTRA = (HERE.parents[1] / "events" / "test_hexmap.py",)  # the hex geometry's clauses are tested there


def test_gh_catalogue_holds_every_clause_of_the_digest():
    assert GAME.catalogue.ids() == DIGEST


def test_every_clause_is_named_by_a_test_and_cited_in_its_docstring():
    assert clauses_no_test_names(GAME.catalogue.ids(), clause_tests(HERE, EXTRA)) == []


def test_a_test_named_for_a_clause_cites_it():
    """Exactly: ``GH-C1`` inside ``GH-C10`` does not count."""
    assert named_tests_not_citing_their_clause(GAME.catalogue.ids(), clause_tests(HERE, EXTRA), exact=True) == []


def test_every_clause_is_cited_in_the_rules_code():
    """Each clause ID appears in events/games/gloomhaven/*.py (its catalogue aside), where it is built."""
    assert clauses_not_cited_in_code(GAME.catalogue.ids(), GLOOM_DIR) == []
