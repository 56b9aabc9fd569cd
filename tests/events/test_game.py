"""The game contract and the games registry."""

from __future__ import annotations

import pytest

import events.games
from events.game import Game, GameStarted, rule_of
from events.record import Registry
from tests.events.toy import CATALOGUE, COMMANDS, TOY, Added, Rolled, decide, evolve, start


def test_a_game_must_register_game_started():
    with pytest.raises(ValueError, match="game 'bad' must register GameStarted among its events"):
        Game("bad", "1", CATALOGUE, Registry("event", (Added,)), COMMANDS, start, decide, evolve,
             lambda s, seat: s, lambda s, seat: [], lambda s: False, lambda s: (), lambda s: ())


def test_a_game_without_trace_explains_nothing():
    assert TOY.trace(Added(1)) == []
    assert repr(TOY) == "Game('toy', rules toy-1)"


def test_rule_of_reads_the_event_field_then_the_class():
    assert rule_of(Added(1)) == "T-1"
    assert rule_of(Rolled(3, rule="T-9")) == "T-9"
    assert rule_of(GameStarted("toy", "1", 0, (), "{}")) is None


def test_games_load_by_name():
    game = events.games.load("mecha")
    assert game.name == "mecha" and game is events.games.load("mecha")
    assert events.games.NAMES[0] == "mecha" and len(set(events.games.NAMES)) == len(events.games.NAMES)
    with pytest.raises(KeyError, match="unknown game 'chess' \\(known: mecha, "):
        events.games.load("chess")
