"""STYLE habit 12: every clause of the catalogue is named by a test (``mv_6a`` in the name, ``MV-6a`` in its docstring)."""

from __future__ import annotations

from pathlib import Path

from tests.games.clauses_check import clause_tests, clauses_no_test_names, named_tests_not_citing_their_clause
from tests.games.mecha.helpers import GAME

HERE = Path(__file__).resolve().parent


def test_every_clause_is_named_by_a_test_and_cited_in_its_docstring():
    assert clauses_no_test_names(GAME.catalogue.ids(), clause_tests(HERE)) == []


def test_a_test_named_for_a_clause_cites_it():
    """A test called ``test_mv_6a_…`` says ``MV-6a`` in its docstring, so a search for the ID finds both."""
    assert named_tests_not_citing_their_clause(GAME.catalogue.ids(), clause_tests(HERE)) == []
