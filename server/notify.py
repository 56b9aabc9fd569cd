"""New events from other processes: PostgreSQL LISTEN on one dedicated connection.

Every append NOTIFYs ``"<game> <last seq>"`` on the store's channel when it commits (see
``store/postgres.py``). The payload only names the game and how far it now goes; a Room that
hears of a seq beyond its own reads every row after its last known seq from the store, so a
notification that was lost or coalesced leaves no gap: the next one fills it. While the
listening connection is down nothing is heard at all, so each time it (re)connects the feed
calls ``on_gap`` and every live Room reads what it missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import psycopg

log = logging.getLogger("chronicle.notify")

RETRY_FIRST = 0.1  # seconds before the first reconnect; doubled each failure up to RETRY_MAX
RETRY_MAX = 5.0


class Feed:
    """LISTEN ``channel`` at ``url``; ``on_event(game, seq)`` per notification, ``on_gap()`` per (re)connect."""

    def __init__(self, url: str, channel: str, on_event: Callable[[str, int], Any], on_gap: Callable[[], Any]) -> None:
        self.url = url
        self.channel = channel
        self.on_event = on_event
        self.on_gap = on_gap
        self.connected = asyncio.Event()
        self.connects = 0  # how many times the listener (re)connected: 1 in a quiet life
        self.heard = 0  # notifications received
        self._task: asyncio.Task | None = None
        self._connection: psycopg.AsyncConnection | None = None

    async def start(self, timeout: float = 10.0) -> None:
        """Start listening; returns once the first LISTEN is in place (or after ``timeout``, still retrying)."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"listen-{self.channel}")
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.connected.wait(), timeout)

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def drop(self) -> None:
        """Close the listening connection as a network fault would (tests): the feed reconnects and catches up."""
        if self._connection is not None:
            await self._connection.close()

    async def _run(self) -> None:
        delay = RETRY_FIRST
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as connection:
                    self._connection = connection
                    await connection.execute(f"LISTEN {self.channel}")
                    self.connects += 1
                    self.connected.set()
                    delay = RETRY_FIRST
                    self.on_gap()  # whatever was appended while nobody here listened
                    async for note in connection.notifies():
                        self.heard += 1
                        game, _, seq = note.payload.rpartition(" ")
                        if game and seq.isdigit():
                            self.on_event(game, int(seq))
                        else:
                            log.warning("ignoring a notification on %s that is not '<game> <seq>': %r",
                                        self.channel, note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database went away: retry, then catch up on reconnect
                log.warning("listening on %s failed (%s); reconnecting in %.1f s", self.channel, error, delay)
            finally:
                self._connection = None
                self.connected.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, RETRY_MAX)
