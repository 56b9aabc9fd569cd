"""Rule questions on a Gloomhaven position (issue 18): one implementation for ``chronicle ask
gloomhaven monster-turn --log`` and the replay page's "Ask the rules" (``client/questions.py``)."""

from __future__ import annotations

from events.games.gloomhaven.rules import plan_for
from events.lookup import by_id


def monsters(state: object) -> list:
    """The ids of the figures whose turn a question can plan: every monster and summon."""
    return [item.id for item in state.figures if item.kind != "character"]


def monster_plan(state: object, figure_id: object, rules_version: str = "") -> tuple:
    """(plan, problem) for the turn of ``figure_id`` on this state (GH-6, GH-7, GH-C8, GH-C9).

    ``problem`` is "" with a ``focus.Plan``; "not-a-monster" when no monster or summon has that id;
    "no-card" (GH-C3) when no ability card of its kind is drawn this round, so its turn cannot
    be planned yet. ``rules_version`` the game's (``gloomhaven-5`` and later plan a summon in a tie
    between characters as tied, GH-C11); none given, as gloomhaven-2 to gloomhaven-4 do.
    """
    figure = by_id(state.figures, figure_id) if figure_id is not None else None
    if figure is None or figure.kind == "character":
        return None, "not-a-monster"
    drawn = [group.card for group in state.groups if group.name == figure.name]
    if figure.kind == "monster" and not (drawn and drawn[0]):
        return None, "no-card"
    return plan_for(state, figure, edition=edition(rules_version)), ""


def edition(rules_version: str) -> int:
    """The ``edition`` a game of ``rules_version`` plays its monster turns under (``rules.plan_for``): 5 for
    gloomhaven-5, 6 from gloomhaven-6 on, else 2 (gloomhaven-2 to gloomhaven-4 plan alike; gloomhaven-1 has its own code)."""
    number = rules_version.rsplit("-", 1)[-1]
    return int(number) if number.isdigit() and int(number) >= 5 else 2
