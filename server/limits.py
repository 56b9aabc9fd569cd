"""How much one client, one game and one server process may take, and the codes that say so.

Each bound is a number in ``Limits`` (``create_app(limits=...)``, ``CHRONICLE_*`` variables,
``chronicle serve`` options), each answered with a stable kebab-case code:

- ``max_frame_bytes``      — a client frame larger than this gets ``frame-too-large``; the socket stays open;
- ``commands_per_second``  — per connection, a token bucket refilled at this rate holding at most
  ``command_burst``; a command beyond it gets ``rate-limited`` (with its id) and is not applied;
- ``refusal_cost``         — tokens a command the rules refused spends of its seat's budget of refusals
  (``RefusalRate``: per game and seat in this process, over all the seat's sockets, a bucket like a
  connection's, ``commands_per_second`` tokens a second holding at most ``command_burst``; at most the
  whole burst); the budget may go that far below zero, and while it holds less than one token the
  seat's commands get ``rate-limited`` (see "Refusals" below);
- ``faults_per_minute``    — faulty frames one socket may send a minute (a bucket holding as many):
  ``FAULTS``, answers that cost the server little and can be asked again at once (a frame that does not
  decode, a hello refused, a command past the rate, a chat message refused before the game's own chat
  bounds). The first one past the bound is answered as always, then with ``too-many-faults``, and the
  socket is closed with 1008 (policy violation);
- ``whole_log_reads``      — requests that read and re-decide or refold a whole log (``/rules``,
  ``/audit``, ``/state``, an import's audit) this process takes in at once, waiting for their worker
  thread or working; one more is HTTP 503 ``too-busy`` with ``Retry-After`` before it reads anything
  (each holds its log while it waits: 100 queued ``/state`` of a 3,000-envelope log held ~420 MB);
- ``whole_log_reads_per_address`` — of those, the requests of one client address; one more is HTTP 429
  ``too-many-reads`` with ``Retry-After``, before it reads anything: a stranger asking audits of long
  games back to back fills 4 of the 16 places, and the others stay for everyone else;
- ``hello_timeout``        — seconds a socket may stay without a successful ``hello``; then it gets
  ``hello-timeout`` and is closed with 4010 (issue 12, finding 3);
- ``connections_per_game`` — sockets on one game that hold no seat (not yet greeted, or spectators) in
  this process. Seats never count: a newcomer beyond the bound first evicts the oldest socket of
  the game that has not said hello (``evicted``, close 4011); if every one of them has, the newcomer
  may still say hello with a seat's token, and only a spectator's hello gets ``too-many-connections``
  (close 1013, try again later);
- ``connections_per_address`` — the same bound and the same answers, counted per client address
  over every game of this process;
- ``connections_per_seat`` — sockets greeted with one seat's token; one more replaces that seat's
  oldest (``replaced``, close 4011; its page does not reconnect): a seat is never refused;
- ``games_per_server``     — games open (loaded in memory, somebody connected) in this process; a
  socket that would open one more first evicts a game where no seat is connected (its sockets get
  ``evicted``, close 4011), and only if every open game has a seat gets ``too-many-games`` (1013);
- ``room_linger``          — seconds a game stays in memory after its last socket left, so that a
  reconnection (a phone between two networks, a reload, a tab woken) finds it loaded: a load reads and
  decodes the whole log (~95 ms of CPU for 10,000 envelopes), a socket on a loaded game ~1.7 ms. A
  lingering game has no seat connected, so it is the first evicted at ``games_per_server``;
- ``opens_per_minute``     — sockets one client address may open a minute (a token bucket holding as
  many, ``OpenRate``): each costs one token; loading a game that was not in memory one more per
  ``LOAD_ENVELOPES_PER_OPEN`` envelopes of its log, and the catch-up sent after a hello one more per
  ``CATCH_UP_ENVELOPES_PER_OPEN``, each spent before the work or refused. A seat's token always
  gets in: what its address cannot pay is paid by the seat's own opens (a tenth as many, per game and
  seat, ``SEAT_OPENS_SHARE``, at least 3): its catch-up, and a socket whose open or load's share the
  address cannot pay has its first frame read before its game is loaded; a hello with a seat's token
  goes on, paid by the seat, anything else gets ``too-many-opens`` and is closed with 1013 (try again
  later). At most 64 sockets of an address wait so; one more evicts one at random (see "Opening
  sockets" below);
- ``games_per_minute``     — games one client address may create per minute (a token bucket holding
  as many); one more is HTTP 429 ``too-many-creations`` with ``Retry-After``;
- ``open_games``           — games in the store that are not over; creating one more is HTTP 503
  ``too-many-open-games`` with ``Retry-After``;
- ``open_games_per_address`` — of those, games created by one client address (an IPv6 one by its /64);
  creating one more from it is HTTP 429 ``too-many-open-games-per-address`` with ``Retry-After``;
- ``idle_hours``           — a game nobody moved (no command appended, nor its creation) for that many
  hours does not count in either: nothing of it changes, it can still be joined and played, and it
  counts again when it moves (docs/bounds.md, "Open games");
- ``chat_per_minute``, ``chat_burst`` — chat messages one socket may send (a token bucket refilled at
  ``chat_per_minute`` a minute, holding ``chat_burst``); one more gets ``chat-rate-limited`` and is not kept;
- ``chat_game_per_minute`` — chat messages one channel of a game (the seats', the spectators') may take a
  minute from all its sockets in this process (a bucket holding as many, one per channel, so spectators
  never spend the seats'); one more gets ``chat-game-rate-limited``;
- ``chat_history``         — chat messages of its channel a socket gets after its hello (the newest);
- ``chat_per_game``        — chat messages a game keeps in each of its channels; one more gets ``chat-full``;
- ``undos_per_seat``       — undo requests (``AskUndo``, CORE-4) one seat may make in one game, counted from
  its log; one more gets ``too-many-undos`` (docs/bounds.md, "Undos").

The defaults are far above what a table of people does (a person clicks a few times a second) and
low enough that one client cannot take a server down.

Refusals (issue 16, "Trust"): a refused command changes nothing, so the same frame can be sent again
and again, and the dearest refusal measured costs ~6 ms of the loop's CPU (a Move into a pit on
``bench.decide``'s largest skirmish map, 40 x 40 with 32 figures of speed 40, refused under SK-5
after the whole movement search: 5.5-6.0 ms; ``python -m bench.costs --floods``). At one token of
the connection's bucket each, one socket took a whole core (97 % for 5 s, 900 refusals). At
``refusal_cost`` 40 a seat gets 5 refusals a second after a burst of 10: at most ~30 ms of CPU a
second, 3 % of one core (~60 ms for the burst), however many sockets it opens, one after another or
at once (measured: 25 refusals in 5 s from 1,206 sockets). The budget is the seat's, not the
connection's, because a new socket's bucket starts full: per connection, a stranger reconnecting in
a loop would get 10 refusals a socket. A person misclicking a few times a minute spends 40 of 400 tokens
each time, back in 0.2 s; the server's bots never go through these buckets (``Room.submit``), and the
benches' players send only commands their folded state says are legal.

Faults: a frame answered without reaching the rules costs 0.02-0.15 ms (not JSON, 32-deep
nesting, ``bad-since``, ``bad-token``), and nothing counted them: ~20,000 a second would take a
core. ``rate-limited`` is one of them, or a flood of refused commands would go on as a flood of
rate-limited answers (25,000 a second, 46 % of a core, when only refusals were counted); an answer
past a rate (``rate-limited``, ``chat-rate-limited``) costs a tenth of a fault (``PAST_RATE``, ``TENTHS``),
since a person typing chat a line a second meets 30 of them a minute and must not be closed. 20 a
minute is ~3 ms of CPU a minute per socket, and a page never sends the others.

Opening sockets: opening one, its hello and its close cost ~1.7 ms here on a game in memory, and a
game that is not in memory is loaded first (its log read, decoded and folded: ~95 ms for 10,000
envelopes). Before ``room_linger`` a game left memory with its last socket, so a stranger reconnecting
in a loop to a long game took most of a core. Now the game stays loaded for ``room_linger`` seconds,
and ``opens_per_minute`` bounds one address: 600 a minute is 10 a second sustained, ~1.7 % of a core
on loaded games, and a load of a long game costs as many opens as its CPU is worth (1 per 250
envelopes: ~2.4 ms each), so loading one long game after another is bounded the same way. So is a
hello from seq 0 on a long game, which sends the whole log (~17 ms of CPU for 10,000 envelopes, a
snapshot's join its history after): one more per 1,000 envelopes sent. Both are spent before the
work (``Payer``): spent after, sockets opened at once on many long games each started a load first
(40 loads at once held the loop 5 s in review). A page opens one socket and reconnects at most every
4 s after failures (``client/net.py``): a class of 30 behind one address joining a 10,000-envelope
game from seq 0 spends 370 (its load once, then 11 a page). An IPv6 client is counted by its /64
(``client_key``). Behind a proxy the address is the proxy's unless uvicorn trusts its
``X-Forwarded-For`` (the variable ``FORWARDED_ALLOW_IPS``, ``127.0.0.1,::1`` by default: a proxy on the same
host).
"""

from __future__ import annotations

import contextlib
import ipaddress
import math
import os
import time
from collections.abc import Callable, Iterator, Mapping

DEFAULT_MAX_FRAME_BYTES = 8 * 1024  # a command is ~100 bytes; anything near this is a mistake or abuse
# Above this uvicorn closes the socket (1009) without reading the frame, and websockets stops inflating a
# compressed one there (a 1 KB frame inflating to 1 MiB cost 2.2-2.6 ms of CPU at 1 MiB): 8 times the largest
# client frame (max_frame_bytes); scenarios and imported logs go over HTTP (1 MiB bodies), never the socket.
WS_MAX_BYTES = 64 * 1024
# A person clicks a few times a second; a bot or a bench on loopback may send ~150 per second on
# one socket (one command in flight per game). 200 keeps both working while one connection can
# take only a fraction of a core.
DEFAULT_COMMANDS_PER_SECOND = 200
DEFAULT_COMMAND_BURST = 400
# A refused command is as dear as the rules make it (up to ~6 ms, see above), and is refused again if
# sent again: 40 tokens each lets one seat cost the loop at most 5 refusals a second (RefusalRate).
DEFAULT_REFUSAL_COST = 40
DEFAULT_FAULTS_PER_MINUTE = 20  # a page never sends a faulty frame; a client being written may, a few
DEFAULT_WHOLE_LOG_READS = 16  # one works at a time (audits.AUDITS_AT_ONCE, api.FOLDS_AT_ONCE); a page asks one
DEFAULT_WHOLE_LOG_READS_PER_ADDRESS = 4  # of those, one client address's: a stranger cannot queue them all
DEFAULT_CONNECTIONS_PER_GAME = 64
DEFAULT_GAMES_PER_SERVER = 10_000
DEFAULT_HELLO_TIMEOUT = 10  # seconds; a page says hello within milliseconds of opening its socket
# A classroom behind one NAT address, or the bench's 1,000 spectators on loopback, fit under it.
DEFAULT_CONNECTIONS_PER_ADDRESS = 1024
DEFAULT_CONNECTIONS_PER_SEAT = 8  # tabs and devices of one player
DEFAULT_ROOM_LINGER = 60  # seconds; a phone's reconnection or a reload comes back within a few
DEFAULT_OPENS_PER_MINUTE = 600  # sockets one address opens; a page opens one, and reconnects at most every 4 s
LOAD_ENVELOPES_PER_OPEN = 250  # a load costs one open more per this many envelopes (~2.4 ms of CPU, as ~1.4 opens)
CATCH_UP_ENVELOPES_PER_OPEN = 1000  # a catch-up sent costs one more per this many (~1.7 ms of CPU, as one open)
# Past its address's opens a seat's socket spends the seat's own, a tenth as many (60 a minute): a player's
# page reconnects at most every 4 s, while a stranger holding the seats of the games it created (30 a
# minute) must not get an address's worth of opens with each of them.
SEAT_OPENS_SHARE = 10
DEFAULT_GAMES_PER_MINUTE = 30  # a person creates a game or two; a test suite a few dozen
DEFAULT_OPEN_GAMES = 100_000
# Open games one client address may hold (gamebounds): a class of 30 behind one address, each with a game
# or two, fits; one stranger fills a thousandth of open_games, and needs 1,000 addresses (IPv6: /64s) for all.
DEFAULT_OPEN_GAMES_PER_ADDRESS = 100
# Hours after which a game nobody moved stops counting as open (its log untouched: it counts again when it
# moves). An evening's game left for the night still counts the next morning; one abandoned frees its place.
DEFAULT_IDLE_HOURS = 12
# Chat (server/chat.py): a person types a line every few seconds at most.
DEFAULT_CHAT_PER_MINUTE = 30
DEFAULT_CHAT_BURST = 5
DEFAULT_CHAT_GAME_PER_MINUTE = 120  # a lively table of eight and its spectators
DEFAULT_CHAT_HISTORY = 50
DEFAULT_CHAT_PER_GAME = 10_000  # ~5 MB of text at most per game
# Undo requests (AskUndo, CORE-4) one seat may make in one game: a take-back is for a misclick, and the
# longest games played here are a few hundred commands a seat, so even a seat taking back every other
# command stays under; a seat looping Move and its own free undo (3 envelopes a cycle, the rounds never
# advancing) grows its log by at most ~600 envelopes plus what 200 undos may take back (16 commands each).
DEFAULT_UNDOS_PER_SEAT = 200
# Below the application (server/wsprotocol.py, server/httpprotocol.py; docs/bounds.md, "Below the application").
# A page sends a few frames a second and never a ping; a bench's seat on loopback ~150-1,500 commands a second.
DEFAULT_WS_FRAMES_PER_SECOND = 2000  # frames of any kind one socket may send a second, bursts of twice as many
WS_FRAME_BURST_SECONDS = 2
# What the server wrote on a socket's behalf (pongs, close replies) and the socket did not read, while its
# transport's buffer was over the high-water mark: the server's own frames wait for the socket, these did not.
DEFAULT_WS_WRITE_BUFFER_BYTES = 1024 * 1024
# A TCP connection's request head (server/httpprotocol.py): a browser sends its whole head at once, in
# milliseconds; a slow phone link on a bad day in a second or two. Above uvicorn's keep-alive (5 s), which
# still closes a connection idle between requests first.
DEFAULT_HEAD_TIMEOUT = 10
# TCP connections one client address holds open, HTTP and WebSocket alike: a browser opens at most 6 per
# host over HTTP/1.1 and one socket per tab, so a class of 30 behind one address loading pages at once holds
# ~210; twice that and more. 0: no cap (behind a reverse proxy, where every connection is the proxy's).
DEFAULT_TCP_CONNECTIONS_PER_ADDRESS = 512
ZERO_MEANS_NONE = frozenset({"tcp_connections_per_address"})  # settings for which 0 is allowed: no bound

# name in Limits, environment variable, command-line option, what it bounds
SETTINGS = (
    ("max_frame_bytes", "CHRONICLE_MAX_FRAME_BYTES", "--max-frame-bytes", "bytes in one client frame"),
    ("commands_per_second", "CHRONICLE_COMMANDS_PER_SECOND", "--commands-per-second",
     "commands per second one connection may sustain"),
    ("command_burst", "CHRONICLE_COMMAND_BURST", "--command-burst", "commands one connection may send at once"),
    ("refusal_cost", "CHRONICLE_REFUSAL_COST", "--refusal-cost",
     "commands' worth of its seat's rate one command the rules refused spends"),
    ("faults_per_minute", "CHRONICLE_FAULTS_PER_MINUTE", "--faults-per-minute",
     "faulty frames one socket may send a minute before it is closed"),
    ("whole_log_reads", "CHRONICLE_WHOLE_LOG_READS", "--whole-log-reads",
     "requests re-deciding or refolding a whole log taken in at once"),
    ("whole_log_reads_per_address", "CHRONICLE_WHOLE_LOG_READS_PER_ADDRESS", "--whole-log-reads-per-address",
     "of those, requests of one client address"),
    ("connections_per_game", "CHRONICLE_CONNECTIONS_PER_GAME", "--connections-per-game",
     "sockets on one game in this process"),
    ("games_per_server", "CHRONICLE_GAMES_PER_SERVER", "--games-per-server", "games open at once in this process"),
    ("hello_timeout", "CHRONICLE_HELLO_TIMEOUT", "--hello-timeout", "seconds a socket may wait before its hello"),
    ("connections_per_address", "CHRONICLE_CONNECTIONS_PER_ADDRESS", "--connections-per-address",
     "sockets without a seat from one client address in this process"),
    ("connections_per_seat", "CHRONICLE_CONNECTIONS_PER_SEAT", "--connections-per-seat",
     "sockets greeted with one seat's token"),
    ("room_linger", "CHRONICLE_ROOM_LINGER", "--room-linger",
     "seconds a game stays in memory after its last socket left"),
    ("opens_per_minute", "CHRONICLE_OPENS_PER_MINUTE", "--opens-per-minute",
     "sockets one client address may open a minute (a load of a long game counts as more)"),
    ("games_per_minute", "CHRONICLE_GAMES_PER_MINUTE", "--games-per-minute", "games one client address may create per minute"),
    ("open_games", "CHRONICLE_OPEN_GAMES", "--open-games", "games not over in the store"),
    ("open_games_per_address", "CHRONICLE_OPEN_GAMES_PER_ADDRESS", "--open-games-per-address",
     "games not over in the store created by one client address"),
    ("idle_hours", "CHRONICLE_IDLE_HOURS", "--idle-hours",
     "hours after which a game nobody moved stops counting as open"),
    ("chat_per_minute", "CHRONICLE_CHAT_PER_MINUTE", "--chat-per-minute", "chat messages per minute from one socket"),
    ("chat_burst", "CHRONICLE_CHAT_BURST", "--chat-burst", "chat messages one socket may send at once"),
    ("chat_game_per_minute", "CHRONICLE_CHAT_GAME_PER_MINUTE", "--chat-game-per-minute",
     "chat messages per minute in one game"),
    ("chat_history", "CHRONICLE_CHAT_HISTORY", "--chat-history", "chat messages sent to a socket after its hello"),
    ("chat_per_game", "CHRONICLE_CHAT_PER_GAME", "--chat-per-game", "chat messages kept per game"),
    ("undos_per_seat", "CHRONICLE_UNDOS_PER_SEAT", "--undos-per-seat", "undo requests one seat may make in one game"),
    # below the application: uvicorn's protocols (server/wsprotocol.py)
    ("ws_frames_per_second", "CHRONICLE_WS_FRAMES_PER_SECOND", "--ws-frames-per-second",
     "WebSocket frames (pings, continuations, data) one socket may send a second, bursts of twice as many"),
    ("ws_write_buffer_bytes", "CHRONICLE_WS_WRITE_BUFFER_BYTES", "--ws-write-buffer-bytes",
     "bytes of replies to a socket's own frames (pongs) left unread past the transport's high-water mark"),
    ("head_timeout", "CHRONICLE_HEAD_TIMEOUT", "--head-timeout",
     "seconds a TCP connection may take to send a complete request head (from its open or its last response)"),
    ("tcp_connections_per_address", "CHRONICLE_TCP_CONNECTIONS_PER_ADDRESS", "--tcp-connections-per-address",
     "TCP connections (HTTP and WebSocket) one client address may hold open (0: no cap, behind a reverse proxy)"),
)


class LimitReached(Exception):
    """A bound was hit: the stable code and the fact, for an error frame or an HTTP error."""

    def __init__(self, code: str, message: str) -> None:
        Exception.__init__(self, message)
        self.code = code
        self.message = message


class Limits:
    __slots__ = tuple(name for name, *_ in SETTINGS)

    def __init__(
        self, *, max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
        commands_per_second: int = DEFAULT_COMMANDS_PER_SECOND, command_burst: int = DEFAULT_COMMAND_BURST,
        refusal_cost: int = DEFAULT_REFUSAL_COST, faults_per_minute: int = DEFAULT_FAULTS_PER_MINUTE,
        whole_log_reads: int = DEFAULT_WHOLE_LOG_READS,
        whole_log_reads_per_address: int = DEFAULT_WHOLE_LOG_READS_PER_ADDRESS,
        connections_per_game: int = DEFAULT_CONNECTIONS_PER_GAME, games_per_server: int = DEFAULT_GAMES_PER_SERVER,
        hello_timeout: int = DEFAULT_HELLO_TIMEOUT, connections_per_address: int = DEFAULT_CONNECTIONS_PER_ADDRESS,
        connections_per_seat: int = DEFAULT_CONNECTIONS_PER_SEAT, room_linger: int = DEFAULT_ROOM_LINGER,
        opens_per_minute: int = DEFAULT_OPENS_PER_MINUTE, games_per_minute: int = DEFAULT_GAMES_PER_MINUTE,
        open_games: int = DEFAULT_OPEN_GAMES, chat_per_minute: int = DEFAULT_CHAT_PER_MINUTE,
        chat_burst: int = DEFAULT_CHAT_BURST, chat_game_per_minute: int = DEFAULT_CHAT_GAME_PER_MINUTE,
        chat_history: int = DEFAULT_CHAT_HISTORY, chat_per_game: int = DEFAULT_CHAT_PER_GAME,
        undos_per_seat: int = DEFAULT_UNDOS_PER_SEAT, open_games_per_address: int = DEFAULT_OPEN_GAMES_PER_ADDRESS,
        idle_hours: int = DEFAULT_IDLE_HOURS,
        ws_frames_per_second: int = DEFAULT_WS_FRAMES_PER_SECOND,
        ws_write_buffer_bytes: int = DEFAULT_WS_WRITE_BUFFER_BYTES, head_timeout: int = DEFAULT_HEAD_TIMEOUT,
        tcp_connections_per_address: int = DEFAULT_TCP_CONNECTIONS_PER_ADDRESS,
    ) -> None:
        self.max_frame_bytes = max_frame_bytes
        self.commands_per_second = commands_per_second
        self.command_burst = command_burst
        self.refusal_cost = refusal_cost
        self.faults_per_minute = faults_per_minute
        self.whole_log_reads = whole_log_reads
        self.whole_log_reads_per_address = whole_log_reads_per_address
        self.connections_per_game = connections_per_game
        self.games_per_server = games_per_server
        self.hello_timeout = hello_timeout
        self.connections_per_address = connections_per_address
        self.connections_per_seat = connections_per_seat
        self.room_linger = room_linger
        self.opens_per_minute = opens_per_minute
        self.games_per_minute = games_per_minute
        self.open_games = open_games
        self.chat_per_minute = chat_per_minute
        self.chat_burst = chat_burst
        self.chat_game_per_minute = chat_game_per_minute
        self.chat_history = chat_history
        self.chat_per_game = chat_per_game
        self.undos_per_seat = undos_per_seat
        self.open_games_per_address = open_games_per_address
        self.idle_hours = idle_hours
        self.ws_frames_per_second = ws_frames_per_second
        self.ws_write_buffer_bytes = ws_write_buffer_bytes
        self.head_timeout = head_timeout
        self.tcp_connections_per_address = tcp_connections_per_address
        for name, *_ in SETTINGS:
            value = getattr(self, name)
            least = 0 if name in ZERO_MEANS_NONE else 1
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                what = "a positive integer" + (" or 0 (none)" if least == 0 else "")
                raise ValueError(f"{name}: expected {what}, got {value!r}")
        if max_frame_bytes > WS_MAX_BYTES:
            raise ValueError(f"max_frame_bytes: expected at most {WS_MAX_BYTES} (the WebSocket's own bound), "
                             f"got {max_frame_bytes}")

    def __repr__(self) -> str:
        return "Limits(" + ", ".join(f"{name}={getattr(self, name)}" for name, *_ in SETTINGS) + ")"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Limits):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name, *_ in SETTINGS)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ, **given: int | None) -> Limits:
        """Explicit values (``given``, None meaning unset) over ``CHRONICLE_*`` variables over the defaults."""
        values = {}
        for name, variable, *_ in SETTINGS:
            if given.get(name) is not None:
                values[name] = given[name]
            elif environ.get(variable):
                raw = environ[variable]
                if not raw.strip().isdigit():
                    raise ValueError(f"{variable}: expected a positive integer, got {raw!r}")
                values[name] = int(raw)
        return cls(**values)


class TokenBucket:
    """``amount`` tokens every ``seconds``, at most ``burst`` kept: ``allow()`` spends one, or is False
    when none is left (the commands of a connection, the chat of a seat and of a game)."""

    __slots__ = ("amount", "seconds", "burst", "tokens", "last", "clock")

    def __init__(self, amount: int, seconds: int, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.amount = amount
        self.seconds = seconds
        self.burst = burst
        self.tokens = float(burst)
        self.clock = clock
        self.last = clock()

    def allow(self, cost: float = 1) -> bool:
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.last) * self.amount / self.seconds)
        self.last = now
        if self.tokens < cost:
            return False
        self.tokens -= cost
        return True


class CommandRate(TokenBucket):
    """One connection's token bucket: ``allow()`` is False once it sent more than the limits let it."""

    __slots__ = ()

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        TokenBucket.__init__(self, limits.commands_per_second, 1, limits.command_burst, clock)

    def refusal(self) -> str:
        return (f"more than {self.amount} commands per second (bursts of {self.burst}) on one connection: "
                f"this command was not applied; resend it with the same id")


class RefusalRate:
    """Commands the rules refused, per game and seat in this process: a bucket like a connection's
    (``commands_per_second`` tokens a second, ``command_burst`` at most) from which a refusal spends
    ``refusal_cost`` (at most the whole burst), down to below zero.

    ``allow(game, seat)`` is False while the seat's bucket holds less than one token: its next command,
    accepted or not, is ``rate-limited``. So the seat's refusals are ``commands_per_second / cost`` a second
    at most (after a burst of ``command_burst / cost``), however many sockets it opens or reopens: a
    connection's own bucket starts full, this one does not. Seats whose bucket is full again are
    forgotten, so the table holds only recent refusers.
    """

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = limits.commands_per_second
        self.burst = limits.command_burst
        self.cost = min(limits.refusal_cost, limits.command_burst)
        self.clock = clock
        self.buckets: dict[tuple[str, str], tuple[float, float]] = {}  # (game, seat) -> (tokens, when)
        self.sweep_at = 4096

    def tokens(self, game: str, seat: str) -> float:
        held, when = self.buckets.get((game, seat), (float(self.burst), self.clock()))
        return min(float(self.burst), held + (self.clock() - when) * self.rate)

    def allow(self, game: str, seat: str) -> bool:
        return (game, seat) not in self.buckets or self.tokens(game, seat) >= 1

    def refused(self, game: str, seat: str) -> None:
        now = self.clock()
        self.buckets[(game, seat)] = (self.tokens(game, seat) - self.cost, now)
        if len(self.buckets) > self.sweep_at:  # forget the seats that are back to a full bucket
            full = [key for key, (held, when) in self.buckets.items() if held + (now - when) * self.rate >= self.burst]
            for key in full:
                del self.buckets[key]
            self.sweep_at = max(AddressRate.SWEEP_FROM, 2 * len(self.buckets))  # each entry swept once, as there

    def refusal(self, seat: str) -> str:
        return (f"seat {seat} sent more commands the rules refused than this server takes (each counts as "
                f"{self.cost} of the {self.rate} commands a second, bursts of {self.burst}): this command was not "
                f"applied; resend it with the same id in {max(1, math.ceil(1000 * self.cost / self.rate))} ms")


# The answers that count as faults (``FaultRate``), each cheap to send again at once: a frame that does
# not decode, a hello refused, a command or chat message past its rate, chat refused before its rate.
# Not the rules' refusals (``RefusalRate``), nor the command ladder's other answers (each command spent a
# token of its connection's bucket already), nor the game's chat bounds (others' doing).
FAULTS = frozenset({"bad-frame", "frame-too-large", "unknown-frame", "bad-token", "bad-since", "already-greeted",
                    "rate-limited", "hello-first", "chat-empty", "chat-too-long", "chat-control-character",
                    "chat-rate-limited"})
# What an answer past a rate costs of the fault bound: a tenth. A person typing chat faster than its
# rate (one line a second makes 30 of them a minute), or two tabs of a seat racing, meets a few a
# minute and is never closed; a machine sending on past its rate is, after ten times
# ``faults_per_minute`` of them (200 at the defaults, a few milliseconds of a flood).
PAST_RATE = frozenset({"rate-limited", "chat-rate-limited"})
TENTHS = 10  # the bound counts tenths of a fault, in whole tokens: a fault spends 10, an answer past a rate 1


class FaultRate(TokenBucket):
    """One socket's faulty frames (``faults_per_minute`` a minute, as many at once): ``allow()`` is False
    for the first one past the bound, and the socket is then closed (``too-many-faults``, 1008). An
    answer past a rate (``PAST_RATE``) spends a tenth of a fault (``spend``; the bucket counts tenths)."""

    __slots__ = ()

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        tenths = limits.faults_per_minute * TENTHS
        TokenBucket.__init__(self, tenths, 60, tenths, clock)

    def spend(self, code: str) -> bool:
        """Count the fault ``code``: False when it is the one past the bound."""
        return self.allow(1 if code in PAST_RATE else TENTHS)

    def refusal(self) -> str:
        return (f"more than {self.amount // TENTHS} faulty frames a minute on one socket (frames that do not decode, "
                f"hellos refused; answers past a rate count a tenth each): closing it (1008, policy violation)")


class AddressRate:
    """A token bucket per client address, ``per_minute`` deep, refilled at ``per_minute`` a minute.

    ``take`` spends ``cost`` tokens when that many are there (a cost above ``per_minute`` asks a full
    bucket). Addresses whose bucket is full again are forgotten, so the table holds only recent ones;
    the table is swept when it has doubled since the last sweep, so a sweep costs each entry once.
    """

    SWEEP_FROM = 4096

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)
        self.sweep_at = self.SWEEP_FROM

    def _tokens(self, address: str, now: float) -> float:
        tokens, last = self.buckets.get(address, (float(self.per_minute), now))
        return min(float(self.per_minute), tokens + (now - last) * self.per_minute / 60)

    def take(self, address: str, cost: int = 1) -> int:
        """0 if ``address`` may spend ``cost`` now (and it is counted), else the whole seconds to wait."""
        now = self.clock()
        tokens = self._tokens(address, now)
        cost = min(cost, self.per_minute)
        if tokens < cost:
            self.buckets[address] = (tokens, now)
            return max(1, math.ceil((cost - tokens) * 60 / self.per_minute))
        self.buckets[address] = (tokens - cost, now)
        if len(self.buckets) > self.sweep_at:  # forget the addresses that are back to a full bucket
            full = [key for key in self.buckets if self._tokens(key, now) >= self.per_minute]
            for key in full:
                del self.buckets[key]
            self.sweep_at = max(self.SWEEP_FROM, 2 * len(self.buckets))
        return 0


class CreationRate(AddressRate):
    """Games created per client address: ``games_per_minute`` a minute, as many at once."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        AddressRate.__init__(self, limits.games_per_minute, clock)

    def refusal(self, wait: int) -> str:
        return (f"this address created {self.per_minute} games in the last minute, the limit of this server: "
                f"try again in {wait} s")


class OpenRate(AddressRate):
    """Sockets opened per client address: ``opens_per_minute`` a minute (divided by ``share``), as many
    at once; what a socket costs beyond its open is spent through a ``Payer``."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic, share: int = 1,
                 least: int = 1) -> None:
        # ``least`` 3 for a seat's: an open, a load and a catch-up of one each, never free (``Payer.spend``)
        AddressRate.__init__(self, max(least, limits.opens_per_minute // share), clock)

    def refusal(self, who: str, wait: int) -> str:
        """Why a socket of ``who`` (``address 1.2.3.4``, ``seat red of game g-…``) was refused."""
        return (f"{who} opened more sockets than this server takes ({self.per_minute} a minute, a load of a long "
                f"game counting one more per {LOAD_ENVELOPES_PER_OPEN} envelopes, a catch-up one more per "
                f"{CATCH_UP_ENVELOPES_PER_OPEN}): try again in {wait} s")


class Payer:
    """Whose opens a socket spends (its address's, or past them its seat's: ``rate`` and ``key``), and how
    the refusal names it (``who``). ``spend(envelopes, per)`` takes one open per ``per`` envelopes before
    the work is done (a load, a catch-up), or raises ``LimitReached("too-many-opens")``: charged after,
    a burst of sockets at once would all be let in first."""

    __slots__ = ("rate", "key", "who")

    def __init__(self, rate: OpenRate, key: str, who: str) -> None:
        self.rate = rate
        self.key = key
        self.who = who

    def open(self) -> None:
        """A socket's open: one token, or ``LimitReached("too-many-opens")``."""
        self._take(1)

    def spend(self, envelopes: int, per: int) -> None:
        """A load's or a catch-up's share, after the socket's open: each at most half of a full bucket less
        that open, so that a socket on the longest game can still open, load it and catch up on a full one."""
        cost = min(envelopes // per, (self.rate.per_minute - 1) // 2)
        if cost > 0:
            self._take(cost)

    def _take(self, cost: int) -> None:
        wait = self.rate.take(self.key, cost)
        if wait:
            raise LimitReached("too-many-opens", self.rate.refusal(self.who, wait))


def client_key(host: str) -> str:
    """The key of a client address in the per-address bounds: an IPv6 address by its /64 (one machine or
    one home network is given a whole /64), an IPv4-mapped one as IPv4, anything else as it is."""
    try:
        found = ipaddress.ip_address(host)
    except ValueError:
        return host
    if found.version == 6:
        if found.ipv4_mapped is not None:
            return str(found.ipv4_mapped)
        return str(ipaddress.ip_network(f"{found}/64", strict=False))
    return host


class Admission:
    """The requests of one kind a process has taken in at once, at most ``most``, and at most
    ``per_address`` of one client address: ``admitted()`` counts one in for as long as it lasts, or
    raises ``LimitReached("too-many-reads")`` when its address has ``per_address`` in (so one stranger
    cannot take every place), else ``LimitReached("too-busy")`` when ``most`` are in."""

    __slots__ = ("most", "inside", "per_address", "by_address")

    def __init__(self, most: int, per_address: int | None = None) -> None:
        self.most = most
        self.inside = 0
        self.per_address = most if per_address is None else per_address
        self.by_address: dict[str, int] = {}

    @contextlib.contextmanager
    def admitted(self, what: str, address: str = "unknown") -> Iterator[None]:
        mine = self.by_address.get(address, 0)
        if mine >= self.per_address:
            raise LimitReached("too-many-reads", f"address {address} has {mine} requests that read a whole log "
                               f"({what} among them) being worked out, its limit: ask again once they are answered")
        if self.inside >= self.most:
            raise LimitReached("too-busy", f"this server is working out {self.most} requests that read a whole "
                               f"log ({what} among them), its limit: try again in a few seconds")
        self.inside += 1
        self.by_address[address] = mine + 1
        try:
            yield
        finally:
            self.inside -= 1
            self.by_address[address] -= 1
            if not self.by_address[address]:
                del self.by_address[address]


_from_env: list = []  # the Limits of CHRONICLE_* variables, read once (uvicorn's protocols, run without chronicle serve)


def limits_from_env_once() -> Limits:
    """``Limits.from_env()``, read at its first call and kept: the bounds of uvicorn's protocols
    (server/wsprotocol.py, server/httpprotocol.py) when uvicorn's command line runs them, which gives them
    no ``Limits`` (``chronicle serve`` gives its own, ``FrameProtocol.with_limits``, ``HeadBoundProtocol.with_limits``)."""
    if not _from_env:
        _from_env.append(Limits.from_env())
    return _from_env[0]
