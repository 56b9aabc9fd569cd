"""Bots: random and greedy policies play every built-in scenario to its end with legal commands only."""

from __future__ import annotations

import pytest

import events.games
from events.bots import MAX_OPTIONS, GreedyBot, RandomBot, bot, playout
from events.canonical import state_hash
from events.log import Table, audit
from events.rng import Rng
from server import scenarios

BUILT_IN = (
    "mecha/sample", "mecha/three-mechs", "arkham/crossing", "arkham/other-world", "gloomhaven/drake-den",
    "echo/first-case", "echo/novice-duel", "skirmish/troll-gate", "skirmish/courtyard",
)


def _table(name: str, seed: int = 7) -> Table:
    game_name, scenario = scenarios.load(name)
    game = events.games.load(game_name)
    return Table.create(game, "g-bots", scenario, seed)


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("name", BUILT_IN)
def test_bots_play_a_built_in_scenario_to_its_end_and_the_log_audits(name, policy):
    table = _table(name)
    game = table.game
    made = playout(table, {seat: bot(game, policy) for seat in game.seats(table.state)}, Rng(3), 3000)
    assert made > 0
    assert game.is_over(table.state), f"{name}: {policy} bots stopped after {made} commands without an end"
    assert audit(game, table.envelopes) is None


def test_a_bot_game_is_a_function_of_its_seeds():
    first, second = _table("echo/first-case"), _table("echo/first-case")
    for table in (first, second):
        playout(table, {seat: bot(table.game, "greedy") for seat in table.game.seats(table.state)}, Rng(11), 500)
    assert [e.hash for e in first.envelopes] == [e.hash for e in second.envelopes]
    assert state_hash(first.state) == state_hash(second.state)


def test_greedy_takes_the_command_its_score_rates_best():
    table = _table("mecha/sample")
    game = table.game
    seat = game.turn(table.state)[0]
    index = [item.seat for item in table.state.seats].index(seat)
    moves = [option for option in game.legal(table.state, seat) if getattr(option, "to", None) is not None]
    assert len(moves) > 1
    wanted = moves[len(moves) // 2].to

    def score(state, who):  # only the one Location counts
        return 1 if state.positions[index] == wanted else 0

    for seed in range(5):
        chosen = GreedyBot(score).choose(game, table.state, seat, Rng(seed))
        assert chosen.to == wanted


def test_greedy_looks_at_no_more_than_max_options_commands():
    table = _table("skirmish/courtyard")
    game = table.game
    seat = game.turn(table.state)[0]
    looked = []

    def score(state, who):
        looked.append(1)
        return 0

    many = len(game.legal(table.state, seat))
    GreedyBot(score).choose(game, table.state, seat, Rng(1))
    assert len(looked) == min(many, MAX_OPTIONS)


def test_a_random_bot_without_a_legal_command_passes_its_turn_to_nobody():
    table = _table("mecha/sample")
    game = table.game
    idle = next(seat for seat in game.seats(table.state) if seat not in game.turn(table.state))
    assert RandomBot().choose(game, table.state, idle, Rng(1)) is None


def test_an_unknown_policy_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="random, greedy"):
        bot(_table("mecha/sample").game, "clever")


def test_gh_c2_greedy_on_a_seats_view_rates_a_pick_that_would_reveal_the_others_as_unchanged():
    """GH-C2: on blue's view red's pick is sealed and empty, so deciding blue's last pick (which
    reveals every pick) cannot be worked out there; greedy still chooses one of blue's picks."""
    table = _table("gloomhaven/barrow")
    game = table.game
    table.submit("red", game.legal(table.state, "red")[0], "c-1")
    view = None
    for envelope in table.envelopes:
        view = game.evolve(view, game.visible(envelope, "blue").event)
    assert state_hash(view) == state_hash(table.state)
    chosen = bot(game, "greedy").choose(game, view, "blue", Rng(3))
    assert chosen in game.legal(table.state, "blue")
