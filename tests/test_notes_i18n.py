"""The notes of a rules version (``Game.revised(..., notes=...)``, CORE-3) are catalogue messages
(issue 17): ``notes.<rules_version>.<clause>`` in en, fr and ru, the English equal to the note's own
text (the one ``GET /api/games/{id}/rules`` and the CLI give), and no such key without its note."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import events.games

ROOT = Path(__file__).resolve().parents[1]
CATALOGUES = {lang: json.loads((ROOT / "client" / "i18n" / f"{lang}.json").read_text("utf-8"))
              for lang in ("en", "fr", "ru")}
GAMES = ("arkham", "echo", "gloomhaven", "mecha", "skirmish")


def notes() -> dict:
    """Every released version's notes: key -> the English text."""
    found = {}
    for name in GAMES:
        for game in events.games.load(name).versions():
            for clause, text in game.notes:
                found[f"notes.{game.rules_version}.{clause}"] = text
    return found


def test_core_3_every_note_of_every_rules_version_is_the_english_catalogue_text():
    found = notes()
    assert found, "no rules version has notes: the test would check nothing"
    for key, text in found.items():
        assert CATALOGUES["en"].get(key) == text, f"en.json {key} must be the note's text"


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_core_3_every_note_is_said_in_french_and_russian_not_copied(lang):
    for key, text in notes().items():
        said = CATALOGUES[lang].get(key)
        assert isinstance(said, str) and said.strip(), f"{lang}.json lacks {key}"
        assert said != text, f"{lang}.json {key} is the English"


def test_core_3_no_notes_key_names_a_note_no_version_has():
    keys = {key for key in CATALOGUES["en"] if key.startswith("notes.")}
    assert sorted(keys - set(notes())) == []


def test_core_4_the_cores_clauses_the_pages_word_are_the_core_catalogues_english():
    """CORE-1, CORE-2 and the undo's CORE-4 to CORE-7 (``core.clause_title.<id>``, ``core.clause_text.<id>``,
    ``client/eventlog.py``): the English is ``events/rules.py``'s own; CORE-3/10/11 are ``consent.*``."""
    from events.rules import CORE

    worded = sorted(key.rsplit(".", 1)[1] for key in CATALOGUES["en"] if key.startswith("core.clause_title."))
    consent = {key.rsplit(".", 1)[1] for key in CATALOGUES["en"] if key.startswith("consent.clause_title.")}
    assert sorted(set(CORE.by_id) - consent) == worded  # every core clause has its words
    for clause_id in worded:
        assert CATALOGUES["en"][f"core.clause_title.{clause_id}"] == CORE[clause_id].title
        assert CATALOGUES["en"][f"core.clause_text.{clause_id}"] == CORE[clause_id].text
        for lang in ("fr", "ru"):
            assert CATALOGUES[lang][f"core.clause_text.{clause_id}"] != CORE[clause_id].text
