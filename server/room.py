"""One Room per live game: the single writer, its guard ladder, and the connections it feeds.

A command runs down the guard ladder, top to bottom, each rung an early answer with its own
code (STYLE habit 7, after boardgame.io's master with the write moved before the broadcast):

1. frame    — the connection said hello, the frame decoded, its id is not a bot's, its body is a
              command of this game (``hello-first``, ``bad-frame``, ``reserved-id``,
              ``unknown-command``; decoding itself is in frames.py);
2. token    — the seat token given at hello still matches the stored hash (``bad-token``);
3. seat     — the connection holds a seat: spectators only read (``spectator``);
4. repeated — a command id already in the log is answered with its earlier ack, applied once
              (another seat's id is ``id-taken``);
5. decide   — the rules accept (events) or refuse (``rejected``, with the clause and the fact).

Then the events are appended to the store with the expected seq, and only once the store has
them are they broadcast; if another writer got there first (``SeqConflict``) the Room re-reads
the log and runs rungs 4–5 again. A refusal is checked the same way (one head read, only when
refusing), so no refusal rests on a state another process has moved past. Rooms are built lazily from the store (the newest
snapshot checked against its logged hash, then the tail: ``server/snapshots.py``), so
a server killed and restarted resumes every game with nothing lost.

Who gets in (issue 12, finding 3): a page of another origin never gets a socket; a socket must
say hello within ``hello_timeout``; the bounds on sockets count those without a seat, and make
room by evicting the oldest silent one (``Rooms.admit``), so a seat's token always gets in.

Bots (issue 18): a seat created as a bot (``POST /api/games`` with ``bots``, kept by the store)
is played by its Room. After every command, when the Room is built (a game's start or a load),
and after catching up with another process, ``wake_bots`` starts one task that, while a bot
seat may act, folds the envelopes ``Game.visible`` gives that seat (what a person at that seat
would receive: in Gloomhaven, others' picks sealed), lets the bot choose among its legal
commands there in a worker thread (at most ``BOT_CHOICE_SECONDS``, past which a random legal
command is played: the greedy bot looks at ``events.bots.MAX_OPTIONS`` commands at most), and
submits it through ``submit`` like a person's command, with command id ``bot-<seq>`` (a prefix no
client may use: ``reserved-id``). It yields to the event loop between commands and stops when
the game is over, no bot can act, the Room is dropped, or after ``BOT_RUN`` commands in one go.

Each connection has a bounded send queue drained by its own task; a client that cannot keep up
is dropped (``CLOSE_TOO_SLOW``) instead of stalling its game's other clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import enum
import itertools
import json
import logging
import secrets
import time
from typing import Any

from starlette.websockets import WebSocket

import events.games
from events.bots import RandomBot, bot
from events.log import Envelope, LogError, Table, rules_in_force
from events.rng import Rng
from events.rules import Rejection
from server import frames, snapshots
from server.frames import Command, FrameError, Hello
from server.limits import CommandRate, LimitReached, Limits
from server.metrics import Metrics
from server.store import GameMeta, SeqConflict, Store, Stored, StoreError, UnknownGame
from server.tokens import seat_for_token

log = logging.getLogger("chronicle.room")

# Close codes: number and meaning in one name (4000-4999 are ours to define).
CLOSE_GOING_AWAY = 1001  # the server is shutting down
CLOSE_SERVER_ERROR = 1011  # the game cannot be rebuilt from its log (see the error frame)
CLOSE_TRY_AGAIN_LATER = 1013  # the store failed; reconnect later and say hello with your seq
CLOSE_NO_SUCH_GAME = 4004  # the URL names no game in the store
CLOSE_TOO_SLOW = 4008  # the client's send queue overflowed: it read too slowly
CLOSE_HELLO_TIMEOUT = 4010  # no successful hello within the hello timeout (server/limits.py)
CLOSE_EVICTED = 4011  # made room for a newer socket, a seat, or another game (see the error frame)
CLOSE_FORBIDDEN_ORIGIN = 1008  # before the upgrade: uvicorn answers it with HTTP 403

SEND_QUEUE_LIMIT = 256  # queued items (one per command, or one catch-up batch) per connection
CONFLICT_RETRIES = 5
BOT_PREFIX = "bot-"  # the command ids of the server's bots; refused from clients (reserved-id)
BOT_CHOICE_SECONDS = 5.0  # a bot's choice, in its thread; the slowest measured is ~0.15 s (gloomhaven/barrow)
BOT_RUN = 1000  # commands bots make in one go before yielding the task (the longest built-in game has ~230)


class ConnectionState(enum.Enum):
    AWAITING_HELLO = "awaiting-hello"
    GREETED = "greeted"
    CLOSED = "closed"


_TRANSITIONS = {
    ConnectionState.AWAITING_HELLO: (ConnectionState.GREETED, ConnectionState.CLOSED),
    ConnectionState.GREETED: (ConnectionState.CLOSED,),
    ConnectionState.CLOSED: (),
}


def visible_to(game: Any, envelope: Envelope, seat: str | None, over: bool = False) -> Envelope | None:
    """What ``seat`` (None: a spectator) may see of an envelope: itself, a redacted copy, or None.

    Every envelope leaving the server passes here. The game decides (``Game.visible``: its
    ``visibility`` and ``redact``); once the game is over its whole log is public.
    """
    return game.visible(envelope, seat, over)


def now() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


_opened = itertools.count()


class Connection:
    """One client's socket: its state, its seat, and the bounded queue its writer task drains.

    ``address`` is the client's; ``order`` says which socket is older (the oldest is evicted
    first); ``seat_only`` marks a socket admitted beyond a full bound, which may only say hello
    with a seat's token (issue 12, finding 3).
    """

    def __init__(
        self, websocket: WebSocket, queue_limit: int = SEND_QUEUE_LIMIT, address: str = "unknown",
        order: int | None = None,
    ) -> None:
        self.websocket = websocket
        self.state = ConnectionState.AWAITING_HELLO
        self.seat: str | None = None
        self.token: str | None = None
        self.close_code: int | None = None
        self.address = address
        self.order = next(_opened) if order is None else order
        self.seat_only = False
        self.placed = False  # counted among its seat's sockets (Rooms.greeted)
        self._queue: asyncio.Queue[list[str] | int] = asyncio.Queue(queue_limit + 1)  # +1: room for the close
        self._limit = queue_limit
        self._writer = asyncio.create_task(self._pump())

    def __repr__(self) -> str:
        return f"Connection({self.state.value}, seat={self.seat!r})"

    def transition(self, to: ConnectionState) -> None:
        if to not in _TRANSITIONS[self.state]:
            raise RuntimeError(f"connection cannot go from {self.state.value} to {to.value}")
        self.state = to

    def send(self, *frames_: str) -> bool:
        """Queue frames to go out in order; False (and the connection is dropped) if it overflowed."""
        return self.send_batch(list(frames_))

    def send_batch(self, batch: list[str]) -> bool:
        if self.state is ConnectionState.CLOSED:
            return False
        if self._queue.qsize() >= self._limit:
            log.warning("dropping a client too slow to read (%s): %d items queued", self, self._limit)
            self.close(CLOSE_TOO_SLOW)
            return False
        if batch:
            self._queue.put_nowait(batch)
        return True

    def close(self, code: int) -> None:
        """Stop accepting frames; the writer sends what is queued before it (unless too slow), then closes."""
        if self.state is ConnectionState.CLOSED:
            return
        self.transition(ConnectionState.CLOSED)
        self.close_code = code
        if code == CLOSE_TOO_SLOW:  # its backlog is the problem: drop it, close at once
            while not self._queue.empty():
                self._queue.get_nowait()
        self._queue.put_nowait(code)

    async def _pump(self) -> None:
        try:
            while True:
                item = await self._queue.get()
                if isinstance(item, int):
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(self.websocket.close(item), 5)
                    return
                for frame in item:
                    await self.websocket.send_text(frame)
        except Exception:  # the peer went away mid-send: nothing left to tell it
            if self.state is not ConnectionState.CLOSED:
                self.transition(ConnectionState.CLOSED)

    async def finish(self) -> None:
        """After the socket's receive loop ended: let a pending close go out, then stop the writer."""
        if self.close_code is not None and not self._writer.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._writer), 5)
        if self.state is not ConnectionState.CLOSED:
            self.transition(ConnectionState.CLOSED)
        self._writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._writer


class Room:
    """One game in memory (a Table), its writer lock, and the connections that watch it."""

    metrics = Metrics()  # replaced by Rooms with the app's own

    def __init__(self, store: Store, meta: GameMeta, table: Table, stored: list[Stored]) -> None:
        self.store = store
        self.meta = meta
        self.table = table  # its ``game`` is the rules version in force (GameStarted's, then each RulesVersionChanged's)
        self.lock = asyncio.Lock()
        self.clients: set[Connection] = set()
        self.users = 0  # connections between Rooms.enter and Rooms.leave (eviction waits for 0)
        self._frames = [frames.event_frame(item.envelope) for item in stored]  # the full frame per seq
        self._redacted: dict[int, str] = {}  # seq -> the frame of its redacted copy, once someone needed it
        self._behind = 0  # the highest seq another process announced (2**62: unknown, read to the end)
        self._follower: asyncio.Task | None = None
        self.strangers: set[Connection] = set()  # sockets without a seat: not yet greeted, or spectators
        self.seated: dict[str, list[Connection]] = {}  # seat -> its greeted sockets, oldest first
        self.evicted = False  # Rooms dropped it to make room for another game
        self.snapshot_seq = 0  # the newest snapshot this Room knows of (server/snapshots.py)
        self.bots: dict[str, Any] = {}  # seat -> its bot (events.bots), for the seats the server plays
        self._bot_views: dict[str, tuple[int, Any]] = {}  # seat -> (seq, the state folded from what it may see)
        self._bot_task: asyncio.Task | None = None
        self.closed = False  # dropped from memory (Rooms.leave, evict_room): its bots stop

    @property
    def game(self) -> Any:
        """The rules version the game is played under now (``Table.game``)."""
        return self.table.game

    @classmethod
    async def load(cls, store: Store, game_id: str, metrics: Metrics | None = None) -> Room:
        """Rebuild from the store: the newest snapshot checked against its logged hash, then the tail
        folded with every hash checked (``server/snapshots.py``); snapshots passed are written."""
        meta = await store.get_game(game_id)
        stored = await store.read(game_id)
        # Played under the rules version its log names, however old (issue 19, CORE-3).
        game = events.games.load(meta.rules)
        envelopes = [frames.decode_envelope(game, item.envelope) for item in stored]
        base, state = await snapshots.newest(store, game, game_id, envelopes)
        game = rules_in_force(game, envelopes[:max(base, 1)])  # the tail is folded from there, following moves
        kept: list[tuple[int, str]] = []
        state = snapshots.fold(game, envelopes[base:], state, (metrics or cls.metrics).folds.labels("room").inc, kept,
                               base)
        table = Table.resume(game, game_id, envelopes, state, secret=await store.secret(game_id))  # CORE-1: only the Room draws
        await snapshots.save(store, game_id, kept)
        room = cls(store, meta, table, stored)
        room.snapshot_seq = kept[-1][0] if kept else base
        room.bots = {seat: bot(game, policy) for seat, policy in (await store.bots(game_id)).items()}
        return room

    async def _reload(self, known: int) -> None:
        """After a conflict or a failed append: the store is the truth, catch up with it.

        ``known`` is the last seq this Room had broadcast; what another process appended after
        it goes out to this Room's clients now, so they see no gap.
        """
        fresh = await Room.load(self.store, self.meta.game_id, self.metrics)
        self.meta, self.table, self._frames, self._redacted = fresh.meta, fresh.table, fresh._frames, {}
        self._broadcast(self.table.envelopes[known:])

    def frame_for(self, envelope: Envelope, seat: str | None, over: bool) -> str | None:
        visible = visible_to(self.game, envelope, seat, over)
        if visible is None:
            return None
        if visible is envelope:
            return self._frames[envelope.seq - 1]
        # A redacted copy does not depend on who is refused the original: encode it once.
        frame = self._redacted.get(envelope.seq)
        if frame is None:
            frame = self._redacted[envelope.seq] = frames.event_frame(frames.encode_envelope(visible))
        return frame

    def _frames_for(self, envelopes: list[Envelope], seat: str | None) -> list[str]:
        over = bool(self.game.is_over(self.table.state))
        out = []
        for envelope in envelopes:
            frame = self.frame_for(envelope, seat, over)
            if frame is not None:
                out.append(frame)
        return out

    # --- hello ------------------------------------------------------------------------------------

    async def hello(self, connection: Connection, frame: Hello) -> None:
        if connection.state is ConnectionState.GREETED:
            connection.send(frames.error_frame("already-greeted", f"this connection already said hello as "
                                               f"{_who(connection.seat)}; open another socket to change seat"))
            return
        seat = None
        if frame.token is not None:
            seat = seat_for_token(frame.token, self.meta.token_hashes)
            if seat is None:
                connection.send(frames.error_frame(
                    "bad-token", "the token matches no seat of this game; say hello again with a seat's token, "
                    "or with token null to watch"))
                return
        async with self.lock:  # a consistent cut: nothing is broadcast between catch-up and joining
            if (await self.store.get_game(self.meta.game_id)).head != self.table.seq:
                await self._reload_or_give_up(self.table.seq)  # another process wrote meanwhile
            head = self.table.seq
            if connection.state is not ConnectionState.AWAITING_HELLO:
                return  # evicted or timed out while waiting for the lock: nothing left to greet
            if frame.since > head:
                connection.send(frames.error_frame(
                    "bad-since", f"since {frame.since} is beyond the last seq {head} of this game"))
                return
            connection.seat, connection.token = seat, frame.token
            connection.transition(ConnectionState.GREETED)
            welcome = frames.encode(frames.Welcome(self.meta.game_id, self.game.name, seat, head))
            if connection.send_batch([welcome] + self._frames_for(self.table.envelopes[frame.since :], seat)):
                self.clients.add(connection)

    # --- the guard ladder -------------------------------------------------------------------------

    async def command(self, connection: Connection, frame: Command) -> None:
        received = time.perf_counter()
        self.metrics.commands.inc()
        # 1. frame
        if connection.state is not ConnectionState.GREETED:
            self._refused("hello-first")
            connection.send(frames.error_frame("hello-first", "expected a hello frame before any command", frame.id))
            return
        if frame.id.startswith(BOT_PREFIX):
            self._refused("reserved-id")
            connection.send(frames.error_frame("reserved-id", f"$.id: command ids beginning {BOT_PREFIX!r} mark the "
                                               f"server's bots; got {frame.id!r}", frame.id))
            return
        try:
            command = frames.build_command(self.game, frame)
        except FrameError as error:
            self._refused(error.code)
            connection.send(frames.error_frame(error.code, error.message, frame.id))
            return
        # 2. token
        if connection.token is not None and seat_for_token(connection.token, self.meta.token_hashes) != connection.seat:
            self._refused("bad-token")
            connection.send(frames.error_frame("bad-token", f"the token no longer matches seat {connection.seat}",
                                               frame.id))
            return
        # 3. seat
        if connection.seat is None:
            self._refused("spectator")
            connection.send(frames.error_frame(
                "spectator", "spectators can only read: say hello with a seat's token to play", frame.id))
            return
        async with self.lock:
            reply = await self.submit(connection.seat, command, frame.id, received)
        connection.send(reply)
        self.wake_bots()

    def _refused(self, code: str) -> None:
        self.metrics.rejections.labels(code).inc()

    async def submit(self, seat: str, command: Any, command_id: str, received: float | None = None) -> str:
        """Rungs 4–5, the append and the broadcast, for a seat already checked; the sender's reply frame.

        The caller holds ``self.lock``. ``received`` (perf_counter) times command-to-broadcast.
        """
        for _attempt in range(CONFLICT_RETRIES):
            # 4. repeated command id
            earlier = self.table.by_command.get(command_id)
            if earlier is not None:
                if earlier[0].seat != seat:
                    self._refused("id-taken")
                    return frames.error_frame("id-taken", f"command id {command_id!r} was already used by seat "
                                              f"{earlier[0].seat} in this game; ids must be unique per game", command_id)
                return frames.encode(frames.Ack(command_id, earlier[0].seq, self.table.caused_upto(earlier[-1].seq)))
            # 5. decide
            head = self.table.seq
            before = self.table.state
            try:
                result = self.table.submit(seat, command, command_id, at=now())
            except Exception as error:  # a bug in the rules: say so, and drop the half-applied table
                log.exception("game %s: deciding %r failed", self.meta.game_id, command)
                await self._reload_or_give_up(head)
                self._refused("internal-error")
                return frames.error_frame("internal-error", f"the server failed to decide this command: "
                                          f"{type(error).__name__}: {error}", command_id)
            if isinstance(result, Rejection):
                # A refusal must not rest on a stale state (another process may have moved on):
                # it costs one read, only when refusing.
                if (await self.store.get_game(self.meta.game_id)).head != head:
                    await self._reload_or_give_up(head)
                    continue
                self._refused("rejected")
                return frames.encode(frames.Rejected(command_id, result.rule, result.reason))
            logged = result.logged  # the command's envelopes, then SecretRevealed if it ended the game (CORE-2)
            texts = [frames.encode_envelope(envelope) for envelope in logged]
            batch = [Stored(envelope.seq, envelope.command_id, text) for envelope, text in zip(logged, texts)]
            try:
                await self.store.append(self.meta.game_id, head, batch, over=bool(self.game.is_over(self.table.state)))
            except SeqConflict:
                self.metrics.conflicts.inc()
                await self._reload_or_give_up(head)  # another process wrote first: re-read, then rungs 4–5 again
                continue
            except StoreError as error:
                log.error("game %s: append failed: %s", self.meta.game_id, error)
                await self._reload_or_give_up(head)
                self._refused("store-unavailable")
                return frames.error_frame("store-unavailable", f"the command was not stored: {error}", command_id)
            # Stored: only now does anyone hear of it.
            self._frames.extend(frames.event_frame(text) for text in texts)
            self._broadcast(logged)
            if received is not None:
                self.metrics.latency.observe(time.perf_counter() - received)
            if self.table.seq >= snapshots.due_after(self.snapshot_seq):
                await self._snapshot(before, logged)
            return frames.encode(frames.Ack(command_id, result.envelopes[0].seq, logged[-1].seq))
        self._refused("store-unavailable")
        return frames.error_frame("store-unavailable", f"gave up after {CONFLICT_RETRIES} conflicting appends",
                                  command_id)

    # --- bots (issue 18) ----------------------------------------------------------------------------

    def wake_bots(self) -> None:
        """Let the bots play if one may act; one task per Room, which re-checks after each command."""
        if self.bots and not self.closed and (self._bot_task is None or self._bot_task.done()):
            self._bot_task = asyncio.create_task(self._play_bots())

    def bot_view(self, seat: str) -> Any:
        """The state folded from the envelopes ``seat`` may see (``Game.visible``), kept per bot seat."""
        seq, state = self._bot_views.get(seat, (0, None))
        for envelope in self.table.envelopes[seq:]:
            visible = self.game.visible(envelope, seat, False)
            if visible is not None:
                state = self.game.evolve(state, visible.event)
        self._bot_views[seat] = (self.table.seq, state)
        return state

    async def _play_bots(self) -> None:
        try:
            for _made in range(BOT_RUN):
                await asyncio.sleep(0)  # yield: people's commands and other games go between bot commands
                async with self.lock:
                    if self.closed or self.game.is_over(self.table.state):
                        return
                    movers = [(seat, self.bot_view(seat)) for seat in self.game.turn(self.table.state)
                              if seat in self.bots]
                    movers = [(seat, view) for seat, view in movers if self.game.legal(view, seat)]
                    if not movers:
                        return  # a person's turn, or nobody can act
                    seat, view = movers[0]
                    command = await self._choose(seat, view)
                    reply = await self.submit(seat, command, f"{BOT_PREFIX}{self.table.seq + 1}", time.perf_counter())
                answer = json.loads(reply)
                if answer.get("code") == "id-taken":
                    continue  # another process's bot made this seq first (same id, another seat): look again
                if answer.get("type") != "ack":
                    log.error("game %s: bot %s's command %r was not taken: %s", self.meta.game_id, seat, command, reply)
                    return
        except Exception:
            log.exception("game %s: the bots stopped", self.meta.game_id)

    async def _choose(self, seat: str, view: Any) -> Any:
        """The bot's choice in a worker thread (the event loop keeps serving), within BOT_CHOICE_SECONDS."""
        policy = self.bots[seat]
        chooser = Rng(secrets.randbits(63))  # the bot's own choices and dice: never the game's (CORE-1)
        try:
            return await asyncio.wait_for(asyncio.to_thread(policy.choose, self.game, view, seat, chooser),
                                          BOT_CHOICE_SECONDS)
        except TimeoutError:
            log.warning("game %s: bot %s took over %s s to choose: a random legal command instead",
                        self.meta.game_id, seat, BOT_CHOICE_SECONDS)
            return RandomBot().choose(self.game, view, seat, Rng(secrets.randbits(63)))

    async def _snapshot(self, before: Any, envelopes: list[Envelope]) -> None:
        """A snapshot is due: keep the first state of the batch where it may be taken (a few folds from ``before``)."""
        kept: list[tuple[int, str]] = []
        snapshots.fold(self.game, envelopes, before, lambda n: None, kept, self.snapshot_seq)
        if kept:
            await snapshots.save(self.store, self.meta.game_id, kept)
            self.snapshot_seq = kept[-1][0]

    async def _reload_or_give_up(self, known: int) -> None:
        try:
            await self._reload(known)
        except Exception:
            log.exception("game %s: cannot reload from the store; closing its connections", self.meta.game_id)
            for client in list(self.clients):
                client.close(CLOSE_TRY_AGAIN_LATER)
            self.clients.clear()
            raise

    # --- events appended by other processes -------------------------------------------------------

    def follow(self, seq: int | None = None) -> None:
        """Another process announced events up to ``seq`` (None: unknown, after a gap): read and broadcast them.

        Notifications only trigger reads: whatever they announce, the Room reads every row after
        its own last seq, so one lost notification is made good by the next. One follower task
        per Room; notifications arriving meanwhile only raise its target.
        """
        target = 2**62 if seq is None else seq
        if target <= self.table.seq:
            return  # our own append, or one we already read
        self._behind = max(self._behind, target)
        if self._follower is None:
            self._follower = asyncio.create_task(self._follow())

    async def _follow(self) -> None:
        try:
            while self._behind > self.table.seq:
                self._behind = 0
                async with self.lock:
                    await self._catch_up()
            self.wake_bots()
        except Exception:
            log.exception("game %s: cannot follow the store", self.meta.game_id)
        finally:
            self._follower = None

    async def _catch_up(self) -> None:
        """Under the lock: fold and broadcast what the store has after our last seq; a bad row means a full reload."""
        known = self.table.seq
        stored = await self.store.read(self.meta.game_id, known)
        if not stored:
            return
        try:
            envelopes = [self._absorb(item) for item in stored]
        except (LogError, ValueError) as error:
            log.warning("game %s: rows after seq %d do not fold (%s); reloading", self.meta.game_id, known, error)
            await self._reload_or_give_up(known)
            return
        self.metrics.caught_up.inc(len(envelopes))
        self._broadcast(envelopes)

    def _absorb(self, item: Stored) -> Envelope:
        """One stored row folded into the Table, its hash checked (``Table.absorb``), and its frame kept."""
        envelope = self.table.absorb(frames.decode_envelope(self.game, item.envelope))
        self._frames.append(frames.event_frame(item.envelope))
        return envelope

    def _broadcast(self, envelopes: list[Envelope]) -> None:
        for client in list(self.clients):
            if not client.send_batch(self._frames_for(envelopes, client.seat)):
                self.clients.discard(client)


def _who(seat: str | None) -> str:
    return "a spectator" if seat is None else f"seat {seat}"


class Rooms:
    """The live rooms of this process, loaded on first use and dropped when nobody is connected."""

    def __init__(self, store: Store, limits: Limits | None = None, *, metrics: Metrics | None = None,
                 allowed_origins: tuple[str, ...] = ()) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.metrics = metrics or Metrics()
        self.allowed_origins = frozenset(allowed_origins)
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room]] = {}
        self.by_address: dict[str, set[Connection]] = {}  # sockets without a seat, per client address

    def origin_allowed(self, origin: str, host: str | None) -> bool:
        """A page of this server (its ``Host``, over http or https) or of an allowed origin may open sockets."""
        origin = origin.rstrip("/")
        if origin in self.allowed_origins:
            return True
        return host is not None and origin in (f"http://{host}", f"https://{host}")

    async def enter(self, game_id: str) -> Room:
        """The game's Room, counted as in use until ``leave``; raises UnknownGame or LimitReached.

        At ``games_per_server`` a game nobody holds a seat in is evicted to make room; only when
        every open game has a seat connected is the newcomer refused (``too-many-games``).
        """
        while True:
            room = self.rooms.get(game_id)
            if room is None:
                if game_id not in self._loading and len(self.rooms) + len(self._loading) >= self.limits.games_per_server:
                    idle = [other for other in self.rooms.values() if not any(other.seated.values())]
                    if not idle:
                        raise LimitReached("too-many-games", f"this server has {self.limits.games_per_server} games "
                                           "open, each with a seat connected, its limit: try again later")
                    self.evict_room(min(idle, key=lambda other: (len(other.clients), other.users)))
                room = await asyncio.shield(self._load(game_id))
            if self.rooms.get(game_id) is room:  # not evicted while we waited
                room.users += 1
                return room

    def evict_room(self, room: Room) -> None:
        """Drop a game without seats from memory; its sockets are told why and closed (they may reconnect)."""
        room.evicted = room.closed = True
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
        room = await Room.load(self.store, game_id, self.metrics)
        room.metrics = self.metrics
        self.rooms[game_id] = room
        room.wake_bots()  # a bot may open the game, or it was its turn when the server stopped
        return room

    def notified(self, game_id: str, seq: int) -> None:
        """A notification from the store (``server/notify.py``): a live Room reads what it has not seen."""
        room = self.rooms.get(game_id)
        if room is not None:
            room.follow(seq)

    def follow_all(self) -> None:
        """After a gap in notifications (the listener reconnected): every live Room reads to the end."""
        for room in self.rooms.values():
            room.follow(None)

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
            del self.rooms[room.meta.game_id]
            room.closed = True

    def close_all(self, code: int = CLOSE_GOING_AWAY) -> None:
        for room in self.rooms.values():
            for client in list(room.clients):
                client.close(code)


async def serve_socket(websocket: WebSocket, rooms: Rooms, queue_limit: int = SEND_QUEUE_LIMIT) -> None:
    """A WebSocket's whole life: check its origin, accept, find the room, read frames until it closes.

    A socket that has not said hello successfully within ``hello_timeout`` seconds of its
    upgrade gets ``hello-timeout`` and is closed with 4010, whatever it sent meanwhile.
    """
    game_id = websocket.path_params["game_id"]
    origin = websocket.headers.get("origin")
    # No Origin header: not a browser (a bot, the bench, a CLI), which no web page can make it do.
    if origin is not None and not rooms.origin_allowed(origin, websocket.headers.get("host")):
        log.warning("refused a socket to %s from origin %r", game_id, origin[:200])
        await websocket.close(CLOSE_FORBIDDEN_ORIGIN)  # before accept: uvicorn answers HTTP 403
        return
    await websocket.accept()
    # Its age counts from the upgrade, like its hello deadline: sockets that waited together for their
    # game to load resume in any order, and the oldest must still be the first evicted.
    order = next(_opened)
    deadline = time.monotonic() + rooms.limits.hello_timeout
    try:
        room = await rooms.enter(game_id)
    except LimitReached as error:
        await websocket.send_text(frames.error_frame(error.code, error.message))
        await websocket.close(CLOSE_TRY_AGAIN_LATER)
        return
    except UnknownGame:
        await websocket.send_text(frames.error_frame("no-such-game", f"there is no game {game_id!r}"))
        await websocket.close(CLOSE_NO_SUCH_GAME)
        return
    except StoreError as error:
        log.error("game %s: cannot load: %s", game_id, error)
        await websocket.send_text(frames.error_frame("store-unavailable", f"the game cannot be loaded: {error}"))
        await websocket.close(CLOSE_TRY_AGAIN_LATER)
        return
    except Exception as error:  # the log does not replay under today's rules, or its game is gone
        log.exception("game %s: cannot be rebuilt from its log", game_id)
        await websocket.send_text(frames.error_frame("game-unavailable", f"the game cannot be rebuilt from its log: "
                                                     f"{type(error).__name__}: {error}"))
        await websocket.close(CLOSE_SERVER_ERROR)
        return
    address = websocket.client.host if websocket.client is not None else "unknown"
    connection = Connection(websocket, queue_limit, address, order)
    rooms.metrics.connections.inc()
    rate = CommandRate(rooms.limits)
    try:
        rooms.admit(room, connection)
        while connection.state is not ConnectionState.CLOSED:
            if connection.state is ConnectionState.AWAITING_HELLO:
                try:
                    message = await asyncio.wait_for(websocket.receive(), max(0.0, deadline - time.monotonic()))
                except TimeoutError:
                    connection.send(frames.error_frame("hello-timeout", f"no successful hello within "
                                                       f"{rooms.limits.hello_timeout} s of opening the socket"))
                    connection.close(CLOSE_HELLO_TIMEOUT)
                    break
            else:
                message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            try:
                frame = frames.decode_client_frame(raw, rooms.limits.max_frame_bytes)
            except FrameError as error:
                connection.send(frames.error_frame(error.code, error.message))
                continue
            if isinstance(frame, Hello):
                if connection.seat_only and frame.token is None and connection.state is ConnectionState.AWAITING_HELLO:
                    connection.send(frames.error_frame(
                        "too-many-connections", f"game {game_id} (or address {address}) has as many spectators as "
                        "this server allows: only a seat's token may say hello on this socket; try again later"))
                    connection.close(CLOSE_TRY_AGAIN_LATER)
                    break
                await room.hello(connection, frame)
                if connection.state is ConnectionState.GREETED:
                    rooms.greeted(room, connection)
            elif not rate.allow():
                connection.send(frames.error_frame("rate-limited", rate.refusal(), frame.id))
            else:
                await room.command(connection, frame)
    except StoreError:
        pass  # the room could not reload and has closed its connections
    finally:
        rooms.metrics.connections.dec()
        rooms.leave(room, connection)
        await connection.finish()
