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
    frozen modules (Brython compiles each module it imports: BRYTHON.md). The first call binds the
    real functions into the games given to ``bind`` (``GAME_1``), so later calls reach them
    directly: a fold of a gloomhaven-1 log paid an import statement and a wrapper per event
    (issue 13: its fold ~7% above its figure before ``Record.but``).
    """

    def __init__(self) -> None:
        self.games: list = []

    def bind(self, game):
        """``game``'s parts that are this object's stand-ins become the real ones on the first call."""
        self.games.append(game)
        return game

    def __getattr__(self, name: str):
        if name.startswith("_") or name in ("GUARDS", "games"):
            raise AttributeError(name)
        real = []

        def part(*args):
            if not real:
                real.append(getattr(self._load(), name))
            return real[0](*args)

        part.__name__ = name
        part.lazy = self  # type: ignore[attr-defined]
        return part

    def _load(self):
        """``v1.rules``, imported; every stand-in of this object in the bound games replaced by its real part."""
        from events.games.gloomhaven.v1 import rules

        for game in self.games:
            for attribute, value in list(vars(game).items()):
                if getattr(value, "lazy", None) is self:
                    setattr(game, attribute, getattr(rules, value.__name__))
        return rules


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
