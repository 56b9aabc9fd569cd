"""``GET /api/games/{id}/log``: a game's log as a spectator sees it, each line made once and kept.

Anyone may ask for the log of any game, as often as he likes: the replay page does at every
load, and so can a stranger in a loop. Before this module every request made every line again
(a decode and ``visible_to`` per envelope, then one hop to a worker thread per line), ~1.4 s of
the server's CPU for a 10,000-event game; two strangers asking in a loop took a core from every
game. Now each line is made once:

- A spectator's line depends only on its envelope and on whether the game is over (``Game.visible``:
  an envelope is public, or redacted the same way for every spectator; once the game is over the
  whole log is public). The log is append-only, so the lines made for a game stay right as it
  goes on: a later request reads and makes only the envelopes appended since, and a game that
  ends is made again from the start, once, in full.
- A game whose rules hide nothing in any of their versions (every game but Gloomhaven), or that
  is over, gets its stored envelopes as they are, without decoding them: that is what
  ``visible_to`` gives such an envelope.
- One request at a time makes a game's lines; the others asking meanwhile wait for it and take
  what it made (a log too long to be kept included). The store is read in pages of ``PAGE``
  envelopes and the lines are made on the event loop, ``SLICE`` at a time with a yield between
  them, so a long log never holds the loop (nor a worker thread holding the interpreter lock
  against it) for more than a slice. If the store fails on a later page, the whole lines made
  before it are kept, and the next request goes on from there.
- A game never stops being over: lines made public at its end answer a request that read the
  game's meta before the end too.
- What is kept is bounded: ``LOG_CACHE_BYTES`` over all games, the least recently asked-for
  game's lines forgotten first; a log longer than the whole budget is made and sent, not kept.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from events.game import RulesVersionChanged
from events.log import rules_in_force
from server import frames
from server.room import visible_to
from server.store import GameMeta, Store

LOG_CACHE_BYTES = 64 * 1024 * 1024  # lines kept over all games (a 10,000-event mecha log is ~3.2 MB)
PAGE = 2000  # envelopes read from the store at once
SLICE = 250  # lines made between two yields to the event loop (~2–5 ms of decoding)


class MadeLog:
    """The lines made so far for one game: up to ``seq``, for a game ``over`` or not."""

    __slots__ = ("over", "seq", "rules", "chunks", "size")

    def __init__(self, over: bool, rules: Any) -> None:
        self.over = over
        self.seq = 0
        self.rules = rules  # the rules version in force after ``seq`` (CORE-3), for the next lines' visibility
        self.chunks: list[bytes] = []  # JSON Lines, each chunk a run of whole lines
        self.size = 0


class LogCache:
    """Every game's spectator lines made once (the module's docstring), within ``budget`` bytes."""

    def __init__(self, budget: int = LOG_CACHE_BYTES, counted: Callable[[int], Any] | None = None) -> None:
        self.budget = budget
        self.size = 0
        self.made = 0  # lines made (decoded and checked, or taken as stored) since the start
        self._counted = counted  # told how many lines each pass made (the /metrics counter)
        self._logs: OrderedDict[str, MadeLog] = OrderedDict()
        self._making: dict[str, asyncio.Future] = {}

    async def lines(self, store: Store, meta: GameMeta, game: Any) -> list[bytes]:
        """The spectator's JSON Lines of ``meta``'s game up to ``meta.head`` at least, as chunks."""
        game_id = meta.game_id
        while (making := self._making.get(game_id)) is not None:
            made = await asyncio.shield(making)  # another request is making this game's lines: take them
            if made is not None and _serves(made, meta):
                return list(made.chunks)
        made = self._logs.get(game_id)
        if made is not None and _serves(made, meta):
            self._logs.move_to_end(game_id)
            return list(made.chunks)
        making = self._making[game_id] = asyncio.get_running_loop().create_future()
        if made is None or made.over != meta.over:
            self._forget(game_id)
            made = MadeLog(meta.over, game)
        else:  # the lines kept so far, to be extended: out of the budget's count while they grow
            del self._logs[game_id]
            self.size -= made.size
        try:
            await self._make(store, meta, game, made)
        finally:
            # What was made is whole lines up to made.seq, even if the store failed on a later page:
            # kept for the next request, and handed to those who waited for this one.
            self._keep(game_id, made)
            self._making.pop(game_id)
            making.set_result(made if made.seq >= meta.head else None)
        return list(made.chunks)

    async def _make(self, store: Store, meta: GameMeta, game: Any, made: MadeLog) -> None:
        """Append to ``made`` the lines of envelopes ``made.seq + 1`` to ``meta.head``."""
        as_stored = meta.over or not any(version.hides for version in game.newest().versions())
        while made.seq < meta.head:
            page = await store.read(meta.game_id, made.seq, min(meta.head, made.seq + PAGE))
            if not page:
                break
            for start in range(0, len(page), SLICE):
                part = page[start:start + SLICE]
                if as_stored:
                    text = "".join([item.envelope + "\n" for item in part])
                else:
                    text = "".join(_spectators_lines(made, part, meta.over))
                chunk = text.encode()
                made.chunks.append(chunk)
                made.size += len(chunk)
                made.seq = part[-1].seq
                self.made += len(part)
                if self._counted is not None:
                    self._counted(len(part))
                await asyncio.sleep(0)

    def _keep(self, game_id: str, made: MadeLog) -> None:
        if made.size > self.budget:
            return  # longer than everything kept together: made for this answer only
        self._logs[game_id] = made
        self.size += made.size
        while self.size > self.budget:
            _, oldest = self._logs.popitem(last=False)
            self.size -= oldest.size

    def _forget(self, game_id: str) -> None:
        made = self._logs.pop(game_id, None)
        if made is not None:
            self.size -= made.size


def _serves(made: MadeLog, meta: GameMeta) -> bool:
    """Whether ``made`` answers a request that read ``meta``: as far as its head, and public if the
    game is over. A game never stops being over, so lines made public serve an older meta too."""
    return made.seq >= meta.head and (made.over or not meta.over)


def _spectators_lines(made: MadeLog, part: list, over: bool) -> list[str]:
    """The spectator's line of each stored envelope of ``part``, under the rules in force at it."""
    out = []
    for item in part:
        envelope = frames.decode_envelope(made.rules, item.envelope)
        if envelope.seq == 1 or isinstance(envelope.event, RulesVersionChanged):
            made.rules = rules_in_force(made.rules, [envelope])  # who may see what is the version in force's business
        visible = visible_to(made.rules, envelope, None, over)
        if visible is envelope:
            out.append(item.envelope + "\n")
        elif visible is not None:
            out.append(frames.encode_envelope(visible) + "\n")
    return out
