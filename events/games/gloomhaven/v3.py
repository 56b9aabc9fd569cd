"""gloomhaven-3: a monster's plan cites the clause that decided it (issue 19).

gloomhaven-2's ``MonsterTurnPlanned`` always cites GH-6, even where its own trace says another
clause decided: a focus tied between characters tied on initiative, left to their seats (GH-C11:
``decided_by`` "tied on initiative: the players choose (GH-C11)"), or a monster whose attack is an
area, whose focus and targets are the enemies its pattern's placements reach (GH-C10). gloomhaven-3
decides exactly as gloomhaven-2 and cites GH-C11, else GH-C10, else GH-6. The citation is a field
of the logged event, so gloomhaven-2 stays as released and its logs replay and audit under it; the
field is not folded (``evolve`` ignores it), so every state, and every hash, is gloomhaven-2's.
"""

from __future__ import annotations

from events.game import Flow
from events.games.gloomhaven import rules
from events.games.gloomhaven.model import MonsterTurnPlanned
from events.lookup import by_id

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

RULES_VERSION = "gloomhaven-3"
#: ``decided_by`` of a focus tied between characters tied on initiative (``focus._decided_by``).
TIED = "tied on initiative: the players choose (GH-C11)"


def decide_3(state: Any, seat: str, command: Any, rng: Any, edition: int = 2) -> list | Any:
    """gloomhaven-2's decision, each monster's plan citing the clause that decided it (``plan_rule``);
    ``edition`` as ``rules.decide``'s (gloomhaven-5 passes 5)."""
    outcome = rules.decide(state, seat, command, rng, edition)
    if not isinstance(outcome, list) or not any(isinstance(event, MonsterTurnPlanned) for event in outcome):
        return outcome
    states = outcome.states_from(state) if isinstance(outcome, Flow) else None
    if states is None:  # a plain list: fold it here, as the Table would
        states, folded = [], state
        for event in outcome:
            folded = rules.evolve(folded, event)
            states.append(folded)
    flow = Flow(state, rules.evolve)
    before = state
    for event, after in zip(outcome, states):
        if isinstance(event, MonsterTurnPlanned):
            event = event.but(rule=plan_rule(before, event))
        # The citation is not folded: the state after each event is the one gloomhaven-2 reached.
        flow.append(event)
        flow.states.append(after)
        flow.state = before = after
    return flow


def plan_rule(state: Any, plan: MonsterTurnPlanned) -> str:
    """GH-C11 for a focus its seats choose between characters tied on initiative; GH-C10 for a monster
    whose attack is an area pattern (``state`` the one the plan was made on); GH-6 otherwise."""
    if plan.decided_by == TIED or plan.rule == "GH-C11":  # gloomhaven-6: options the tied seats' order decides
        return "GH-C11"
    figure = by_id(state.figures, plan.figure)
    if figure is not None:
        _move, _jump, attack, _value, _heal = rules._abilities(state, figure)
        if attack is not None and attack.pattern:
            return "GH-C10"
    return plan.rule
