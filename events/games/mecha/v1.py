"""mecha-1, as released in c1f16d2 (the first commit) and replaced by mecha-2 in 0fd58ea: frozen.

mecha-1 logs are played, audited and replayed under these rules indefinitely (issue 19), so this
module must never change: a fix is a new rules version (``Game.revised``), never an edit here.
It keeps the two mecha-1 outcomes mecha-2 changed and shares everything else with ``rules``:

- GameEnded's tallies (MV-C3) count the plans and reveals from *before* the last command: the
  last command's own reveal was missed (``decide_1``);
- the value-20 token is set aside (MV-C2, MV-7) only on a board with a Location 20; elsewhere it
  stays in the bag and may be drawn (``evolve_1``, through its ``initial_state_1``).

mecha-1 also accepted scenarios mecha-2 refuses (a bag with two value-20 tokens, a Mecha starting
on a face-down Location); none of the built-in scenarios had either, and a log with one is still
refused when its scenario is loaded.
"""

from __future__ import annotations

from events.game import GameStarted
from events.games.mecha import rules
from events.games.mecha.model import GameEnded, State

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

RULES_VERSION = "mecha-1"
TOKEN_20 = (20, "orange")  # the token mecha-1 set aside when a board with a Location 20 listed none


def decide_1(state: Any, seat: str, command: Any, rng: Any) -> list | Any:
    """mecha-2's decision, with GameEnded tallied on the state the command began from (mecha-1)."""
    outcome = rules.decide(state, seat, command, rng)
    if not isinstance(outcome, list) or not outcome or not isinstance(outcome[-1], GameEnded):
        return outcome
    ended = GameEnded(state.rounds, rules._tally(state.plans), rules._tally(state.revealed))
    return list(outcome[:-1]) + [ended]  # a plain list: the Table folds it itself


def evolve_1(state: Any, event: Any) -> State:
    """mecha-2's fold, but a game starts with the value-20 token set aside only for a Location 20."""
    if isinstance(event, GameStarted):
        return initial_state_1(event)
    return rules.evolve(state, event)


def initial_state_1(event: GameStarted) -> State:
    """The state a mecha-1 GameStarted describes: Mechas in the Camp (MV-2), the value-20 token set
    aside only if the board has a Location 20 (MV-C2)."""
    import json

    from events.games.mecha import board as boards

    setup = boards.load_scenario(json.loads(event.scenario))
    bag = setup.bag
    token_20 = None
    if any(location.number == 20 for location in setup.board.locations):
        token_20 = rules._token_20(bag) or TOKEN_20
        bag = rules._take(bag, token_20)
    return State(
        setup.title, setup.board, setup.seats, setup.starts,
        tuple(location.number for location in setup.board.locations if location.face_up),
        tuple(location.number for location in setup.board.locations if location.map_token),
        (), bag, token_20, tuple(() for _ in setup.seats), tuple(() for _ in setup.seats), 0, 1, setup.rounds, False,
    )
