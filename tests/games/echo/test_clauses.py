"""STYLE habit 12: every clause of the catalogue is named by a test (``ec_4`` in the name, ``EC-4`` in its
docstring), and the catalogue holds every clause of the digest, in English and in Russian."""

from __future__ import annotations

import re
from pathlib import Path

from events.games.echo.clauses import CATALOGUE, ENGLISH, RUSSIAN
from tests.games.clauses_check import (
    clause_tests,
    clauses_no_test_names,
    clauses_not_cited_in_code,
    named_tests_not_citing_their_clause,
)
from tests.games.echo.helpers import GAME

HERE = Path(__file__).resolve().parent
DIGEST = Path("/work/shared/rules/echo.md")
DIGEST_IDS = [f"EC-{n}" for n in range(1, 21)] + [f"EC-C{n}" for n in range(1, 5)]
SOURCES = Path(__file__).resolve().parents[3] / "events" / "games" / "echo"


def test_ec_c3_the_catalogue_holds_every_clause_of_the_digest():
    """EC-C3 (and every other ID): the catalogue's IDs are exactly EC-1…EC-20 and EC-C1…EC-C4."""
    assert GAME.catalogue.ids() == DIGEST_IDS
    if DIGEST.exists():  # the shared digest, when this checkout sits beside it
        assert sorted(set(re.findall(r"\*\*(EC-C?\d+)", DIGEST.read_text(encoding="utf-8")))) == sorted(DIGEST_IDS)


def test_ec_1_every_citation_exists_in_english_and_russian():
    """EC-1…EC-C4: each clause has an English and a Russian title and text; the game's catalogue shows both."""
    for cid in DIGEST_IDS:
        english, russian, both = ENGLISH[cid], RUSSIAN[cid], CATALOGUE[cid]
        assert re.search("[А-Яа-яЁё]", russian.title) and re.search("[А-Яа-яЁё]", russian.text), cid
        assert not re.search("[А-Яа-яЁё]", english.title), cid
        assert both.title == f"{english.title} · {russian.title}" and russian.text in both.text, cid


def test_every_clause_is_named_by_a_test_and_cited_in_its_docstring():
    assert clauses_no_test_names(GAME.catalogue.ids(), clause_tests(HERE)) == []


def test_a_test_named_for_a_clause_cites_it():
    """A test called ``test_ec_4_…`` says ``EC-4`` in its docstring, so a search for the ID finds both."""
    assert named_tests_not_citing_their_clause(GAME.catalogue.ids(), clause_tests(HERE)) == []


def test_every_clause_is_cited_in_the_code():
    """Every clause ID appears in the rules code or its data loaders (a rejection, an event, a reading)."""
    assert clauses_not_cited_in_code(DIGEST_IDS, SOURCES) == []
