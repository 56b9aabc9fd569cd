"""The opening checks every decide shares (issue 13), run once by ``Game`` from each game's ``Guards``.

Each game gives its clause and its words; the rules behind the guards never see an unstarted or
finished game, a stranger's seat or another game's command.
"""

from __future__ import annotations

import pytest

import events.games
from events.game import Game, Guards
from events.log import Table
from events.record import Record
from events.rules import Rejection
from tests.events.toy import CATALOGUE, COMMANDS, EVENTS, Add, Added, Count, evolve, start


def said(result: object) -> tuple:
    """A refusal's clause and English reason (its message key and params are checked in tests/test_reject_i18n.py)."""
    assert isinstance(result, Rejection), result
    return result.rule, result.reason


class Stranger(Record):
    """A command of no game."""

    __slots__ = ()
    TYPE = "Add"  # a tag one registry knows, on another class: still not that game's command


def _toy(calls: list, over: bool = False, guards: Guards | None = None) -> Game:
    def decide(state, seat, command, rng):
        calls.append(command)
        return [Added(command.k)]

    return Game(
        name="toy", rules_version="toy-1", catalogue=CATALOGUE, events=EVENTS, commands=COMMANDS, start=start,
        decide=decide, evolve=evolve, view=lambda state, seat: state, legal=lambda state, seat: [],
        is_over=lambda state: over, turn=lambda state: ("a",), seats=lambda state: state.seats,
        guards=guards or Guards("T-1", over="the game is over at {total}", no_seat="no seat '{seat}' ({seats})", keys="reject.toy"),
    )


def test_the_guards_run_in_order_before_the_rules_and_cite_the_games_clause():
    calls: list = []
    state = Count(7, ("a", "b"), 1)
    assert said(_toy(calls).decide(None, "a", Add(1), None)) == ("T-1", "the game has not started")
    assert said(_toy(calls, over=True).decide(state, "z", Stranger(), None)) == ("T-1", "the game is over at 7")
    assert said(_toy(calls).decide(state, "z", Stranger(), None)) == ("T-1", "no seat 'z' (a, b)")
    assert said(_toy(calls).decide(state, "a", Stranger(), None)) == ("T-1", "Stranger is not a command of this game")
    assert calls == []
    assert _toy(calls).decide(state, "b", Add(2), None) == [Added(2)]
    assert calls == [Add(2)]


def test_a_foreign_command_may_cite_a_clause_of_its_own():
    guards = Guards("T-1", foreign="{command}: not a toy command", foreign_rule="T-2", keys="reject.toy")
    assert said(_toy([], guards=guards).decide(Count(0, ("a",), 1), "a", Stranger(), None)) == (
        "T-2", "Stranger: not a toy command")


def test_a_revised_decide_goes_behind_the_same_guards():
    calls: list = []
    game = _toy(calls)

    def decide_2(state, seat, command, rng):
        calls.append(("2", command))
        return [Added(command.k * 2)]

    revised = game.revised("toy-2", decide=decide_2)
    assert revised.guards is game.guards and revised.rules_decide is decide_2
    assert said(revised.decide(None, "a", Add(1), None)) == ("T-1", "the game has not started")
    assert revised.decide(Count(0, ("a",), 1), "a", Add(3), None) == [Added(6)]
    assert calls == [("2", Add(3))]


def test_a_game_without_guards_decides_with_its_own_function():
    def decide(state, seat, command, rng):
        return Rejection("T-1", "mine")

    game = Game("toy", "toy-1", CATALOGUE, EVENTS, COMMANDS, start, decide, evolve, lambda s, seat: s,
                lambda s, seat: [], lambda s: False, lambda s: (), lambda s: ())
    assert game.guards is None and game.decide is decide and game.rules_decide is decide


def _first_scenario(name: str) -> dict:
    from server.scenarios import builtin_scenarios, load

    return load(next(item for item in builtin_scenarios() if item.startswith(name + "/")))[1]


GUARDED = {
    # game: (clause, its words once over, an unknown seat's refusal, a foreign command's clause and words)
    "mecha": ("MV-C3", "the game is over: all {rounds} rounds are played", "there is no seat 'nobody' in this game",
              "MV-C3", "Stranger is not a command of this game"),
    "arkham": ("AH-1", "the game is over: all {rounds} Movement phases are played",
               "there is no seat 'nobody' in this game", "AH-1", "Stranger is not a command of this game"),
    "echo": ("EC-C3", "the game is over after round {round}", "there is no seat 'nobody' in this game", "EC-1",
             "Stranger is not a command of the Movement phase: investigators move, evade, fight and trade items"),
    "skirmish": ("SK-C5", "the game is over", "there is no side 'nobody' in this game (sides: {seats})", "SK-C5",
                 "Stranger is not a command of this game"),
}


@pytest.mark.parametrize("name", sorted(GUARDED))
def test_mv_c3_ah_1_ec_c3_sk_c5_each_game_guards_its_decide_with_its_own_clause_and_words(name):
    """MV-C3, AH-1, EC-C3 (EC-1), SK-C5: the four games' guards, each released version alike."""
    rule, over, no_seat, foreign_rule, foreign = GUARDED[name]
    for game in events.games.load(name).versions():
        assert game.guards is not None
        state = Table.create(game, "g", _first_scenario(name), 3).state
        seats = game.seats(state)
        command = game.legal(state, game.turn(state)[0])[0]
        assert said(game.decide(None, seats[0], command, None)) == (rule, "the game has not started")
        assert said(game.decide(state, "nobody", command, None)) == (rule, no_seat.format(seats=", ".join(seats)))
        assert said(game.decide(state, seats[0], Stranger(), None)) == (foreign_rule, foreign)
        ended = state.but(over=True)
        words = over.format(rounds=getattr(state, "rounds", None), round=getattr(state, "round", None))
        assert said(game.decide(ended, seats[0], command, None)) == (rule, words)


def test_gh_c2_gloomhaven_guards_its_decide_with_its_own_clause_and_words():
    """GH-C2: gloomhaven's opening checks are its Guards now, with its words (the scenario's outcome once over)."""
    game = events.games.load("gloomhaven")
    assert game.guards is not None and game.decide is not game.rules_decide
    state = Table.create(game, "g", _first_scenario("gloomhaven"), 3).state
    seat = game.turn(state)[0]
    command = game.legal(state, seat)[0]
    assert said(game.decide(None, seat, command, None)) == ("GH-C2", "the game has not started")
    assert said(game.decide(state, "nobody", command, None)) == ("GH-C2", "there is no seat 'nobody' in this game")
    assert said(game.decide(state, seat, Stranger(), None)) == ("GH-C2", "Stranger is not a command of this game")
    ended = state.but(phase="over", outcome="won")
    assert said(game.decide(ended, seat, command, None)) == ("GH-C2", "the scenario is over (won)")
