"""What one stranger's connection can make the server spend below the application (docs/bounds.md,
"Below the application"): uvicorn's protocols, bounded in server/wsprotocol.py and server/httpprotocol.py.

Found by a hostile probe of main (2026-12-02): a socket sending pings and never reading grew the server
from 51 to 516 MiB in 15 s and was never closed; one message of 1,000,000 one-byte fragments cost 3 s
of CPU in one go. Raw sockets on a real server (``tests/server_fixture.py``), the hostile cases first.
"""

from __future__ import annotations

import base64
import os
import socket
import time

import pytest

from server.limits import DEFAULT_WS_FRAMES_PER_SECOND, WS_FRAME_BURST_SECONDS
from tests.server_fixture import cpu_ns, create_game, get_json, server_fixture

pytestmark = pytest.mark.server

server = server_fixture("transport-bounds")
# Frames unbounded, so that only the write buffer's bound (64 KiB here) can end a never-reading flood.
unread = server_fixture("transport-unread", env={"CHRONICLE_WS_FRAMES_PER_SECOND": "1000000",
                                                 "CHRONICLE_WS_WRITE_BUFFER_BYTES": "65536"})

BURST = DEFAULT_WS_FRAMES_PER_SECOND * WS_FRAME_BURST_SECONDS


def masked(first: int, payload: bytes) -> bytes:
    """One client frame (masked, RFC 6455 §5.3), ``first`` its first byte (FIN, RSV, opcode)."""
    mask = os.urandom(4)
    length = len(payload)
    head = bytes((first, 0x80 | length)) if length < 126 else bytes((first, 0x80 | 126)) + length.to_bytes(2, "big")
    return head + mask + bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))


def upgraded(port: int, game_id: str, receive_buffer: int | None = None) -> socket.socket:
    """A raw socket upgraded on ``game_id``'s WebSocket, the 101 read, no hello sent."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=20)
    if receive_buffer is not None:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    key = base64.b64encode(os.urandom(16)).decode()
    connection.sendall((f"GET /ws/{game_id} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += connection.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return connection


def frames_until_closed(connection: socket.socket, seconds: float = 20) -> list:
    """The server's frames (opcode, payload) read until it closes the TCP connection."""
    data, deadline = b"", time.monotonic() + seconds
    connection.settimeout(seconds)
    while time.monotonic() < deadline:
        try:
            chunk = connection.recv(1 << 20)
        except ConnectionResetError:
            break
        if not chunk:
            break
        data += chunk
    else:
        raise AssertionError(f"the server kept the connection open for {seconds} s")
    frames, at = [], 0
    while at + 2 <= len(data):
        opcode, length, at = data[at] & 0x0F, data[at + 1] & 0x7F, at + 2
        if length == 126:
            length, at = int.from_bytes(data[at:at + 2], "big"), at + 2
        elif length == 127:
            length, at = int.from_bytes(data[at:at + 8], "big"), at + 8
        frames.append((opcode, data[at:at + length]))
        at += length
    return frames


def close_of(frames: list) -> tuple[int, str]:
    closes = [payload for opcode, payload in frames if opcode == 0x8]
    assert closes, f"no close frame among {len(frames)} frames: {frames[-3:]}"
    return int.from_bytes(closes[0][:2], "big"), closes[0][2:].decode()


def resident_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return int(status.read().split("VmRSS:")[1].split()[0])


def cut(server, reason: str) -> int:
    """``chronicle_transport_cut_total{reason}`` on the server's /metrics."""
    import urllib.request

    text = urllib.request.urlopen(f"{server.base_url}/metrics", timeout=10).read().decode()
    for line in text.splitlines():
        if line.startswith(f'chronicle_transport_cut_total{{reason="{reason}"}}'):
            return int(float(line.split()[-1]))
    return 0


def test_transport_ping_flood_closed_1008_past_the_frame_rate(server):
    """A flood of pings (no hello) past the burst is closed with 1008 ``too-many-frames``; the pings
    after it are not answered."""
    game_id = create_game(server.base_url)["game"]
    before = cut(server, "too-many-frames")
    connection = upgraded(server.port, game_id)
    with connection:
        connection.sendall(masked(0x89, bytes(125)) * (BURST + 1000))
        frames = frames_until_closed(connection)
    code, reason = close_of(frames)
    assert code == 1008 and reason.startswith("too-many-frames"), (code, reason)
    # the burst, and what the rate gave back while the pings arrived: not all of them
    assert BURST <= sum(opcode == 0xA for opcode, _ in frames) < BURST + 1000
    assert cut(server, "too-many-frames") == before + 1
    assert get_json(f"{server.base_url}/healthz")[0] == 200


def test_transport_one_byte_fragments_stop_early_in_one_read(server):
    """One message of 200,000 one-byte fragments, sent at once, is closed 1008 after the burst's frames,
    without parsing the rest: on main it cost ~3 µs a fragment, then ``frame-too-large``."""
    game_id = create_game(server.base_url)["game"]
    fragment = masked(0x00, b"a")
    message = masked(0x01, b"a") + fragment * 200_000 + masked(0x80, b"a")
    connection = upgraded(server.port, game_id)
    spent = cpu_ns(server.pid)
    with connection:
        try:
            connection.sendall(message)
        except (BrokenPipeError, ConnectionResetError):
            pass  # closed before the whole message went out
        frames = frames_until_closed(connection)
    spent = cpu_ns(server.pid) - spent
    code, reason = close_of(frames)
    assert code == 1008 and reason.startswith("too-many-frames"), (code, reason)
    assert spent < 300_000_000, f"{spent / 1e6:.0f} ms of server CPU for one socket's fragments"


def test_transport_frames_below_the_rate_are_served(server):
    """A socket's pings below the burst are all answered, and the socket stays up for its hello."""
    game_id = create_game(server.base_url)["game"]
    connection = upgraded(server.port, game_id)
    with connection:
        connection.sendall(masked(0x89, b"ping") * 100 + masked(0x81, b'{"type":"hello","since":0,"token":null}'))
        data, deadline = b"", time.monotonic() + 10
        while b'"welcome"' not in data and time.monotonic() < deadline:
            data += connection.recv(65536)
        assert data.count(b"\x8a\x04ping") == 100 and b'"welcome"' in data


def test_transport_never_reading_ping_flood_aborted_past_the_write_buffer(unread):
    """Pings from a socket that never reads (a 4 KiB receive buffer): the pongs the server owes it pile
    up past the write buffer's bound (64 KiB here) and the connection is aborted, with the server's
    memory barely grown. On main: 51 -> 516 MiB in 15 s, the socket never closed."""
    game_id = create_game(unread.base_url)["game"]
    before = cut(unread, "write-buffer")
    resident = resident_kib(unread.pid)
    connection = upgraded(unread.port, game_id, receive_buffer=4096)
    blob = masked(0x89, bytes(125)) * 2000
    deadline, aborted = time.monotonic() + 15, False
    with connection:
        connection.settimeout(1)
        while time.monotonic() < deadline and not aborted:
            try:
                connection.sendall(blob)
            except (BrokenPipeError, ConnectionResetError):
                aborted = True
            except TimeoutError:
                pass  # the server stopped reading for a moment
    grown = resident_kib(unread.pid) - resident
    assert aborted, "the server kept a never-reading ping flood open for 15 s"
    assert grown < 40 * 1024, f"the server grew {grown} KiB"
    assert cut(unread, "write-buffer") == before + 1


def deflate_upgraded(port: int, game_id: str) -> socket.socket:
    """A raw socket upgraded with permessage-deflate negotiated (``client_no_context_takeover``)."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=20)
    key = base64.b64encode(os.urandom(16)).decode()
    connection.sendall((f"GET /ws/{game_id} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                        "Sec-WebSocket-Extensions: permessage-deflate; client_no_context_takeover\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += connection.recv(1)
    assert head.startswith(b"HTTP/1.1 101") and b"permessage-deflate" in head, head
    return connection


def test_transport_deflate_bomb_stops_inflating_at_64_kib(chronicle_server_factory):
    """``chronicle serve`` runs uvicorn with ``ws_max_size`` 64 KiB (``WS_MAX_BYTES``): a 1 KB compressed
    frame inflating to 1 MiB is closed 1009 once 64 KiB are inflated (websockets' ``max_length``); at
    1 MiB it was inflated whole (2.2-2.6 ms of CPU) and answered ``frame-too-large``. A plain frame
    between the client bound (8 KiB) and 64 KiB is still answered ``frame-too-large``, the socket open."""
    import zlib

    from server.limits import DEFAULT_MAX_FRAME_BYTES, WS_MAX_BYTES

    assert WS_MAX_BYTES == 64 * 1024 and WS_MAX_BYTES >= 8 * DEFAULT_MAX_FRAME_BYTES
    server = chronicle_server_factory(via_cli=True)
    game_id = create_game(server.base_url)["game"]
    deflater = zlib.compressobj(9, zlib.DEFLATED, -15)
    bomb = (deflater.compress(b"a" * (2**20 - 64)) + deflater.flush(zlib.Z_SYNC_FLUSH))[:-4]
    assert len(bomb) < 2048
    with deflate_upgraded(server.port, game_id) as connection:
        connection.sendall(masked(0xC1, bomb))  # FIN, RSV1 (compressed), text
        code, reason = close_of(frames_until_closed(connection))
    assert code == 1009, (code, reason)
    with upgraded(server.port, game_id) as connection:
        connection.sendall(masked(0x81, b"a" * 60_000))
        data, deadline = b"", time.monotonic() + 10
        while b"frame-too-large" not in data and time.monotonic() < deadline:
            data += connection.recv(65536)
        assert b"frame-too-large" in data
        connection.sendall(masked(0x81, b'{"type":"hello","since":0,"token":null}'))
        while b'"welcome"' not in data and time.monotonic() < deadline:
            data += connection.recv(65536)
        assert b'"welcome"' in data  # the socket stayed up
