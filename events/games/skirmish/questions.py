"""Rule questions on a skirmish position (issue 18): one implementation for ``chronicle ask
skirmish`` and the replay page's "Ask the rules" (``client/questions.py``).

Line of sight and reachable squares are the rules' own ``sight`` and ``destinations``; this module
adds what the CLI used to hold: judging a path a player says a figure took.
"""

from __future__ import annotations

from events.games.skirmish.model import Activation, Move
from events.games.skirmish.rules import decide, destinations


def reachable(state: object, item: object) -> dict:
    """Every square ``item`` can end a move on this activation -> (cost, path): up to twice its
    movement points (SK-C2), ``cost <= item.speed`` leaving it an attack."""
    return destinations(state, item, 2 * item.speed)


def judge_path(state: object, item: object, path: tuple) -> tuple:
    """(cost, None) when a Move of ``item`` along ``path`` (the squares entered) is legal, as the
    rules would judge it at the start of its activation: its side on turn, nothing spent yet
    (SK-C2, SK-C5); else (None, the Rejection of the first illegal step, with its clause)."""
    fresh = state.but(turn=state.sides.index(item.side), active=Activation(item.id, 0, 0, False, (), ()))
    result = decide(fresh, item.side, Move(item.id, path[-1], tuple(path)), None)
    if isinstance(result, list):
        return result[0].cost, None
    return None, result
