"""STYLE habit 12: every clause of the catalogue is named by a test and cited in the rules code.

A test named ``test_ah_c4_…`` says ``AH-C4`` in its docstring, so a search for the ID finds both;
every ID also appears in ``events/games/arkham`` (a rejection, an event's clause, a docstring).
"""

from __future__ import annotations

from pathlib import Path

from tests.games.arkham.helpers import ARKHAM_DIR, GAME
from tests.games.clauses_check import (
    clause_tests,
    clauses_no_test_names,
    clauses_not_cited_in_code,
    named_tests_not_citing_their_clause,
)

HERE = Path(__file__).resolve().parent
DIGEST_IDS = [f"AH-{n}" for n in range(1, 13)] + [f"AH-C{n}" for n in range(1, 11)]


def test_ah_1_the_catalogue_holds_every_clause_of_the_digest():
    """AH-1…AH-12 and AH-C1…AH-C10, in the digest's order, nothing more."""
    assert GAME.catalogue.ids() == DIGEST_IDS


def test_every_clause_is_named_by_a_test_and_cited_in_its_docstring():
    assert clauses_no_test_names(GAME.catalogue.ids(), clause_tests(HERE)) == []


def test_a_test_named_for_a_clause_cites_it():
    """A test called ``test_ah_c4_…`` says ``AH-C4`` in its docstring."""
    assert named_tests_not_citing_their_clause(GAME.catalogue.ids(), clause_tests(HERE), exact=True) == []


def test_every_clause_is_cited_in_the_rules_code():
    """Each clause ID appears in events/games/arkham (outside the catalogue itself)."""
    assert clauses_not_cited_in_code(GAME.catalogue.ids(), ARKHAM_DIR) == []
