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

Chat (issue 18, ``server/chat.py``): ``chat`` keeps a socket's message in the store's chat table
and sends it to the sockets of its channel; ``chat_history`` sends a greeted socket the newest of
its channel. Neither takes the writer lock nor touches the Table: chat is never folded.
Undo (issue 18, CORE-4 to CORE-7): ``AskUndo`` and ``AnswerUndo`` are commands like any other on
this ladder, decided by the Table's book of undos (``events/undo.py``). A game whose log holds an
undo is loaded with ``Table.restoring`` (the whole log folded, in steps: an UndoApplied needs the
states before it) and takes no snapshots; a bot's view is refolded from what is still in play, and a bot
answers every undo that waits for it (``_bot_yes``): yes, or no across a draw or a reveal (CORE-12).

The sockets a Room feeds are ``server/connection.py``'s; which sockets and games get in is
``server/rooms.py``'s; one socket's life, from its upgrade to its close, is
``server/serve_socket.py``'s.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import logging
import secrets
import time
from typing import Any

import events.games
from events import wire
from events.bots import RandomBot, answer_undo, bot
from events.log import Envelope, LogError, Table, rules_in_force
from events.rng import Rng
from events.rules import Rejection, message_data
from events.undo import AskUndo, is_undo_event
from server import bundle, chat, frames, snapshots
from server.connection import CLOSE_TRY_AGAIN_LATER, Connection, ConnectionState
from server.frames import Chat, Command, FrameError, Hello
from server.limits import DEFAULT_UNDOS_PER_SEAT, Limits
from server.metrics import Metrics
from server.store import GameMeta, SeqConflict, Store, Stored, StoreError
from server.tokens import seat_for_token

log = logging.getLogger("chronicle.room")

CONFLICT_RETRIES = 5
BOT_PREFIX = "bot-"  # the command ids of the server's bots; refused from clients (reserved-id)
BOT_CHOICE_SECONDS = 5.0  # a bot's choice, in its thread; the slowest measured is ~0.15 s (gloomhaven/barrow)
CHAT_REMEMBERED = 1024  # chat numbers a Room remembers having sent, so a notification of one is not sent twice
HISTORY_FRAMES = 128  # events frames per history frame, after a snapshot join (~300 envelopes, ~40 KB)
HISTORY_PER_SEND = 8  # history frames queued at once for one connection
BOT_RUN = 1000  # commands bots make in one go before yielding the task (the longest built-in game has ~230)
DECODE_SLICE = 500  # stored envelopes a Room's load decodes, or indexes, between two yields to the loop (~3 ms)


def visible_to(game: Any, envelope: Envelope, seat: str | None, over: bool = False) -> Envelope | None:
    """What ``seat`` (None: a spectator) may see of an envelope: itself, a redacted copy, or None.

    Every envelope leaving the server passes here. The game decides (``Game.visible``: its
    ``visibility`` and ``redact``); once the game is over its whole log is public.
    """
    return game.visible(envelope, seat, over)


async def decoded(game: Any, stored: list[Stored]) -> list[Envelope]:
    """The stored envelopes decoded, ``DECODE_SLICE`` at a time with a yield to the loop between.

    Anyone may open a socket on any game, and a game not in memory is loaded for it: decoding a
    10,000-event log at once held the loop ~55 ms, every game's commands with it, at each load (a
    stranger reconnecting in a loop kept every game ~50-75 ms late, docs/bounds.md)."""
    envelopes: list[Envelope] = []
    for start in range(0, len(stored), DECODE_SLICE):
        if start:
            await asyncio.sleep(0)
        envelopes.extend([frames.decode_envelope(game, item.envelope) for item in stored[start:start + DECODE_SLICE]])
    return envelopes


async def finished(steps: Any) -> Table:
    """The last Table of ``steps`` (``Table.resuming`` or ``Table.restoring``: a long log indexed or
    folded ``DECODE_SLICE`` envelopes at a time), with a yield to the loop after each (``decoded``)."""
    table = None
    for step in steps:
        table = step
        await asyncio.sleep(0)
    return table


def now() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class Room:
    """One game in memory (a Table), its writer lock, and the connections that watch it."""

    metrics = Metrics()  # replaced by Rooms with the app's own
    join_from = snapshots.SNAPSHOT_EVERY  # a game this long is joined from a snapshot (a shorter one folds in a blink)
    undos_per_seat = DEFAULT_UNDOS_PER_SEAT  # Limits.undos_per_seat, set by Rooms

    def __init__(self, store: Store, meta: GameMeta, table: Table, stored: list[Stored]) -> None:
        self.store = store
        self.meta = meta
        self.table = table  # its ``game`` is the rules version in force (GameStarted's, then each RulesVersionChanged's)
        self.lock = asyncio.Lock()
        self.clients: set[Connection] = set()
        self.users = 0  # connections between Rooms.enter and Rooms.leave (eviction waits for 0)
        self._sent: dict[tuple, str] = {}  # (first seq, last seq, what was redacted) -> its events frame
        self._dicts: dict[int, dict] = {}  # seq -> to_dict() of the last command's envelopes (built for the store)
        self._behind = 0  # the highest seq another process announced (2**62: unknown, read to the end)
        self._follower: asyncio.Task | None = None
        self.strangers: set[Connection] = set()  # sockets without a seat: not yet greeted, or spectators
        self.seated: dict[str, list[Connection]] = {}  # seat -> its greeted sockets, oldest first
        self.evicted = False  # Rooms dropped it to make room for another game
        self.snapshot_seq = 0  # the newest snapshot this Room knows of (server/snapshots.py)
        self.bots: dict[str, Any] = {}  # seat -> its bot (events.bots), for the seats the server plays
        self._bot_views: dict[str, tuple[int, Any]] = {}  # seat -> (seq, the state folded from what it may see)
        self._bot_task: asyncio.Task | None = None
        self.closed = False  # dropped from memory (Rooms._drop, evict_room): its bots stop
        self.lingering: asyncio.TimerHandle | None = None  # nobody connected: Rooms._drop is due (room_linger)
        self.chat_lock = asyncio.Lock()  # chat messages go out in the order of their n
        # Each channel's game bucket, made with its first message: spectators never spend the seats' (gamebounds).
        self.chat_rates: dict[str, chat.ChatRate] = {}
        self._chat_sent: dict[int, None] = {}  # the n this Room sent out lately (its own, or heard of), oldest first
        self._chat_tasks: set[asyncio.Task] = set()
        self._history_tasks: set[asyncio.Task] = set()  # history frames going out after snapshot joins

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
        envelopes = await decoded(game, stored)
        kept: list[tuple[int, str]] = []
        if any(is_undo_event(envelope.event) for envelope in envelopes):  # CORE-4: undos fold from the whole log
            (metrics or cls.metrics).folds.labels("room").inc(len(envelopes))
            secret = await store.secret(game_id)
            table = await finished(Table.restoring(game, game_id, envelopes, secret=secret, every=DECODE_SLICE))
            base = 0
        else:
            base, state = await snapshots.newest(store, game, game_id, envelopes)
            game = rules_in_force(game, envelopes[:max(base, 1)])  # the tail is folded from there, following moves
            state = snapshots.fold(game, envelopes[base:], state, (metrics or cls.metrics).folds.labels("room").inc,
                                   kept, base)
            secret = await store.secret(game_id)  # CORE-1: only the Room draws
            table = await finished(Table.resuming(game, game_id, envelopes, state, secret, every=DECODE_SLICE))
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
        self.meta, self.table, self._sent, self._dicts = fresh.meta, fresh.table, {}, {}
        self._broadcast(self.table.envelopes[known:])

    def frames_for(self, batch: list[Envelope], seat: str | None, over: bool) -> list[str]:
        """The ``events`` frame(s) ``seat`` gets for one batch (``events.wire.frame_batches``).

        Each envelope is what ``Game.visible`` gives the seat: itself or its redacted copy, which
        does not depend on who is refused the original. So a frame depends only on which
        envelopes were redacted, and is encoded once per batch for every client who sees the same
        (``_sent``). An envelope the seat may not see at all (None) cuts the batch around it.
        """
        out, run, marks = [], [], []
        for envelope in batch + [None]:
            visible = None if envelope is None else visible_to(self.game, envelope, seat, over)
            if visible is not None:
                run.append(visible)
                marks.append(visible is not envelope)
                continue
            if run:
                key = (run[0].seq, run[-1].seq, tuple(marks))
                frame = self._sent.get(key)
                if frame is None:
                    items = [item if redacted else self._dicts.get(item.seq, item) for item, redacted in zip(run, marks)]
                    frame = self._sent[key] = frames.events_frame(self.game, items, self.started, self.seats)
                out.append(frame)
            run, marks = [], []
        return out

    @property
    def started(self) -> str | None:
        """GameStarted's ``at``: the base of the times in this game's events frames (events/wire.py)."""
        envelopes = self.table.envelopes
        return envelopes[0].at if envelopes else None

    @property
    def seats(self) -> Any:
        """GameStarted's ``seats``: an events frame spells each seat as its index there (events/wire.py)."""
        envelopes = self.table.envelopes
        return getattr(envelopes[0].event, "seats", None) if envelopes else None

    def _frames_for(self, envelopes: list[Envelope], seat: str | None, batches: list | None = None,
                    over: bool | None = None) -> list[str]:
        """Every ``events`` frame of ``envelopes`` that ``seat`` gets; ``batches`` and ``over``, when a
        broadcast has them already for its other seats, are ``wire.frame_batches`` and ``is_over``'s."""
        if over is None:
            over = bool(self.game.is_over(self.table.state))
        out = []
        for batch in wire.frame_batches(envelopes) if batches is None else batches:
            out.extend(self.frames_for(batch, seat, over))
        return out

    # --- hello ------------------------------------------------------------------------------------

    async def hello(self, connection: Connection, frame: Hello) -> str | None:
        """Greet the socket (the welcome, then what it misses); the code of the error it got instead, else None."""
        if connection.state is ConnectionState.GREETED:
            connection.send(frames.error_frame("already-greeted", f"this connection already said hello as "
                                               f"{_who(connection.seat)}; open another socket to change seat"))
            return "already-greeted"
        seat = None
        if frame.token is not None:
            seat = seat_for_token(frame.token, self.meta.token_hashes)
            if seat is None:
                connection.send(frames.error_frame(
                    "bad-token", "the token matches no seat of this game; say hello again with a seat's token, "
                    "or with token null to watch"))
                return "bad-token"
        async with self.lock:  # a consistent cut: nothing is broadcast between catch-up and joining
            if (await self.store.get_game(self.meta.game_id)).head != self.table.seq:
                await self._reload_or_give_up(self.table.seq)  # another process wrote meanwhile
            head = self.table.seq
            if connection.state is not ConnectionState.AWAITING_HELLO:
                return None  # evicted or timed out while waiting for the lock: nothing left to greet
            if frame.since > head:
                connection.send(frames.error_frame(
                    "bad-since", f"since {frame.since} is beyond the last seq {head} of this game"))
                return "bad-since"
            connection.seat, connection.token = seat, frame.token
            connection.transition(ConnectionState.GREETED)
            welcome = frames.encode(frames.Welcome(self.meta.game_id, self.game.name, seat, head, self.started,
                                                     self.seats, bundle.build_id()))
            joined = await self._snapshot_join(seat) if frame.snapshot and frame.since == 0 else None
            history = 0
            if joined is None:
                joined = self._frames_for(self.table.envelopes[frame.since :], seat)
            else:
                joined, history = joined
            if connection.send_batch([welcome] + joined):
                self.clients.add(connection)
                if history:  # the log before the snapshot follows, the event loop free between sends
                    task = asyncio.create_task(self._send_history(connection, history, seat))
                    self._history_tasks.add(task)
                    task.add_done_callback(self._history_tasks.discard)
        return None

    async def _snapshot_join(self, seat: str | None) -> tuple[list[str], int] | None:
        """A long game's join from a snapshot (issue 16, docs/protocol.md): the ``snapshot`` frame and
        the ``events`` frames after it, as ``seat`` may see them, and the snapshot's seq (the history
        to send after); None where the whole log goes as always: a game shorter than SNAPSHOT_EVERY,
        a log ``snapshots.joinable`` refuses, or no snapshot that hashes to its logged hash.

        The snapshot is the state in memory when it holds nothing outside its hash (its text is the
        one its hash was computed from), else the newest stored one (never one holding a secret)."""
        envelopes = self.table.envelopes
        if len(envelopes) < self.join_from:
            return None
        if not snapshots.holds_hidden(self.table.state):
            seq, text = len(envelopes), snapshots.encode_state(self.table.state)
        else:
            try:
                found = await self.store.get_snapshot(self.meta.game_id, len(envelopes))
            except StoreError as error:
                log.warning("game %s: no snapshot for a join: %s", self.meta.game_id, error)
                return None
            if found is None:
                return None
            seq, text = found
        if not 2 <= seq <= len(envelopes) or not snapshots.matches(text, envelopes[seq - 1].hash) \
                or not snapshots.joinable(envelopes, seq):
            return None
        start = self.frames_for(envelopes[:1], seat, bool(self.game.is_over(self.table.state)))
        if len(start) != 1:
            return None
        return [frames.snapshot_frame(seq, envelopes[seq - 1].hash, start[0], text)] + \
            self._frames_for(envelopes[seq:], seat), seq

    async def _send_history(self, connection: Connection, seq: int, seat: str | None) -> None:
        """The ``history`` frames of a snapshot join: the ``events`` frames of seqs 1 … ``seq``,
        HISTORY_FRAMES in each, HISTORY_PER_SEND per queued item (a 10,000-event log is ~5 items
        of a connection's SEND_QUEUE_LIMIT), yielding to other games between items."""
        over = bool(self.game.is_over(self.table.state))
        chunk: list[str] = []
        ready: list[str] = []
        batches = wire.frame_batches(self.table.envelopes[:seq])
        for index, batch in enumerate(batches):
            chunk.extend(self.frames_for(batch, seat, over))
            last = index == len(batches) - 1
            if len(chunk) >= HISTORY_FRAMES or (last and chunk):
                ready.append(frames.history_frame(chunk))
                chunk = []
            if len(ready) >= HISTORY_PER_SEND or (last and ready):
                if not connection.send_batch(ready):
                    return
                ready = []
                await asyncio.sleep(0)

    # --- the guard ladder -------------------------------------------------------------------------

    async def command(self, connection: Connection, frame: Command) -> str | None:
        """The guard ladder, then the answer sent; its code: None for an ack, ``rejected`` for the rules'
        refusal (which spends the seat's budget of refusals: ``server.limits.RefusalRate``), else the error's."""
        received = time.perf_counter()
        self.metrics.commands.inc()
        # 1. frame
        if connection.state is not ConnectionState.GREETED:
            self._refused("hello-first")
            connection.send(frames.error_frame("hello-first", "expected a hello frame before any command", frame.id))
            return "hello-first"
        if frame.id.startswith(BOT_PREFIX):
            self._refused("reserved-id")
            connection.send(frames.error_frame("reserved-id", f"$.id: command ids beginning {BOT_PREFIX!r} mark the "
                                               f"server's bots; got {frame.id!r}", frame.id))
            return "reserved-id"
        try:
            command = frames.build_command(self.game, frame)
        except FrameError as error:
            self._refused(error.code)
            connection.send(frames.error_frame(error.code, error.message, frame.id))
            return error.code
        # 2. token
        if connection.token is not None and seat_for_token(connection.token, self.meta.token_hashes) != connection.seat:
            self._refused("bad-token")
            connection.send(frames.error_frame("bad-token", f"the token no longer matches seat {connection.seat}",
                                               frame.id))
            return "bad-token"
        # 3. seat
        if connection.seat is None:
            self._refused("spectator")
            connection.send(frames.error_frame(
                "spectator", "spectators can only read: say hello with a seat's token to play", frame.id))
            return "spectator"
        async with self.lock:
            # 3b. the seat's undo requests (Limits.undos_per_seat): one identity test for any other command
            if type(command) is AskUndo and frame.id not in self.table.by_command:
                asked = self.undos_asked(connection.seat)
                if asked >= self.undos_per_seat:
                    self._refused("too-many-undos")
                    connection.send(frames.error_frame(
                        "too-many-undos", f"{connection.seat} asked {asked} undos in this game, the most this "
                        "server takes from one seat: play on (nothing was asked)", frame.id))
                    return "too-many-undos"
            reply, code = await self.answer(connection.seat, command, frame.id, received, connection)
        if reply is not None:  # None: the ack went in the events frame (wire.ACK_MARK)
            connection.send(reply)
        self.wake_bots()
        return code

    def undos_asked(self, seat: str) -> int:
        """The undo requests ``seat`` made in this game, read from its log (so a restart or another
        process counts the same): each is logged as an UndoAsked, whatever became of it (CORE-4, CORE-6)."""
        return sum(1 for request in self.table.undos.requests.values() if request.seat == seat)

    # --- chat (never folded: server/chat.py) ----------------------------------------------------------

    async def chat(self, connection: Connection, frame: Chat, rate: chat.ChatRate, limits: Limits) -> str | None:
        """Its own guard ladder: greeted, token, text, the socket's rate, the game's rate in the socket's
        channel, that channel's cap (each channel its own: nothing a spectator sends refuses a seat's line);
        then kept, then sent to the channel's sockets (the sender's copy is its acknowledgement). The code
        of the error the socket got, else None."""
        if connection.state is not ConnectionState.GREETED:
            connection.send(frames.error_frame("hello-first", "expected a hello frame before any chat message"))
            return "hello-first"
        if connection.token is not None and seat_for_token(connection.token, self.meta.token_hashes) != connection.seat:
            connection.send(frames.error_frame("bad-token", f"the token no longer matches seat {connection.seat}"))
            return "bad-token"
        try:
            text = chat.normalise(frame.text)
        except FrameError as error:
            connection.send(frames.error_frame(error.code, error.message))
            return error.code
        if not rate.allow():
            connection.send(frames.error_frame(
                "chat-rate-limited", f"more than {rate.per_minute} chat messages a minute (bursts of {rate.burst}) "
                f"on one connection: this one was not kept; try again in {rate.wait()} s"))
            return "chat-rate-limited"
        channel = chat.channel_of(connection.seat)
        game_rate = self.chat_rates.get(channel)
        if game_rate is None:
            game_rate = self.chat_rates[channel] = chat.ChatRate(limits.chat_game_per_minute,
                                                                 limits.chat_game_per_minute)
        if not game_rate.allow():
            connection.send(frames.error_frame(
                "chat-game-rate-limited", f"game {self.meta.game_id} took {limits.chat_game_per_minute} chat messages "
                f"in its {channel}' channel in the last minute, the limit of this server: this one was not kept; "
                f"try again in {game_rate.wait()} s"))
            return "chat-game-rate-limited"
        async with self.chat_lock:
            try:
                line = await self.store.add_chat(self.meta.game_id, channel, chat.author_of(connection.seat), text,
                                                 now(), cap=limits.chat_per_game)
            except StoreError as error:
                log.error("game %s: cannot keep a chat message: %s", self.meta.game_id, error)
                connection.send(frames.error_frame("store-unavailable", f"the chat message was not kept: {error}"))
                return "store-unavailable"
            if line is None:
                connection.send(frames.error_frame(
                    "chat-full", f"game {self.meta.game_id} has {limits.chat_per_game} chat messages in its {channel}' "
                    "channel, the most this server keeps for one channel of a game: this one was not kept"))
                return "chat-full"
            self._send_chat(line)
        return None

    def _send_chat(self, line: Any) -> None:
        """One message to the sockets of its channel, once per n (its own process's, or another's)."""
        self._chat_sent[line.n] = None
        while len(self._chat_sent) > CHAT_REMEMBERED:
            del self._chat_sent[next(iter(self._chat_sent))]
        out = chat.chat_frame(line)
        for client in list(self.clients):
            if chat.channel_of(client.seat) == line.channel and not client.send(out):
                self.clients.discard(client)

    def chat_heard(self, n: int) -> None:
        """Another process kept message ``n`` of this game (PostgreSQL NOTIFY): read it and send it on.

        Our own messages come back this way too; they were sent already. While the listener is
        down nothing is heard: a page gets what it missed in the history when it next joins."""
        if n in self._chat_sent:
            return
        task = asyncio.create_task(self._chat_fetch(n))
        self._chat_tasks.add(task)
        task.add_done_callback(self._chat_tasks.discard)

    async def _chat_fetch(self, n: int) -> None:
        async with self.chat_lock:  # after our own add_chat sent its line, if this one is ours
            if n in self._chat_sent or self.closed:
                return
            try:
                line = await self.store.chat_line(self.meta.game_id, n)
            except StoreError as error:
                log.warning("game %s: cannot read chat message %d another process announced: %s",
                            self.meta.game_id, n, error)
                return
            if line is not None:
                self._send_chat(line)

    async def chat_history(self, connection: Connection, limit: int) -> None:
        """After a successful hello: the newest ``limit`` messages of the socket's channel, if there are any.

        The socket already receives live messages, so one may come both live and in the history:
        the client keeps each ``n`` once."""
        channel = chat.channel_of(connection.seat)
        try:
            lines = await self.store.read_chat(self.meta.game_id, channel, limit)
        except StoreError as error:
            log.error("game %s: cannot read the chat: %s", self.meta.game_id, error)
            connection.send(frames.error_frame("store-unavailable", f"the chat history cannot be read: {error}"))
            return
        if lines:
            connection.send(chat.history_frame(channel, lines))

    def _refused(self, code: str) -> None:
        self.metrics.rejections.labels(code).inc()

    async def submit(self, seat: str, command: Any, command_id: str, received: float | None = None,
                     sender: Connection | None = None) -> str | None:
        """Rungs 4–5, the append and the broadcast, for a seat already checked; the sender's reply frame.

        The caller holds ``self.lock``. ``received`` (perf_counter) times command-to-broadcast. With
        ``sender``, its copy of the command's events frame may carry the ack (``wire.ACK_MARK``): then
        the reply is None, there is nothing more to send it (docs/protocol.md)."""
        return (await self.answer(seat, command, command_id, received, sender))[0]

    async def answer(self, seat: str, command: Any, command_id: str, received: float | None = None,
                     sender: Connection | None = None) -> tuple[str | None, str | None]:
        """``submit``'s reply frame, and its code: None for an ack, ``rejected`` for the rules' refusal,
        else the error's (``id-taken``, ``internal-error``, ``store-unavailable``)."""
        for _attempt in range(CONFLICT_RETRIES):
            # 4. repeated command id
            earlier = self.table.by_command.get(command_id)
            if earlier is not None:
                if earlier[0].seat != seat:
                    self._refused("id-taken")
                    return frames.error_frame("id-taken", f"command id {command_id!r} was already used by seat "
                                              f"{earlier[0].seat} in this game; ids must be unique per game",
                                              command_id), "id-taken"
                return frames.encode(frames.Ack(command_id, earlier[0].seq,
                                                self.table.caused_upto(earlier[-1].seq))), None
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
                                          f"{type(error).__name__}: {error}", command_id), "internal-error"
            if isinstance(result, Rejection):
                # A refusal must not rest on a stale state (another process may have moved on):
                # it costs one read, only when refusing.
                if (await self.store.get_game(self.meta.game_id)).head != head:
                    await self._reload_or_give_up(head)
                    continue
                self._refused("rejected")
                return frames.encode(frames.Rejected(
                    command_id, result.rule, result.reason, result.key,
                    {name: message_data(value) for name, value in result.params})), "rejected"
            logged = result.logged  # the command's envelopes, then SecretRevealed if it ended the game (CORE-2)
            dicts = [envelope.to_dict() for envelope in logged]  # built once: for the store, then the frames
            texts = [frames.encode_envelope(data) for data in dicts]
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
                return frames.error_frame("store-unavailable", f"the command was not stored: {error}",
                                          command_id), "store-unavailable"
            # Stored: only now does anyone hear of it.
            self._dicts = {envelope.seq: data for envelope, data in zip(logged, dicts)}
            acked = self._broadcast(logged, sender, command_id)
            if received is not None:
                self.metrics.latency.observe(time.perf_counter() - received)
            if self.table.seq >= snapshots.due_after(self.snapshot_seq) and not self.table.undos.any():
                await self._snapshot(before, logged)  # a game with undos takes no snapshots (snapshots.UndoInLog)
            if acked:
                return None, None
            return frames.encode(frames.Ack(command_id, result.envelopes[0].seq, logged[-1].seq)), None
        self._refused("store-unavailable")
        return frames.error_frame("store-unavailable", f"gave up after {CONFLICT_RETRIES} conflicting appends",
                                  command_id), "store-unavailable"

    # --- bots (issue 18) ----------------------------------------------------------------------------

    def wake_bots(self) -> None:
        """Let the bots play if one may act; one task per Room, which re-checks after each command."""
        if self.bots and not self.closed and (self._bot_task is None or self._bot_task.done()):
            self._bot_task = asyncio.create_task(self._play_bots())

    def bot_view(self, seat: str) -> Any:
        """The state folded from the envelopes ``seat`` may see (``Game.visible``), kept per bot seat."""
        seq, state = self._bot_views.get(seat, (0, None))
        fresh = self.table.envelopes[seq:]
        if any(is_undo_event(envelope.event) for envelope in fresh):  # CORE-4: refold what is still in play
            state, fresh = None, self.table.undos.effective
        for envelope in fresh:
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
                    agreeing = self._bot_yes()
                    if agreeing is not None:  # CORE-6, CORE-12: a bot answers an undo that waits for it
                        seat, command = agreeing
                        reply = await self.submit(seat, command, f"{BOT_PREFIX}{self.table.seq + 1}", time.perf_counter())
                        if json.loads(reply).get("type") != "ack":
                            log.error("game %s: bot %s's answer was not taken: %s", self.meta.game_id, seat, reply)
                            return
                        continue
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

    def _bot_yes(self) -> tuple | None:
        """(bot seat, its AnswerUndo) for the open undo request if it waits for a bot's answer, else None.

        A bot says yes to an undo of moves that drew nothing, so a person playing alone against bots can
        take a move back across theirs, and no to one across a draw or a reveal, which would be drawn
        anew (CORE-12, ``events.bots.answer_undo``)."""
        request = self.table.undos.open
        if request is None:
            return None
        for seat in request.needs:
            if seat in self.bots:
                answer = answer_undo(self.table, seat)
                if answer is not None:
                    command, why = answer
                    if why is not None:
                        log.info("game %s: bot %s says no to the undo asked at seq %s (%s: %s)", self.meta.game_id,
                                 seat, request.seq, why.rule, why.reason)
                    return seat, command
        return None

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
        """One stored row folded into the Table, its hash checked (``Table.absorb``)."""
        return self.table.absorb(frames.decode_envelope(self.game, item.envelope))

    def _broadcast(self, envelopes: list[Envelope], sender: Connection | None = None,
                   command_id: str | None = None) -> bool:
        """Every client gets the events frames of ``envelopes`` (one per command), as its seat may see
        them; True if ``sender``'s copy carried the ack of its command ``command_id`` (``_ack_fits``)."""
        if not self.clients or not envelopes:
            return False
        acked = False
        by_seat: dict = {}  # the frames of each seat (None: the spectators), cut once for all its sockets
        batches, over = wire.frame_batches(envelopes), bool(self.game.is_over(self.table.state))
        # Envelopes every seat may see in full (Game.visibility None, or the game over) go out alike
        # to everybody: one list of frames for all the sockets, not one per seat (issue 16).
        public = over or all([self.game.visibility(envelope.event) is None for envelope in envelopes])
        for client in list(self.clients):
            seat = None if public else client.seat
            if seat not in by_seat:
                by_seat[seat] = self._frames_for(envelopes, seat, batches, over)
            sent = by_seat[seat]
            if client is sender and not acked and self._ack_fits(sent, envelopes, client.seat, public, over, command_id):
                sent, acked = [sent[0][:-1] + wire.ACK_TAIL], True
            if not client.send_batch(sent):
                self.clients.discard(client)
        return acked

    def _ack_fits(self, sent: list, envelopes: list[Envelope], seat: str | None, public: bool, over: bool,
                  command_id: str | None) -> bool:
        """Whether the sender's frames can carry its ack (``wire.ACK_MARK``): one frame holding every
        envelope of the command as it is (none cut out or redacted for the sender), from its first,
        whose run names ``command_id``, to the last, so the reader's ``wire.frame_ack`` gives the plain
        ack's id, first and last."""
        if len(sent) != 1 or command_id is None or envelopes[0].command_id != command_id:
            return False
        return public or all([visible_to(self.game, envelope, seat, over) is envelope for envelope in envelopes])


def _who(seat: str | None) -> str:
    return "a spectator" if seat is None else f"seat {seat}"
