"""Does a stored game replay unchanged under the newest rules version of its game? (issue 19, CORE-3)

One stored game is re-decided whole under its game's newest released version (``audit_log(...,
follow=False)``): "unchanged", or the first seq where the newest rules part from its log and the
clause behind each outcome. ``chronicle rules-check`` asks it of every stored game (with each
game's secret: the operator's store holds it, so every die is re-derived); ``chronicle upgrade``
moves only a game it finds unchanged; ``GET /api/games/{id}/rules`` answers it for anyone, without
the secret (a running game's dice stay sealed: CORE-1).
"""

from __future__ import annotations

from typing import Any

import events.games
from events.log import Audit, audit_log, rules_in_force
from server import frames
from server.store import GameMeta, Store


class RulesCheck:
    """One game's answer: the version it is played under now, its game's newest, and the audit."""

    __slots__ = ("game_id", "game", "newest", "report", "envelopes")

    def __init__(self, game_id: str, game: Any, newest: Any, report: Audit, envelopes: list) -> None:
        self.game_id = game_id
        self.game = game  # the version in force: GameStarted's, then each RulesVersionChanged's
        self.newest = newest
        self.report = report
        self.envelopes = envelopes

    @property
    def unchanged(self) -> bool:
        return self.report.divergence is None

    def line(self) -> str:
        """``id  version  newest  unchanged | diverges at seq N (clause)``."""
        divergence = self.report.divergence
        if divergence is None:
            verdict = "unchanged"
            if self.report.sealed:
                verdict += f" ({self.report.sealed} commands that draw wait for the game's secret)"
        else:
            verdict = f"diverges at seq {divergence.seq}" + (f" ({divergence.clause})" if divergence.clause else "")
        return f"{self.game_id}  {self.game.rules_version}  {self.newest.rules_version}  {verdict}"


async def check(store: Store, meta: GameMeta, with_secret: bool = True, target: str | None = None) -> RulesCheck:
    """Re-decide the stored game ``meta`` under its game's newest version (or the released ``target``).
    Raises KeyError for a rule system or version this code lacks, and LogError/DecodeError for a log
    that cannot be read at all."""
    newest = events.games.load(meta.rules, target)
    stored = await store.read(meta.game_id)
    secret = await store.secret(meta.game_id) if with_secret else None
    return checked(meta.game_id, newest, stored, secret)


def checked(game_id: str, newest: Any, stored: list, secret: str | None) -> RulesCheck:
    """``check``'s work once the store is read: decode and re-decide every envelope (pure CPU, seconds for a
    long log: ``GET .../rules`` runs it in a worker thread, ``server.audits.in_thread``)."""
    envelopes = [frames.decode_envelope(newest, item.envelope) for item in stored]
    game = rules_in_force(newest, envelopes)
    return RulesCheck(game_id, game, newest, audit_log(newest, envelopes, secret, follow=False), envelopes)
