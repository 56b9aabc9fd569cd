"""Rule questions on a Gloomhaven position (issue 18): one implementation for ``chronicle ask
gloomhaven monster-turn --log`` and the replay page's "Ask the rules" (``client/questions.py``)."""

from __future__ import annotations

from events.games.gloomhaven.rules import plan_for
from events.lookup import by_id


def monsters(state: object) -> list:
    """The ids of the figures whose turn a question can plan: every monster and summon."""
    return [item.id for item in state.figures if item.kind != "character"]


def monster_plan(state: object, figure_id: object) -> tuple:
    """(plan, problem) for the turn of ``figure_id`` on this state (GH-6, GH-7, GH-C8, GH-C9).

    ``problem`` is "" with a ``focus.Plan``; "not-a-monster" when no monster or summon has that id;
    "no-card" (GH-C3) when no ability card of its kind is drawn this round, so its turn cannot
    be planned yet.
    """
    figure = by_id(state.figures, figure_id) if figure_id is not None else None
    if figure is None or figure.kind == "character":
        return None, "not-a-monster"
    drawn = [group.card for group in state.groups if group.name == figure.name]
    if figure.kind == "monster" and not (drawn and drawn[0]):
        return None, "no-card"
    return plan_for(state, figure), ""
