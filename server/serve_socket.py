"""One WebSocket's whole life, from its upgrade to its close: the loop that reads its frames.

``serve_socket`` checks the page's origin (``Rooms.origin_allowed``) before the upgrade, enters
the game's Room (``server/rooms.py``), admits the socket among the game's and its address's
sockets, enforces the hello deadline, the command rate (and its seat's budget of commands the
rules refused: ``Rooms.refusals``) and the bound on faulty frames (``too-many-faults``, close 1008),
and hands hellos, commands and chat messages to the Room (``server/room.py``), whose guard ladders
answer them.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from typing import Any

from starlette.websockets import WebSocket

from server import frames
from server.chat import ChatRate
from server.connection import (
    CLOSE_FORBIDDEN_ORIGIN,
    CLOSE_HELLO_TIMEOUT,
    CLOSE_NO_SUCH_GAME,
    CLOSE_POLICY_VIOLATION,
    CLOSE_SERVER_ERROR,
    CLOSE_TRY_AGAIN_LATER,
    SEND_QUEUE_LIMIT,
    Connection,
    ConnectionState,
    next_order,
)
from server.frames import Chat, FrameError, Hello
from server.limits import CATCH_UP_ENVELOPES_PER_OPEN, FAULTS, CommandRate, FaultRate, LimitReached, Payer, client_key
from server.rooms import Rooms
from server.store import StoreError, UnknownGame
from server.tokens import seat_for_token

log = logging.getLogger("chronicle.room")


async def serve_socket(websocket: WebSocket, rooms: Rooms, queue_limit: int = SEND_QUEUE_LIMIT) -> None:
    """A WebSocket's whole life: check its origin, accept, find the room, read frames until it closes.

    A socket that has not said hello successfully within ``hello_timeout`` seconds of its
    upgrade gets ``hello-timeout`` and is closed with 4010, whatever it sent meanwhile. One that sent
    more than ``faults_per_minute`` faulty frames (``server.limits.FAULTS``) gets ``too-many-faults``
    after the answer to the last one and is closed with 1008.
    """
    game_id = websocket.path_params["game_id"]
    origin = websocket.headers.get("origin")
    # No Origin header: not a browser (a bot, the bench, a CLI), which no web page can make it do.
    if origin is not None and not rooms.origin_allowed(origin, websocket.headers.get("host")):
        log.warning("refused a socket to %s from origin %r", game_id, origin[:200])
        await websocket.close(CLOSE_FORBIDDEN_ORIGIN)  # before accept: uvicorn answers HTTP 403
        return
    address = client_key(websocket.client.host) if websocket.client is not None else "unknown"
    offered = websocket.scope.get("subprotocols") or []
    claimed = claimed_token(offered)
    await websocket.accept(subprotocol=SUBPROTOCOL if SUBPROTOCOL in offered else None)
    # Its age counts from the upgrade, like its hello deadline: sockets that waited together for their
    # game to load resume in any order, and the oldest must still be the first evicted.
    order = next_order()
    deadline = time.monotonic() + rooms.limits.hello_timeout
    # What it costs is counted against its address's opens (``OpenRate``); past them, for the socket or for
    # the load it would start, only a seat gets in, on that seat's own opens: one whose token the upgrade
    # claimed (``claimed_token``; any hello then follows as on any socket), else a seat's hello (``seat_past_bound``).
    # Refused: upgraded first so that a page can show why (an HTTP 429 before the upgrade was measured no
    # cheaper, ~0.6 ms of CPU either way; bench.reconnect), and before the game is loaded.
    payer, first = Payer(rooms.opens, address, f"address {address}"), None
    try:
        try:
            payer.open()
            room = await rooms.enter(game_id, payer)
        except LimitReached as error:
            if error.code != "too-many-opens":
                raise
            if claimed is not None:  # a seat's token named at the upgrade: checked now, no frame waited for
                payer = await seat_payer_for(rooms, game_id, claimed)
                if payer is None:
                    raise error from None
            else:
                first, payer = await seat_past_bound(websocket, rooms, game_id, address, deadline, error)
                if payer is None:
                    return  # refused (or gone) already
            room = await rooms.enter(game_id, payer)
    except LimitReached as error:  # too-many-opens (a seat's own, for its load), too-many-games
        rooms.metrics.rejections.labels(error.code).inc()
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
    connection = Connection(websocket, queue_limit, address, order)
    rooms.metrics.connections.inc()
    rate = CommandRate(rooms.limits)
    chat_rate = ChatRate(rooms.limits.chat_per_minute, rooms.limits.chat_burst)
    faults = FaultRate(rooms.limits)

    def faulted(code: str | None) -> bool:
        """Count an answer that is a fault; past the bound, say so and close: True when closed."""
        if code not in FAULTS or faults.spend(code):
            return False
        rooms.metrics.rejections.labels("too-many-faults").inc()
        connection.send(frames.error_frame("too-many-faults", faults.refusal()))
        connection.close(CLOSE_POLICY_VIOLATION)
        return True

    try:
        rooms.admit(room, connection)
        while connection.state is not ConnectionState.CLOSED:
            if first is not None:  # read before the game was looked up (``seat_past_bound``)
                message, first = first, None
            elif connection.state is ConnectionState.AWAITING_HELLO:
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
            try:
                frame = frames.decode_client_frame(_payload(message), rooms.limits.max_frame_bytes)
            except FrameError as error:
                connection.send(frames.error_frame(error.code, error.message))
                if faulted(error.code):
                    break
                continue
            if isinstance(frame, Hello):
                if connection.seat_only and frame.token is None and connection.state is ConnectionState.AWAITING_HELLO:
                    connection.send(frames.error_frame(
                        "too-many-connections", f"game {game_id} (or address {address}) has as many spectators as "
                        "this server allows: only a seat's token may say hello on this socket; try again later"))
                    connection.close(CLOSE_TRY_AGAIN_LATER)
                    break
                greeted = connection.state is ConnectionState.GREETED
                if not greeted:  # its catch-up (all of a long game from seq 0; a snapshot's history after) is paid first
                    try:
                        pay_catch_up(rooms, room, frame, payer)
                    except LimitReached as error:
                        rooms.metrics.rejections.labels(error.code).inc()
                        connection.send(frames.error_frame(error.code, error.message))
                        connection.close(CLOSE_TRY_AGAIN_LATER)
                        break
                if faulted(await room.hello(connection, frame)):
                    break
                if connection.state is ConnectionState.GREETED:
                    rooms.greeted(room, connection)
                    if not greeted:
                        await room.chat_history(connection, rooms.limits.chat_history)
            elif isinstance(frame, Chat):
                if faulted(await room.chat(connection, frame, chat_rate, rooms.limits)):
                    break
            elif not rate.allow():
                rooms.metrics.rejections.labels("rate-limited").inc()
                connection.send(frames.error_frame("rate-limited", rate.refusal(), frame.id))
                if faulted("rate-limited"):
                    break
            elif connection.seat is not None and not rooms.refusals.allow(game_id, connection.seat):
                rooms.metrics.rejections.labels("rate-limited").inc()
                connection.send(frames.error_frame("rate-limited", rooms.refusals.refusal(connection.seat), frame.id))
                if faulted("rate-limited"):
                    break
            elif await room.command(connection, frame) == "rejected":
                rooms.refusals.refused(game_id, connection.seat)  # asked again at once, it would cost as much
    except StoreError:
        pass  # the room could not reload and has closed its connections
    finally:
        rooms.metrics.connections.dec()
        rooms.leave(room, connection)
        await connection.finish()


PAST_BOUND_WAITING = 64  # sockets of one address past its opens waiting for their hello; one more evicts one at random
SUBPROTOCOL = "chronicle"  # answered to a client that offers it (the pages do, with a seat's claim beside it)
SEAT_CLAIM = "chronicle.seat."  # an offered subprotocol naming a seat's token: "chronicle.seat.<token>"


def claimed_token(offered: list) -> str | None:
    """The seat token a client named at its upgrade, among its offered subprotocols (``SEAT_CLAIM``), else None.

    A page opening a seat's socket offers ``["chronicle", "chronicle.seat.<token>"]`` (the token is
    ``secrets.token_urlsafe``, whose characters a subprotocol may hold), and the server answers
    ``chronicle``. The claim is read only when the socket's address is past its opens: then a seat is let
    in on its own opens before anything else is read (``seat_payer_for``), rather than waiting for its
    hello among the address's other sockets (``seat_past_bound``), where a stranger flooding from the same
    address could evict it. The hello decides the socket's seat as ever; the claim only pays its way in."""
    for name in offered:
        if isinstance(name, str) and name.startswith(SEAT_CLAIM) and len(name) > len(SEAT_CLAIM):
            return name[len(SEAT_CLAIM):]
    return None


async def seat_payer_for(rooms: Rooms, game_id: str, token: str) -> Payer | None:
    """The seat's own ``Payer``, one open spent, for a token of one of the game's seats (checked against the
    stored hashes: one indexed read, no load); None for a token of no seat, or no such game.
    ``LimitReached``: the seat's own opens are spent too."""
    try:
        meta = await rooms.store.get_game(game_id)
    except (StoreError, UnknownGame):
        return None
    seat = seat_for_token(token, meta.token_hashes)
    if seat is None:
        return None
    payer = seat_payer(rooms, game_id, seat)
    payer.open()
    return payer


def seat_payer(rooms: Rooms, game_id: str, seat: str) -> Payer:
    """What a seat's own sockets spend (``Rooms.seat_opens``, a tenth of an address's, per game and seat)."""
    return Payer(rooms.seat_opens, f"{game_id} {seat}", f"seat {seat} of game {game_id}")


def pay_catch_up(rooms: Rooms, room: Any, frame: Hello, payer: Payer) -> None:
    """A hello's catch-up, paid before it is sent (one open per ``CATCH_UP_ENVELOPES_PER_OPEN`` envelopes), or
    ``LimitReached("too-many-opens")``: by the socket's payer (its address's opens, or its seat's past them);
    for a seat's token, when that payer cannot, by the seat's own opens, so that a player is never refused
    on what strangers spent at its address, while its tabs spend the address's first like anyone's. A token
    of no seat pays nothing (the hello is refused ``bad-token`` and sends nothing)."""
    envelopes = room.table.seq - frame.since
    seat = None if frame.token is None else seat_for_token(frame.token, room.meta.token_hashes)
    if frame.token is not None and seat is None:
        return
    try:
        payer.spend(envelopes, CATCH_UP_ENVELOPES_PER_OPEN)
    except LimitReached:
        own = None if seat is None else seat_payer(rooms, room.meta.game_id, seat)
        if own is None or own.key == payer.key:
            raise
        own.spend(envelopes, CATCH_UP_ENVELOPES_PER_OPEN)


async def seat_past_bound(websocket: WebSocket, rooms: Rooms, game_id: str, address: str, deadline: float,
                          refused: LimitReached) -> tuple:
    """A socket past its address's opens (``refused``): its first frame, read before its game is loaded,
    and the seat's ``Payer`` if it is a seat's hello that the seat's own opens pay for (``(message, payer)``);
    else the socket is told why and closed here, and the payer is None.

    A seat's token always gets in (as with ``connections_per_address``): a hello whose token is one of the
    game's seats (checked against the stored hashes, one indexed read, no load) spends that seat's own opens
    (``Rooms.seat_opens``, a tenth of an address's: ``SEAT_OPENS_SHARE``) instead, so that strangers behind a
    player's address cannot lock the player out, and the seat alone cannot loop without bound. Anything else
    (no hello before the deadline, a spectator's hello, a frame that is not a hello, a token of no seat) is
    refused ``too-many-opens``. At most ``PAST_BOUND_WAITING`` sockets of one address wait here: one more
    evicts one of them at random (refused at once), so an address past its opens cannot hold sockets by the
    thousand. Against a stranger flooding from a player's address, a page's socket waits one round trip for
    its hello: evicting the oldest, a flood of 64 sockets per round trip (~1,100 a second at 60 ms) kept
    every try out; at random, each try survives with (63/64) ** (flood x round trip), and the page tries
    again every few seconds."""
    waiting = rooms.past_bound.setdefault(address, [])
    if len(waiting) >= PAST_BOUND_WAITING:  # one at random: the oldest would always be a slow network's page
        other = waiting.pop(random.randrange(len(waiting)))
        if not other.done():
            other.set_result(None)
    evicted = asyncio.get_running_loop().create_future()
    waiting.append(evicted)
    receiving = asyncio.ensure_future(websocket.receive())
    try:
        await asyncio.wait((receiving, evicted), timeout=max(0.0, deadline - time.monotonic()),
                           return_when=asyncio.FIRST_COMPLETED)
    finally:
        if evicted in waiting:
            waiting.remove(evicted)
        if not waiting:
            rooms.past_bound.pop(address, None)
        if not receiving.done():
            receiving.cancel()
    message = receiving.result() if receiving.done() and not receiving.cancelled() else None
    if message is not None and message["type"] == "websocket.disconnect":
        return message, None
    payer, reason = None, refused.message
    if message is not None:
        try:
            frame = frames.decode_client_frame(_payload(message), rooms.limits.max_frame_bytes)
        except FrameError:
            frame = None
        if isinstance(frame, Hello) and frame.token is not None:
            try:
                payer = await seat_payer_for(rooms, game_id, frame.token)
            except LimitReached as error:
                reason = error.message
    if payer is None:
        rooms.metrics.rejections.labels("too-many-opens").inc()
        await websocket.send_text(frames.error_frame("too-many-opens", reason))
        await websocket.close(CLOSE_TRY_AGAIN_LATER)
    return message, payer


def _payload(message: dict) -> str | bytes:
    """A ``websocket.receive`` message's frame: its text, else its bytes (decoded and bounded by ``frames``)."""
    raw = message.get("text")
    return raw if raw is not None else message.get("bytes") or b""
