"""gloomhaven-1, as released on main up to a1151df (before issue 14's merge, ead775a): frozen.

gloomhaven-2 changed line of sight (GH-C7: exact, no line ends on a wall corner), the monster-turn
solver (GH-C8…GH-C11: extra targets, per-hex stops with ``Option.toward``, ranged areas, tied
characters choosing), the clauses its log cites, and a character's move (``PlayCard.to``, each
step of a path checked). A gloomhaven-1 log is played, audited and replayed under these modules
indefinitely (issue 19), so nothing here may ever change: a fix is a new rules version
(``Game.revised``), never an edit of a released one.

``rules``, ``focus`` and ``hexmap`` are a1151df's ``events/games/gloomhaven/rules.py``,
``focus.py`` and ``events/geometry/hexmap.py``, with only their imports pointed here and the
core's later events folded (SecretRevealed, RulesVersionChanged); ``model`` holds the one record
whose shape gloomhaven-2 changed (``Option``, without ``toward``: a pending choice is part of the
state, so its fields are part of the hash). Every other record is gloomhaven-2's own, which reads
gloomhaven-1 logs through its defaults (``PlayCard.to``, ``MonsterTurnPlanned.destinations``).
"""

RULES_VERSION = "gloomhaven-1"


class LazyRules:
    """``v1.rules`` as ``events.game.released`` reads it, imported on the first call of any part.

    Only a gloomhaven-1 game ever calls them, so a page playing gloomhaven-2 never compiles the
    frozen modules (Brython compiles each module it imports: BRYTHON.md).
    """

    def __getattr__(self, name: str):
        if name.startswith("_") or name == "GUARDS":
            raise AttributeError(name)

        def part(*args):
            from events.games.gloomhaven.v1 import rules

            return getattr(rules, name)(*args)

        part.__name__ = name
        return part


def decide_1(state, seat, command, rng):
    """gloomhaven-1's decide, behind the one field it never had: a PlayCard naming a destination
    (``to``, gloomhaven-2's, issue 15) is refused (GH-3), where the frozen rules would take its
    empty path for a move that goes nowhere. A gloomhaven-1 decoder refused the field outright; a
    log of gloomhaven-1 never holds it, so no logged outcome changes."""
    from events.games.gloomhaven import model
    from events.games.gloomhaven.v1 import rules
    from events.rules import Rejection

    if isinstance(command, model.PlayCard) and command.to is not None:
        return Rejection("GH-3", "under gloomhaven-1 a move names its path, the hexes entered in order: "
                                 "a destination alone (to) came with gloomhaven-2")
    return rules.decide(state, seat, command, rng)
