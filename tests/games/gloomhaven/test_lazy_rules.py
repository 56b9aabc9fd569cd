"""gloomhaven-1's frozen rules are imported on the first call, then called directly (issue 13).

``LazyRules`` stands in for ``v1.rules`` so that a page playing gloomhaven-2 never compiles the
frozen modules; the first call of any part binds the real functions into the games it was bound
to, so a fold of a gloomhaven-1 log does not pay an import statement and a wrapper per event.
"""

from __future__ import annotations

from pathlib import Path

from events.game import released
from events.games import gloomhaven
from events.games.gloomhaven.v1 import LazyRules, decide_1
from events.games.gloomhaven.v1 import rules as rules_1
from server import logfile

CORPUS = Path(__file__).parents[2] / "corpus" / "gloomhaven" / "gloomhaven-1"


def test_core_3_a_gloomhaven_1_game_calls_its_frozen_rules_directly_after_the_first_call():
    lazy = LazyRules()
    game = gloomhaven.GAME_1
    fresh = lazy.bind(released("gloomhaven", "gloomhaven-1", lazy, game.words, game.catalogue, game.events,
                               game.commands, game.view, decide=decide_1, guards=None))
    stand_in = fresh.evolve
    assert stand_in is not rules_1.evolve and fresh.is_over is not rules_1.is_over
    _game, envelopes = logfile.read(sorted(CORPUS.glob("*.jsonl"))[0])
    state = stand_in(None, envelopes[0].event)  # the first call: through the stand-in
    assert fresh.evolve is rules_1.evolve and fresh.is_over is rules_1.is_over  # every part bound
    for envelope in envelopes[1:]:
        state = stand_in(state, envelope.event)  # a stand-in held on to still works
    assert rules_1.is_over(state) == fresh.is_over(state)
    unbound = LazyRules()
    assert unbound.evolve is not unbound.evolve  # a part not yet called is a new stand-in each time


def test_core_3_the_released_gloomhaven_1_game_is_bound_to_its_stand_ins():
    assert gloomhaven.GAME_1 in gloomhaven._LAZY_1.games
    assert gloomhaven.GAME.evolve is not gloomhaven.GAME_1.evolve  # gloomhaven-2 has its own rules
