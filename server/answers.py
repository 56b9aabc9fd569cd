"""Answers a route keeps, and one computation for the same question asked twice at once (issue 16, Trust).

``/rules``, ``/audit`` and ``/state?seq=N`` of a log with an undo each cost a whole log's work
(docs/bounds.md, "Reads that re-decide or refold a whole log"). Their answer for one key (a game
and its head, or a game and a seq) never changes, so a route keeps the last ``size`` of them,
oldest dropped first; and while one is being made, the same key asked again waits for that
computation instead of starting another, so ten strangers asking at once cost one. The
computation runs as a task of its own: a requester that hangs up does not cancel it for the
others. A failure is not kept: each waiter gets the exception, the next request tries again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Any


class Answers:
    """At most ``size`` answers by key, and at most one computation per key at a time."""

    __slots__ = ("size", "kept", "running")

    def __init__(self, size: int) -> None:
        self.size = size
        self.kept: dict[Hashable, Any] = {}
        self.running: dict[Hashable, asyncio.Future] = {}

    async def get(self, key: Hashable, make: Callable[[], Awaitable[Any]],
                  keep: Callable[[Any], bool] | None = None) -> Any:
        """The answer kept for ``key``, the one being made for it, or ``await make()``: kept unless
        ``keep(answer)`` says it was cheap (then it is only shared with whoever asked meanwhile)."""
        if key in self.kept:
            return self.kept[key]
        task = self.running.get(key)
        if task is None:
            task = self.running[key] = asyncio.ensure_future(self._made(key, make, keep))
            task.add_done_callback(_retrieved)
        return await asyncio.shield(task)

    async def _made(self, key: Hashable, make: Callable[[], Awaitable[Any]], keep: Callable[[Any], bool] | None) -> Any:
        try:
            answer = await make()
        finally:
            self.running.pop(key, None)
        if keep is not None and not keep(answer):
            return answer
        while len(self.kept) >= self.size:
            self.kept.pop(next(iter(self.kept)))
        self.kept[key] = answer
        return answer


def _retrieved(task: asyncio.Future) -> None:
    """A computation whose every requester hung up still ends; its failure is not "never retrieved"."""
    if not task.cancelled():
        task.exception()
