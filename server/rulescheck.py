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
from server.store import GameMeta, Store, Stored


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
    long log: ``GET .../rules`` runs it in the worker process, ``answer``)."""
    envelopes = [frames.decode_envelope(newest, item.envelope) for item in stored]
    game = rules_in_force(newest, envelopes)
    return RulesCheck(game_id, game, newest, audit_log(newest, envelopes, secret, follow=False), envelopes)


def answer(game_id: str, rules: str, over: bool, texts: list) -> dict:
    """``GET /api/games/{id}/rules``'s answer (server/api.py says its fields), the worker's job
    (``server.audits.in_worker``): the stored envelopes' JSON ``texts`` re-decided without the secret under
    the newest version of the rule system named ``rules``. KeyError for a version this code lacks."""
    checked_ = checked(game_id, events.games.load(rules), [Stored(0, None, text) for text in texts], None)
    divergence = checked_.report.divergence
    found = None
    if divergence is not None:
        found = {"seq": divergence.seq, "clause": divergence.clause, "logged_rule": divergence.logged_rule,
                 "produced_rule": divergence.produced_rule}
        if over:
            found.update(logged=divergence.logged, produced=divergence.produced)
    return {
        "game": game_id, "rules_version": checked_.game.rules_version, "newest": checked_.newest.rules_version,
        "unchanged": divergence is None, "divergence": found,
        "changes": [{"version": version, "clause": clause, "text": text}
                    for version, clause, text in checked_.newest.changes_since(checked_.game.rules_version)],
        "sealed": checked_.report.sealed,
    }
