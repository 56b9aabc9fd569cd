"""gloomhaven-4: a scenario may choose Jaws of the Lion's rules (``"variant": "jotl"``, GH-V1, GH-V2).

gloomhaven-2 and gloomhaven-3 refuse a scenario's ``variant`` as an unknown key, at ``start`` and
when they fold a ``GameStarted`` holding one (``board.load_scenario``): handed such a game they would
refuse it, so a game that chooses a variant needs a version that reads the key, and a log naming
gloomhaven-4 is never given to code that does not know it (``Game.version`` names the released
ones). A scenario without the key plays exactly as gloomhaven-3: the same events, the same plain
``State`` and so the same hashes; only the version named in ``GameStarted`` differs, so a
gloomhaven-3 game replays unchanged under gloomhaven-4 and may move to it.

Under the variant the state is a ``VariantState`` that holds it, and every monster turn follows it
(``rules.plan_for``): its focus ties skip proximity (GH-V1) and a jump's landing on difficult
terrain costs 1, not 2 (GH-V2, for characters' jumps too, ``rules.character_moves``). An event
cites the variant's clause where the variant decided differently from the original rules: a
monster's ``MonsterTurnPlanned`` cites GH-V1 when the original rules would have chosen another
focus (or, for a monster that does not jump, other options), GH-V2 when a jumping monster's options
differ; a ``FigureMoved`` cites GH-V2 for a jump that lands on difficult terrain.
"""

from __future__ import annotations

from events.canonical import canonical_json
from events.game import Flow, GameStarted
from events.games.gloomhaven import board as boards
from events.games.gloomhaven import rules, v3
from events.games.gloomhaven.model import MonsterTurnPlanned, RoundStarted
from events.lookup import by_id

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

RULES_VERSION = "gloomhaven-4"


def start_4(scenario: dict, commitment: str) -> list:
    """gloomhaven-3's first events; the scenario may name a variant (``board.VARIANTS``)."""
    setup = boards.load_scenario(scenario, variants=True)
    seats = tuple(seat for seat, _cls, _hex in setup.characters)
    return [GameStarted("gloomhaven", RULES_VERSION, commitment, seats, canonical_json(scenario)),
            RoundStarted(1)]


def evolve_4(state: Any, event: Any) -> Any:
    """gloomhaven-3's fold; its first state reads the scenario's variant (a ``VariantState`` under one)."""
    if isinstance(event, GameStarted):
        return rules.initial_state(event, variants=True)
    return rules.evolve(state, event)


def decide_4(state: Any, seat: str, command: Any, rng: Any, edition: int = 2) -> list | Any:
    """gloomhaven-3's decision (whose monster turns follow the state's variant, ``rules.plan_for``), each
    plan of a variant game citing GH-V1 or GH-V2 where the variant decided differently (``plan_rule``);
    ``edition`` as ``rules.decide``'s (gloomhaven-5 passes 5)."""
    outcome = v3.decide_3(state, seat, command, rng, edition)
    if not state.variant or not isinstance(outcome, list):
        return outcome
    if not any(isinstance(event, MonsterTurnPlanned) for event in outcome):
        return outcome
    # decide_3 answers a decision with plans by a whole Flow begun at ``state``: one state per event.
    flow = Flow(state, evolve_4)
    before = state
    for event, after in zip(outcome, outcome.states):
        if isinstance(event, MonsterTurnPlanned):
            event = event.but(rule=plan_rule(before, event, edition))
        # The citation is not folded: the state after each event is the one gloomhaven-3 reached.
        flow.append(event)
        flow.states.append(after)
        flow.state = before = after
    return flow


def plan_rule(state: Any, plan: MonsterTurnPlanned, edition: int = 2) -> str:
    """The plan's clause in a Jaws of the Lion game (``state`` the one it was made on): GH-V1 when the original
    rules would focus elsewhere, or (a monster that does not jump) offer other options; GH-V2 when a jumping
    monster's options differ; gloomhaven-3's citation when the original rules plan the same."""
    figure = by_id(state.figures, plan.figure)
    original = rules.plan_for(state, figure, jotl=False, edition=edition)
    if tuple(original.focus) != tuple(plan.focus):
        return "GH-V1"
    if tuple(original.options) != tuple(plan.options):
        _move, jump, _attack, _value, _heal = rules._abilities(state, figure)
        return "GH-V2" if jump and not figure.flying else "GH-V1"
    return plan.rule
