"""Properties of whole random games (hypothesis): legal moves, refusals, replay, audit, purity.

Each example plays a built-in scenario with commands picked from ``legal()`` by the drawn choices,
so a failure shrinks to the shortest game that shows it.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from events.canonical import state_hash
from events.games.echo import model
from events.log import Envelope, audit
from events.rng import Rng
from events.rules import Rejection
from tests.games import properties
from tests.games.echo.helpers import BUILTINS, GAME, builtin
from tests.games.properties import seeds

SCENARIOS = {name: builtin(name) for name in BUILTINS}
FAST = settings(max_examples=30, deadline=None)

names = properties.names(SCENARIOS)
choices = properties.choices(80)
WORDS = ("old-city", "dark-side", "juffins-office", "novice-1", "magister-1", "dagger", "banishing-spark",
         "gloves-of-death", "attention", "stealth", "red", "blue", "nobody", "")
words = st.sampled_from(WORDS)
anything = st.one_of(
    st.builds(model.Move, words), st.just(model.EndMove()), st.builds(model.Evade, words),
    st.just(model.Fight()), st.builds(model.CheckOrder, words), st.builds(model.Strike, words, words),
    st.just(model.Pass()), st.just(model.RollAttack()), st.builds(model.Trade, words, words),
    st.builds(model.Exchange, words),
)


def play(name: str, seed: int, picks: list):
    """A game where each pick chooses among the legal commands; every one must be accepted."""
    return properties.play(GAME, SCENARIOS[name], seed, picks)


@FAST
@given(names, seeds, choices)
def test_ec_c3_a_command_from_legal_is_never_rejected_and_someone_can_always_act(name, seed, picks):
    """EC-C3: legal() lists only commands decide accepts, and until the end one seat always has one."""
    tab = play(name, seed, picks)
    if not GAME.is_over(tab.state):
        (seat,) = GAME.turn(tab.state)
        assert GAME.legal(tab.state, seat)


@FAST
@given(names, seeds, choices, st.lists(st.tuples(st.sampled_from(("red", "blue", "green")), anything), max_size=10))
def test_ec_c3_any_command_is_accepted_or_refused_with_a_clause_and_decide_is_pure(name, seed, picks, tries):
    """EC-C3: any command from any seat is accepted or refused citing a catalogue clause; the
    state is never changed by deciding (STYLE habit 2); what the acting seat is offered is accepted."""
    tab = play(name, seed, picks)
    for seat, command in tries:
        before = state_hash(tab.state)
        result = GAME.decide(tab.state, seat, command, Rng(seed))
        assert state_hash(tab.state) == before
        if isinstance(result, Rejection):
            assert result.rule in GAME.catalogue and result.reason
        else:
            assert result
            seat_turn = GAME.turn(tab.state)
            if seat in seat_turn and not isinstance(command, (model.Trade, model.Exchange)):
                assert command in GAME.legal(tab.state, seat), (seat, command)


@FAST
@given(names, seeds, choices)
def test_ec_13_the_log_replays_and_audits_and_every_roll_is_the_left_seats(name, seed, picks):
    """EC-13: the log through JSON audits clean; every enemy attack was rolled by the fighter's left seat."""
    tab = play(name, seed, picks)
    wire = [Envelope.from_dict(GAME, json.loads(json.dumps(envelope.to_dict()))) for envelope in tab.envelopes]
    assert audit(GAME, wire) is None
    seats = tab.state.seats
    for envelope in tab.envelopes:
        if envelope.type == "EnemyAttacked":
            fighter = envelope.event.seat
            assert envelope.seat == envelope.event.roller == seats[(seats.index(fighter) + 1) % len(seats)]


@FAST
@given(names, seeds, choices)
def test_ec_18_tracks_and_points_stay_sane(name, seed, picks):
    """EC-18 / EC-15: a living investigator outside the fight never sits at 0 or below in a track,
    and movement points never go below 0 (rounds at 0 cost nothing more)."""
    tab = play(name, seed, picks)
    for inv in tab.state.investigators:
        assert inv.mp >= 0
        if inv.alive:
            assert inv.sanity >= 1 and inv.health >= 1
