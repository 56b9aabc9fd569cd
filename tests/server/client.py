"""A test client over real ``websockets``: says hello, sends commands, folds what it receives.

It reads each ``events`` frame (one per command) into envelopes with ``events/wire.py`` and folds
them with ``events/`` as the browser does, checking the frame's hash, so a test can ask for the
legal moves of the seat it plays. A client that holds the whole log also hashes the states between
(the frame sends only the first 96 bits of the last hash: the client keeps the whole hash it
computed once they agree), so its envelopes equal the store's, hash for hash; one that joined with
``since`` keeps None where no hash was sent and the frame's check where one was (``agree``
compares such lists).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import websockets

import events.games
from events.canonical import state_hash
from events.log import Envelope
from events.wire import frame_ack, frame_dicts, hash_matches

TIMEOUT = 10.0


_OPEN: list[Any] = []  # sockets of the running test body, closed by ``run`` whatever happens


def run(coroutine: Any, timeout: float = 60.0) -> Any:
    """Run one async test body, bounded in time; every client it opened is closed at the end."""

    async def main() -> Any:
        try:
            return await asyncio.wait_for(coroutine, timeout)
        finally:
            while _OPEN:
                with contextlib.suppress(Exception):
                    await _OPEN.pop().close()

    return asyncio.run(main())


class Client:
    def __init__(self, socket: Any, game_id: str) -> None:
        self.socket = socket
        self.game_id = game_id
        self.game = events.games.load("mecha")  # until the welcome names the game's rules
        self.envelopes: list[dict] = []  # every envelope received, as sent
        self.state: Any = None
        self.welcome: dict | None = None
        self.replies: list[dict] = []  # frames that are not events, in order
        self.frames: list[dict] = []  # every events frame received, as sent
        self.texts: list[str] = []  # every frame received, as text

    @classmethod
    async def connect(cls, ws_url: str, game_id: str) -> Client:
        socket = await websockets.connect(f"{ws_url}/ws/{game_id}", max_size=2**22)
        _OPEN.append(socket)
        return cls(socket, game_id)

    @classmethod
    async def join(cls, ws_url: str, game_id: str, token: str | None = None, since: int = 0) -> Client:
        """Connect, say hello, and read the welcome and the catch-up up to the head."""
        client = await cls.connect(ws_url, game_id)
        await client.send({"type": "hello", "since": since, "token": token})
        welcome = await client.recv()
        assert welcome["type"] == "welcome", welcome
        client.welcome = welcome
        if since:
            client.seq_base = since
        await client.events_until(welcome["head"])
        return client

    @classmethod
    async def join_seats(cls, ws_url: str, created: dict) -> dict:
        """Every seat of a game as ``create_game`` answered it, joined with its own token: seat -> Client."""
        return {seat: await cls.join(ws_url, created["game"], link["token"]) for seat, link in created["seats"].items()}

    @classmethod
    async def join_all(cls, ws_url: str, created: dict) -> tuple:
        """Every seat of a created game joined (``join_seats``), then a spectator: (seat -> Client, spectator)."""
        return await cls.join_seats(ws_url, created), await cls.join(ws_url, created["game"])

    seq_base = 0

    @property
    def head(self) -> int:
        return self.envelopes[-1]["seq"] if self.envelopes else self.seq_base

    async def send(self, frame: Any) -> None:
        await self.socket.send(frame if isinstance(frame, (str, bytes)) else json.dumps(frame))

    async def recv(self) -> dict:
        """The next frame; events are folded on the way (when this client holds the whole log)."""
        text = await asyncio.wait_for(self.socket.recv(), TIMEOUT)
        self.texts.append(text)
        frame = json.loads(text)
        if is_events(frame):
            self.frames.append(frame)
            # the base of the frame's times, and what its seat indexes name
            started, seats = (self.welcome.get("started"), self.welcome.get("seats")) if self.welcome else (None, None)
            for raw in frame_dicts(self.game, self.game_id, frame, started, seats=seats):
                self._fold(raw)
            ack = frame_ack(frame)  # the sender's copy of its command's frame carries the ack
            if ack is not None:
                self.replies.append(ack)
        else:
            if frame["type"] == "welcome":
                self.game = events.games.load(frame["rules"])
                self.welcome = frame
            self.replies.append(frame)
        return frame

    def _fold(self, raw: dict) -> None:
        assert raw["seq"] == self.head + 1, f"expected seq {self.head + 1}, got {raw['seq']}"
        self.envelopes.append(raw)
        if self.seq_base == 0:
            envelope = Envelope.from_dict(self.game, dict(raw, hash=raw["hash"] or ""))
            self.state = self.game.evolve(self.state, envelope.event)
            folded = state_hash(self.state)
            # None: not sent (the state between two of the command's events); else the frame's 96-bit check
            assert raw["hash"] is None or hash_matches(folded, raw["hash"]), f"hash differs at seq {raw['seq']}"
            raw["hash"] = folded

    async def events_until(self, seq: int) -> None:
        while self.head < seq:
            frame = await self.recv()
            assert is_events(frame), f"expected events up to {seq}, got {frame}"

    async def command(self, command_id: str, type_: str, data: dict | None = None) -> dict:
        """Send a command; return the answer for it (ack, rejected or error), folding events before it."""
        await self.send({"type": "command", "id": command_id, "command": {"type": type_, "data": data or {}}})
        return await self.answer()

    async def answer(self) -> dict:
        while True:
            frame = await self.recv()
            if not is_events(frame):
                return frame
            if frame_ack(frame) is not None:
                return frame_ack(frame)

    def legal(self, seat: str) -> list:
        return self.game.legal(self.state, seat)

    async def close(self) -> None:
        await self.socket.close()


def is_events(frame: Any) -> bool:
    """An ``events`` frame: the one server frame that is a JSON array (docs/protocol.md)."""
    return type(frame) is list


def events_in(frame: Any) -> int:
    """How many envelopes an ``events`` frame carries (0 for any other frame)."""
    return sum(len(run) - 4 for run in frame[2:] if type(run) is list) if is_events(frame) else 0  # not the ack mark


async def read_catch_up(socket: Any, game_id: str, since: int, welcome: dict) -> list[dict]:
    """On a raw socket after its ``welcome``: the events frames of seqs ``since+1 … head``, as envelope dicts."""
    out: list[dict] = []
    game = events.games.load(welcome["rules"])
    while since + len(out) < welcome["head"]:
        frame = json.loads(await asyncio.wait_for(socket.recv(), TIMEOUT))
        assert is_events(frame), f"expected events up to {welcome['head']}, got {frame}"
        out += frame_dicts(game, game_id, frame, welcome["started"], seats=welcome["seats"])
    return out


def agree(mine: list[dict], theirs: list[dict]) -> bool:
    """The same envelopes, field for field, but a hash that one side was not sent (None), and a
    frame's 96-bit check where the other side holds the whole hash (``hash_matches``)."""
    return len(mine) == len(theirs) and all(
        {k: v for k, v in a.items() if k != "hash"} == {k: v for k, v in b.items() if k != "hash"}
        and (a["hash"] is None or b["hash"] is None or a["hash"] == b["hash"]
             or hash_matches(a["hash"], b["hash"]) or hash_matches(b["hash"], a["hash"]))
        for a, b in zip(mine, theirs))


def command_json(command: Any) -> tuple[str, dict]:
    data = command.to_data()
    return data.pop("type"), data
