"""Scripted players over the real WebSocket, to bring a game to a given point without a browser.

A test that only needs "a game 10 moves in" plays those moves here (fast), then opens pages. The
moves are chosen from the game's own ``legal`` on a state folded from the envelopes received, so
a scripted game is a real game: every command goes down the server's guard ladder.
"""

from __future__ import annotations

import contextlib
import itertools
import json

from websockets.sync.client import connect

import events.games
from events.log import Envelope, Table
from events.wire import frame_ack, frame_dicts

_ids = itertools.count(1)


class ScriptedGame:
    """Plays the seats of one game from their tokens (``POST /api/games``' answer)."""

    def __init__(self, ws_url: str, created: dict) -> None:
        self.ws_url = ws_url
        self.game_id = created["game"]
        self.tokens = {seat: info["token"] for seat, info in created["seats"].items()}
        self.sockets: dict = {}
        self.stack = contextlib.ExitStack()  # websockets wants its sync sockets used as context managers
        self.table: Table | None = None

    def __enter__(self) -> ScriptedGame:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.sockets.clear()
        self.stack.close()

    def _socket(self, seat: str):
        if seat not in self.sockets:
            socket = self.stack.enter_context(connect(f"{self.ws_url}/ws/{self.game_id}", open_timeout=10))
            socket.send(json.dumps({"type": "hello", "since": 0, "token": self.tokens[seat]}))
            welcome = self._receive(socket)
            assert welcome["type"] == "welcome" and welcome["seat"] == seat, welcome
            if self.table is None:
                self.table = Table(events.games.load(welcome["rules"]), self.game_id)
            self.sockets[seat] = socket
            self._drain(socket, welcome["head"])
        return self.sockets[seat]

    @staticmethod
    def _receive(socket) -> dict:
        return json.loads(socket.recv(timeout=10))

    def _fold(self, frame: dict) -> None:
        """Fold an ``events`` frame's envelopes (those not held yet)."""
        table = self.table
        started = seats = None
        if table.envelopes:  # the base of the frame's times, what its seat indexes name
            started, seats = table.envelopes[0].at, table.envelopes[0].event.seats
        for raw in frame_dicts(table.game, self.game_id, frame, started, seats=seats):
            if raw["seq"] == table.seq + 1:
                envelope = Envelope.from_dict(table.game, dict(raw, hash=raw["hash"] or ""))
                table.state = table.game.evolve(table.state, envelope.event)
                table.envelopes.append(envelope)

    def _drain(self, socket, head: int) -> None:
        """Read the catch-up of this socket until the table holds ``head`` envelopes."""
        while self.table.seq < head:
            frame = self._receive(socket)
            if type(frame) is list:  # an events frame
                self._fold(frame)

    @property
    def state(self):
        return self.table.state

    def current_seat(self) -> str | None:
        if self.table is None:
            self._socket(next(iter(self.tokens)))
        turn = self.table.game.turn(self.table.state)
        return turn[0] if turn else None

    def send(self, seat: str, command_type: str, data: dict) -> dict:
        """Send one command as ``seat``; return the ack or rejected frame (events folded meanwhile)."""
        socket = self._socket(seat)
        command_id = f"script-{next(_ids)}"
        socket.send(json.dumps({"type": "command", "id": command_id, "command": {"type": command_type, "data": data}}))
        while True:
            frame = self._receive(socket)
            if type(frame) is list:  # an events frame; the sender's copy of its command's carries the ack
                self._fold(frame)
                if frame_ack(frame) is not None and frame_ack(frame)["id"] == command_id:
                    return frame_ack(frame)
            elif frame.get("id") == command_id:
                if frame["type"] == "ack":
                    while self.table.seq < frame["last"]:
                        follow = self._receive(socket)
                        if type(follow) is list:
                            self._fold(follow)
                return frame
            elif frame["type"] == "error":
                raise AssertionError(f"the server answered an error: {frame}")

    def legal_moves(self, seat: str) -> list:
        return self.table.game.legal(self.table.state, seat)

    def play(self, moves: int, pick=None) -> None:
        """Play ``moves`` commands for whichever seat's turn it is; ``pick(commands)`` chooses one
        (default: the highest-numbered destination, which heads north into face-down Locations)."""
        for _ in range(moves):
            seat = self.current_seat()
            if seat is None:
                return
            options = self.legal_moves(seat)
            command = (pick or _furthest)(options)
            data = command.to_data()
            kind = data.pop("type")
            frame = self.send(seat, kind, data)
            assert frame["type"] == "ack", frame

    def play_to_end(self, pick=None) -> None:
        while self.current_seat() is not None:
            self.play(1, pick)


def _furthest(options: list):
    moves = [command for command in options if getattr(command, "to", None) is not None]
    return max(moves, key=lambda command: command.to) if moves else options[0]
