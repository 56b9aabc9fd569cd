"""Properties of whole random games (hypothesis): legal moves, replay, purity, invariants.

Each example plays a built-in scenario (or a crowded one, monsters everywhere and the Clue option
on) with commands picked from ``legal()`` by the drawn choices, so a failure shrinks to the
shortest game that shows it.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from events.log import command_groups, fold
from events.rng import Rng
from tests.games import properties
from tests.games.arkham.helpers import BUILTINS, GAME, builtin, inv, mon, scenario
from tests.games.properties import (
    assert_accepted_exactly_when_legal,
    assert_decide_is_pure,
    assert_envelopes_survive_json,
    assert_replay_equals_live,
    evolved,
    seeds,
)

CROWDED = scenario(
    [inv("red", "graveyard", clues=3, items=["Knife"]), inv("blue", "rivertown", stamina=2, sanity=2, clues=2),
     inv("green", "abyss_2", sneak=1), inv("yellow", "lost_in_time_and_space")],
    [mon("zombie", "rivertown", awareness=1, combat_damage=2), mon("ghoul", "rivertown", awareness=-3, ambush=True),
     mon("dhole", "french_hill", horror_rating=-1, horror_damage=3, combat_rating=-3, combat_damage=3, toughness=3,
         nightmarish=1, overwhelming=1),
     mon("nightgaunt", "merchant_district", elusive=True), mon("cultist", "miskatonic_u")],
    gates=(("woods", "abyss"), ("graveyard", "abyss")), clues={"library": 2, "rivertown": 1, "woods": 1},
    rounds=4, options={"spend_clues": True},
)
SCENARIOS = {name: builtin(name) for name in BUILTINS} | {"crowded": CROWDED}
FAST = settings(max_examples=25, deadline=None)

names = properties.names(SCENARIOS)
choices = properties.choices(80)


def play(name: str, seed: int, picks: list):
    """A game where each pick chooses among the legal commands (never none before the end); all accepted."""
    return properties.play(GAME, SCENARIOS[name], seed, picks)


@FAST
@given(names, seeds, choices)
def test_ah_1_a_command_from_legal_is_never_rejected_and_someone_can_always_act(name, seed, picks):
    """AH-1: legal() lists only commands decide accepts, and is never empty before the end (in ``play``)."""
    tab = play(name, seed, picks)
    assert tab.seq >= 2


@FAST
@given(names, seeds, choices, st.lists(st.sampled_from(["rivertown", "library", "woods", "sky", "rlyeh_1", "x"]),
                                       min_size=1, max_size=6))
def test_ah_2_a_move_is_accepted_exactly_when_legal_lists_it(name, seed, picks, targets):
    """AH-2 / AH-3 / AH-7: Move(to) is accepted iff listed; any refusal cites a catalogue clause."""
    from events.games.arkham.model import Move

    tab = play(name, seed, picks)
    assert_accepted_exactly_when_legal(GAME, tab, [Move(to) for to in targets])


@FAST
@given(names, seeds, choices)
def test_ah_c1_replaying_the_log_gives_the_live_state_and_hashes(name, seed, picks):
    """AH-C1: dice are in the events: restore, fold and audit agree with the live table; the wire: every
    envelope survives JSON unchanged."""
    tab = play(name, seed, picks)
    assert_replay_equals_live(GAME, tab)
    assert_envelopes_survive_json(GAME, tab.envelopes)


@FAST
@given(names, seeds, choices)
def test_evolve_and_decide_never_mutate_their_input(name, seed, picks):
    """STYLE habit 2: hashing a state before and after evolve or decide finds it unchanged."""
    state = None
    for _envelope, after in evolved(GAME, play(name, seed, picks).envelopes):
        state = after
    if not GAME.is_over(state):
        assert_decide_is_pure(GAME, state, lambda: Rng(seed))


@FAST
@given(names, seeds, choices)
def test_ah_c4_invariants_hold_after_every_command(name, seed, picks):
    """AH-C3 / AH-C4 / AH-5: after each command nobody stands at 0 (collapsed or devoured at once),
    monsters are on the board or trophies, and Clue tokens only move (or are lost by AH-C4)."""
    tab = play(name, seed, picks)
    first = tab.envelopes[0].event
    from events.games.arkham.rules import initial_state

    start = initial_state(first)
    monsters = {monster.id for monster in start.monsters}
    clues_at_start = sum(count for _area, count in start.clues) + sum(i.clues for i in start.investigators)
    state = None
    lost = 0
    for group in command_groups(tab.envelopes):
        state = fold(GAME, [envelope.event for envelope in group], state)
        lost += sum(envelope.event.clues_lost for envelope in group if envelope.type == "KnockedOut")
        for investigator in state.investigators:
            assert investigator.devoured or (investigator.stamina >= 1 and investigator.sanity >= 1)
        trophies = {monster_id for i in state.investigators for monster_id, _name in i.trophies}
        assert {monster.id for monster in state.monsters} | trophies == monsters
        assert not ({monster.id for monster in state.monsters} & trophies)
        clues = sum(count for _area, count in state.clues) + sum(i.clues for i in state.investigators)
        spent = sum(1 for envelope in tab.envelopes[: group[-1].seq] if envelope.type == "ClueSpent")
        assert clues + lost + spent == clues_at_start


@FAST
@given(names, seeds, choices)
def test_ah_1_every_state_between_two_events_answers_the_pages_questions(name, seed, picks):
    """AH-1: a replay shows states in the middle of a command; turn, phase, legal and destinations work there."""
    from events.games.arkham import rules

    tab = play(name, seed, picks)
    state = None
    for envelope in tab.envelopes:
        state = GAME.evolve(state, envelope.event)
        rules.phase(state)
        rules.destinations(state)
        for seat in GAME.turn(state):
            GAME.legal(state, seat)
