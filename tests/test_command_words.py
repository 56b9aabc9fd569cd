"""Every command has words (the tablefix pass): a command no board words was named by its English type
on the dispute panel, in an undo's refusal ("seq 3 is red's command Move") and in the what-if's note on
the engine's own commands. Each command type every released rules version of every game registers, and
each of the engine's own (undo CORE-4 to CORE-7, rules versions CORE-10, CORE-11), has a message
``tablefix.cmd.<game>.<Type>`` (``core`` for the engine's) in English, French and Russian."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import events.games
from client import i18n
from events.game import CORE_COMMANDS

CATALOGUES = {lang: json.loads((Path(__file__).resolve().parents[1] / "client" / "i18n" / f"{lang}.json")
                               .read_text(encoding="utf-8")) for lang in ("en", "fr", "ru")}


def command_types() -> list:
    """(game, type) of every command any released version of any game takes, then the engine's own."""
    found = set()
    for name in events.games.NAMES:
        newest = events.games.load(name)
        for game in (newest,) + tuple(newest.versions()):
            found.update((name, kind) for kind in game.commands.by_type)
    return sorted(found) + [("core", kind) for kind in sorted(CORE_COMMANDS.by_type)]


def test_the_enumeration_finds_every_game_s_commands_and_the_engine_s():
    kinds = command_types()
    assert {game for game, _kind in kinds} == set(events.games.NAMES) | {"core"}
    assert ("core", "AskUndo") in kinds and ("core", "AnswerRulesVersion") in kinds
    assert ("arkham", "SpendClue") in kinds and ("gloomhaven", "ChooseOrder") in kinds


@pytest.mark.parametrize("game, kind", command_types())
def test_every_command_type_has_words_in_each_language(game, kind):
    key = f"tablefix.cmd.{game}.{kind}"
    texts = {lang: CATALOGUES[lang].get(key) for lang in CATALOGUES}
    assert all(isinstance(text, str) and text for text in texts.values()), (key, texts)
    assert texts["fr"] != texts["en"] and texts["ru"] != texts["en"], (key, texts)


def test_a_command_is_named_in_the_reader_s_words_never_by_its_type():
    """``client.i18n.command_name`` (the dispute panel's fallback, the what-if's note) and an undo's
    refusal naming another seat's command (CORE-4, ``reject.undo.not_own``): in French, the words."""
    try:
        i18n.install({"lang": "fr", "messages": CATALOGUES["fr"]})
        assert i18n.command_name("arkham", "SpendClue") == "Dépenser un Pion Indice"
        assert i18n.command_name("mecha", "AskUndo") == "Demander une annulation"  # the engine's own, in any game
        said = i18n.message("mecha", "reject.undo.not_own", {"back_to": 3, "seat": "red", "command": "Move"})
        assert "Déplacement" in said and "Move" not in said, said
    finally:
        i18n.install({})
