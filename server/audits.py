"""``GET /api/games/{id}/audit``: the server's audit of a game, as anyone may ask it (issue 18).

The log audited is the spectator's (every envelope through ``visible_to``, as ``GET .../log``
gives it), under the rules version the game started under and each RulesVersionChanged after
(CORE-3), with no secret from the store: a running game's commands that draw are counted as
waiting for the reveal (``sealed``), never re-derived, and its hidden picks are withheld
(``withheld``); once the game is over its log holds SecretRevealed (CORE-2) and every die is
re-derived from it. The answer so cannot tell anything the public log does not: while the game
runs a divergence names its seq and clauses only; the logged and produced outcomes come once the
game is over (as ``GET .../rules`` does).

Re-deciding a long log is seconds of CPU (every command of the game decided again), so it runs in
the server's worker process (``server/workers.py``; a worker thread with
``CHRONICLE_WORKER_PROCESS=0``), one at a time per server process (``AUDITS_AT_ONCE``): the event
loop keeps serving the Rooms meanwhile (docs/bounds.md, rule 3), and a flood of audit requests
queues instead of multiplying work. The same gate (``gate``) holds ``GET .../rules`` and the audit
of ``POST /api/games/import``, which do the same work (``audit_log`` over a whole log): one child
does one at a time, so one gate bounds all three. The route keeps each answer per game and head,
and an answer being made is shared by whoever asks it meanwhile (``api.AUDIT_CACHE``,
``server.answers.Answers``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any, TypeVar

from events.log import audit_log, rules_in_force, started_under
from server import frames
from server.room import visible_to
from server.store import GameMeta, Store

T = TypeVar("T")

AUDITS_AT_ONCE = 1


def gate(state: Any) -> asyncio.Semaphore:
    """The app's one ``Semaphore(AUDITS_AT_ONCE)`` (``state`` is ``app.state``): /audit, /rules and imports."""
    found = getattr(state, "audit_gate", None)
    if found is None:
        found = state.audit_gate = asyncio.Semaphore(AUDITS_AT_ONCE)
    return found


async def in_thread(state: Any, route: str, work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` in a worker thread once the gate lets it in, counted by ``route`` in /metrics.

    A caller cancelled while the thread works cannot stop the thread: the gate stays held until
    the thread is done, so that never more than ``AUDITS_AT_ONCE`` threads work at once."""
    async with gate(state):
        metrics = getattr(state, "metrics", None)
        if metrics is not None:
            metrics.audits.labels(route).inc()
        return await held_until_done(asyncio.ensure_future(asyncio.to_thread(work, *args)))


async def held_until_done(done: asyncio.Future) -> Any:
    """``await done``; if the caller is cancelled meanwhile, wait for ``done`` all the same, then re-raise."""
    try:
        return await asyncio.shield(done)
    except asyncio.CancelledError:
        while not done.done():
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait((done,))
        raise


async def in_worker(state: Any, route: str, job: Callable[..., T], *args: Any) -> T:
    """``job(*args)`` in the app's worker process (``server.workers``) once the gate lets it in, counted by
    ``route`` in /metrics; ``args`` and the answer are plain data. Like ``in_thread``, a caller cancelled
    while the child works keeps the gate until the child is done with it."""
    from server.workers import worker_of

    async with gate(state):
        metrics = getattr(state, "metrics", None)
        if metrics is not None:
            metrics.audits.labels(route).inc()
        return await held_until_done(asyncio.ensure_future(worker_of(state).run(job, *args)))


async def audit_answer(store: Store, meta: GameMeta, game: Any, state: Any) -> dict:
    """The JSON answer for the stored game ``meta`` played under the rule system ``game``
    (``state``: the app's, whose gate and worker it waits for)."""
    stored = await store.read(meta.game_id)
    return await in_worker(state, "audit", audited, meta.game_id, game.name, meta.over,
                           [item.envelope for item in stored])


def audited(game_id: str, rules: str, over: bool, texts: list) -> dict:
    """The worker's job: ``answer_of`` the stored envelopes' JSON ``texts`` under the rule system named ``rules``."""
    import events.games

    return answer_of(game_id, over, events.games.load(rules), texts)


def answer_of(game_id: str, over: bool, game: Any, texts: list) -> dict:
    """The audit of the stored envelopes (their JSON) as a spectator receives them (pure CPU: the worker's)."""
    envelopes = []
    rules = game
    for text in texts:
        envelope = frames.decode_envelope(rules, text)
        if envelope.seq == 1 or envelope.type == "RulesVersionChanged":
            rules = rules_in_force(rules, [envelope])
        visible = visible_to(rules, envelope, None, over)
        if visible is not None:
            envelopes.append(visible)
    report = audit_log(started_under(game, envelopes), envelopes)
    divergence = None
    if report.divergence is not None:
        found = report.divergence
        divergence = {"seq": found.seq, "clause": found.clause, "logged_rule": found.logged_rule,
                      "produced_rule": found.produced_rule}
        if over:
            divergence.update(logged=found.logged, produced=found.produced)
    return {
        "game": game_id,
        "complete": report.complete,
        "over": report.over,
        "revealed": report.revealed,
        "events": report.events,
        "redecided": report.redecided,
        "with_dice": report.with_dice,
        "loaded": report.loaded,
        "sealed": report.sealed,
        "withheld": report.withheld,
        "divergence": divergence,
    }
