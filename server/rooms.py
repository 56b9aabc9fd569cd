"""The live Rooms of one process: which games are in memory and which sockets get in.

Rooms are loaded on first use (one load per game, however many sockets wait for it) and dropped
``room_linger`` seconds after the last socket left (a reconnection meanwhile finds them loaded); at
``games_per_server`` a game without a connected seat, a lingering one first, is evicted to make room
for another (``Rooms.enter``). Each client address may open ``opens_per_minute`` sockets a minute, a
load of a long game counting as more (``server.limits.OpenRate``). Origins allowed to open sockets are checked here
(``Rooms.origin_allowed``), and notifications from the store reach the live Rooms through here.

Who gets in (issue 12, finding 3): a page of another origin never gets a socket; a socket must
say hello within ``hello_timeout``; the bounds on sockets count those without a seat, and make
room by evicting the oldest silent one (``Rooms.admit``), so a seat's token always gets in.
"""

from __future__ import annotations

import asyncio

from server import frames
from server.connection import CLOSE_EVICTED, CLOSE_GOING_AWAY, Connection, ConnectionState
from server.limits import LOAD_ENVELOPES_PER_OPEN, SEAT_OPENS_SHARE, LimitReached, Limits, OpenRate, Payer, RefusalRate
from server.metrics import Metrics
from server.room import Room
from server.store import Store


class Rooms:
    """The live rooms of this process, loaded on first use and dropped ``room_linger`` s after nobody is connected."""

    def __init__(self, store: Store, limits: Limits | None = None, *, metrics: Metrics | None = None,
                 allowed_origins: tuple[str, ...] = ()) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.metrics = metrics or Metrics()
        self.allowed_origins = frozenset(allowed_origins)
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room]] = {}
        self._heard: dict[str, int | None] = {}  # what another process announced while a game was loading
        self.by_address: dict[str, set[Connection]] = {}  # sockets without a seat, per client address
        self.refusals = RefusalRate(self.limits)  # the rules' refusals per game and seat, over its sockets
        self.opens = OpenRate(self.limits)  # sockets opened (and games loaded) per client address
        # The same per "game seat", a tenth as deep: a seat's sockets past its address's opens.
        self.seat_opens = OpenRate(self.limits, share=SEAT_OPENS_SHARE, least=3)
        self.past_bound: dict[str, list] = {}  # per address, the sockets past its opens waiting for a first frame (futures set to evict them)

    def origin_allowed(self, origin: str, host: str | None) -> bool:
        """A page of this server (its ``Host``, over http or https) or of an allowed origin may open sockets."""
        origin = origin.rstrip("/")
        if origin in self.allowed_origins:
            return True
        return host is not None and origin in (f"http://{host}", f"https://{host}")

    async def enter(self, game_id: str, payer: Payer | None = None) -> Room:
        """The game's Room, counted as in use until ``leave``; raises UnknownGame or LimitReached.

        A load the caller would start, the game not being in memory, first spends ``payer``'s opens
        (its address's or its seat's: one per ``LOAD_ENVELOPES_PER_OPEN`` envelopes of the stored log,
        ``too-many-opens`` when they are not there), before the log is read: charged after the load,
        sockets opened at once on many long games would each start one first. Only the socket that
        starts the load pays it: the head is read, the look-up made again, and nothing awaits between
        paying and registering the load (``_load``), so sockets arriving together on one game pay it once.
        At ``games_per_server`` a game nobody holds a seat in is evicted to make room; only when
        every open game has a seat connected is the newcomer refused (``too-many-games``).
        """
        head = None  # the stored head, once read: paid for without an await between paying and starting
        while True:
            room = self.rooms.get(game_id)
            if room is None:
                starts = game_id not in self._loading
                if starts and payer is not None:
                    if head is None:  # read, then look again: another socket may have started it meanwhile
                        head = (await self.store.get_game(game_id)).head
                        continue
                    payer.spend(head, LOAD_ENVELOPES_PER_OPEN)  # the one socket that starts it pays; no await after
                    payer = None
                if starts and len(self.rooms) + len(self._loading) >= self.limits.games_per_server:
                    idle = [other for other in self.rooms.values() if not any(other.seated.values())]
                    if not idle:
                        raise LimitReached("too-many-games", f"this server has {self.limits.games_per_server} games "
                                           "open, each with a seat connected, its limit: try again later")
                    self.evict_room(min(idle, key=lambda other: (len(other.clients), other.users)))
                room = await asyncio.shield(self._load(game_id))
            if self.rooms.get(game_id) is room:  # not evicted while we waited
                _stay(room)
                room.users += 1
                return room

    def evict_room(self, room: Room) -> None:
        """Drop a game without seats from memory; its sockets are told why and closed (they may reconnect)."""
        room.evicted = room.closed = True
        _stay(room)
        if self.rooms.get(room.meta.game_id) is room:
            del self.rooms[room.meta.game_id]
        message = (f"this server has {self.limits.games_per_server} games open, its limit, and game "
                   f"{room.meta.game_id} had no seat connected: it made room for another game")
        for connection in list(room.strangers):
            self._evict(room, connection, message)
        room.clients.clear()

    def admit(self, room: Room, connection: Connection) -> bool:
        """Count a new socket among the game's and its address's sockets without a seat.

        Beyond ``connections_per_game`` or ``connections_per_address`` the oldest socket of that
        group that has not said hello is evicted; if every one of them has, the newcomer is
        ``seat_only``. False if the room itself was evicted meanwhile (the socket is then closed).
        """
        if room.evicted:
            connection.send(frames.error_frame("evicted", "the game was dropped from memory to make room for "
                                               "another: reconnect"))
            connection.close(CLOSE_EVICTED)
            return False
        mine = self.by_address.setdefault(connection.address, set())
        for group, limit, what in ((room.strangers, self.limits.connections_per_game, f"game {room.meta.game_id}"),
                                   (mine, self.limits.connections_per_address, f"address {connection.address}")):
            if len(group) < limit:
                continue
            silent = [other for other in group if other.state is ConnectionState.AWAITING_HELLO]
            if silent:
                self._evict(room, min(silent, key=lambda other: other.order),
                            f"{what} has {limit} sockets without a seat, the limit of this server: this one, "
                            "the oldest that had not said hello, made room for a newer one")
            else:
                connection.seat_only = True
        room.strangers.add(connection)
        mine.add(connection)
        return True

    def greeted(self, room: Room, connection: Connection) -> None:
        """After a successful hello: a seat's socket leaves the strangers and joins its seat's sockets."""
        if connection.placed or connection.seat is None:
            return
        connection.placed = True
        self._forget_stranger(room, connection)
        sockets = room.seated.setdefault(connection.seat, [])
        sockets.append(connection)
        while len(sockets) > self.limits.connections_per_seat:
            oldest = sockets.pop(0)
            room.clients.discard(oldest)
            oldest.send(frames.error_frame("replaced", f"seat {connection.seat} has {self.limits.connections_per_seat} "
                                           "sockets, the limit of this server: a newer one replaced this one"))
            oldest.close(CLOSE_EVICTED)

    def _evict(self, room: Room, connection: Connection, message: str) -> None:
        self._forget_stranger(room, connection)
        room.clients.discard(connection)
        connection.send(frames.error_frame("evicted", message))
        connection.close(CLOSE_EVICTED)

    def _forget_stranger(self, room: Room, connection: Connection) -> None:
        room.strangers.discard(connection)
        mine = self.by_address.get(connection.address)
        if mine is not None:
            mine.discard(connection)
            if not mine:
                del self.by_address[connection.address]

    def _load(self, game_id: str) -> asyncio.Future[Room]:
        future = self._loading.get(game_id)
        if future is None:
            future = asyncio.ensure_future(self._build(game_id))
            self._loading[game_id] = future
            future.add_done_callback(lambda _: self._loading.pop(game_id, None))
        return future

    async def _build(self, game_id: str) -> Room:
        try:
            room = await Room.load(self.store, game_id, self.metrics)
        except BaseException:
            self._heard.pop(game_id, None)
            raise
        room.metrics = self.metrics
        room.undos_per_seat = self.limits.undos_per_seat
        self.metrics.loads.inc()
        self.rooms[game_id] = room
        if game_id in self._heard:  # announced after the load had read the log: read the rest now
            room.follow(self._heard.pop(game_id))
        room.wake_bots()  # a bot may open the game, or it was its turn when the server stopped
        return room

    def notified(self, game_id: str, seq: int) -> None:
        """A notification from the store (``server/notify.py``): a live Room reads what it has not seen.

        ``"chat <game> <n>"`` (read by the feed as game ``"chat <game>"``) is another process's chat
        message: the live Room sends it to its channel's sockets here (``Room.chat_heard``)."""
        if game_id.startswith("chat "):
            room = self.rooms.get(game_id[5:])
            if room is not None:
                room.chat_heard(seq)
            return
        room = self.rooms.get(game_id)
        if room is not None:
            room.follow(seq)
        elif game_id in self._loading:  # the load may have read the log already: its Room follows once built
            self._heard[game_id] = _later(self._heard.get(game_id, 0), seq)

    def follow_all(self) -> None:
        """After a gap in notifications (the listener reconnected): every live Room reads to the end."""
        for room in self.rooms.values():
            room.follow(None)
        for game_id in self._loading:
            self._heard[game_id] = None

    def leave(self, room: Room, connection: Connection | None = None) -> None:
        if connection is not None:
            room.clients.discard(connection)
            self._forget_stranger(room, connection)
            sockets = room.seated.get(connection.seat) if connection.seat is not None else None
            if sockets is not None and connection in sockets:
                sockets.remove(connection)
                if not sockets:
                    del room.seated[connection.seat]
        room.users -= 1
        if room.users == 0 and self.rooms.get(room.meta.game_id) is room:
            room.lingering = asyncio.get_running_loop().call_later(self.limits.room_linger, self._drop, room)

    def _drop(self, room: Room) -> None:
        """``room_linger`` seconds after its last socket left: the game leaves memory (its bots stop)."""
        room.lingering = None
        if room.users == 0 and self.rooms.get(room.meta.game_id) is room:
            del self.rooms[room.meta.game_id]
            room.closed = True

    def close_all(self, code: int = CLOSE_GOING_AWAY) -> None:
        for room in self.rooms.values():
            _stay(room)
            for client in list(room.clients):
                client.close(code)


def _later(known: int | None, seq: int | None) -> int | None:
    """The furthest of two announced heads (None: unknown, read to the end)."""
    return None if known is None or seq is None else max(known, seq)


def _stay(room: Room) -> None:
    """The room is in use again (or leaves now): its drop after ``room_linger`` is called off."""
    if room.lingering is not None:
        room.lingering.cancel()
        room.lingering = None
