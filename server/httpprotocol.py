"""uvicorn's HTTP protocol (httptools) with the bounds uvicorn lacks on a TCP connection before its request.

**Why.** In uvicorn 0.55 (``uvicorn/protocols/http/httptools_impl.py``) nothing bounds a connection that
has not sent a whole request head: ``timeout_keep_alive`` is armed only in ``on_response_complete``, after
a response, and the next byte cancels it (``data_received`` → ``_unset_keepalive_if_required``) without
arming anything else; there is no header-read timeout and no count of connections per address. So a
connection that sends nothing, or half a request line one byte every few seconds (slowloris), was held for
ever, and one stranger's 1,000 of them took 1,000 of the process's file descriptors (a hostile probe of
main, 2026-12-02; docs/bounds.md, "Below the application").

``HeadBoundProtocol`` adds, with ``Limits``' settings (``chronicle serve`` gives its own, ``with_limits``;
uvicorn's command line, ``--http server.httpprotocol:HeadBoundProtocol``, the ``CHRONICLE_*`` variables'):

- **a request-head timeout**, ``head_timeout`` seconds from ``connection_made``, and again from the end of
  each response on a keep-alive connection (where uvicorn arms its keep-alive timer, which still closes a
  connection idle between requests first at the defaults, 5 s < 10 s); bytes do not reset it, only a
  complete head (``on_headers_complete``) or an upgrade stops it, so a request's body, the app's work and
  a WebSocket after its upgrade are never bounded by it. Past it the connection is answered ``408`` if any
  byte of a request arrived (else just closed) and closed: ``reason="head-timeout"``;
- **a cap per client address** on open TCP connections, ``tcp_connections_per_address`` (0: none, behind
  a reverse proxy that connects from one address), counted from ``connection_made`` to ``connection_lost``
  and, after an upgrade, to the WebSocket protocol's ``connection_lost`` (uvicorn hands the transport to a
  new protocol object, ``transport.set_protocol``, and never calls this one's again): ``OPEN`` below. One
  more connection from that address is answered ``429`` ``too-many-connections-per-address`` before it
  reaches the app: ``reason="too-many-connections-per-address"``;
- **a cap on all of them**, ``files_budget()`` (the soft file limit, which ``chronicle serve`` raises to
  the hard one, less ``FILES_KEPT`` for the store, logs and pipes): one more is answered ``503``
  ``too-many-connections``: ``reason="too-many-connections"``. uvicorn's own ``limit_concurrency`` does not
  fit: it answers 503 only once a request head has arrived (an idle connection is never refused), skips
  WebSocket upgrades, and counts running tasks with connections.

A refused connection is not counted in its address's number; its answer is written, its side shut (FIN),
what it sends is discarded, and it is closed at its end of stream or after ``REFUSED_LINGER_S``, whichever
is first (closing at once with its request unread would reset the connection, and a client could lose the
answer). It holds a file meanwhile, so at most ``REFUSED_LINGERING`` linger at once (within ``FILES_KEPT``,
not counted against players); one more is closed right after its answer.
An IPv6 address counts by its /64 (``client_key``), as the application's per-address bounds.
"""

from __future__ import annotations

import resource
from asyncio import TimerHandle
from typing import Any

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from client.i18n import LANGUAGES
from server import i18n
from server.limits import Limits, client_key, limits_from_env_once
from server.metrics import transport_cut

PROTOCOL = "server.httpprotocol:HeadBoundProtocol"  # what uvicorn's --http (or Config(http=...)) is given
# file descriptors kept from the connections' budget: SQLite's files, logs, the worker's pipes, and the
# refused connections lingering (at most REFUSED_LINGERING)
FILES_KEPT = 256
REFUSED_LINGER_S = 1.0  # a refused connection is closed at its end of stream or after this, whichever is first
REFUSED_LINGERING = 64  # refused connections lingering so at once; one more is closed right after its answer
RETRY_AFTER_S = 10

OPEN: dict[str, int] = {}  # client_key -> TCP connections open in this process (HTTP and upgraded alike)
LINGERING = [0]  # refused connections lingering (``_refuse``), at most REFUSED_LINGERING, within FILES_KEPT
TOTAL = [0]  # all of them (a unix socket's too, which have no address and no cap of their own)
_files: list[int] = []  # files_budget(), computed once


def files_budget() -> int:
    """The most TCP connections this process holds open: its soft RLIMIT_NOFILE (read once, after
    ``chronicle serve`` raised it) less ``FILES_KEPT``, at least 64."""
    if not _files:
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        _files.append(1 << 20 if soft == resource.RLIM_INFINITY else max(64, soft - FILES_KEPT))
    return _files[0]


def release(address: str | None) -> None:
    """One connection of ``address`` closed (None: it was never counted)."""
    if address is not None:
        TOTAL[0] -= 1
        left = OPEN[address] - 1
        if left:
            OPEN[address] = left
        else:
            del OPEN[address]


def answer(status: int, text: str, retry: bool = False, **params: object) -> bytes:
    """A whole ``status`` response, closing the connection: ``text`` (its code, then why, in English) on
    the first line, then the same in each language of the catalogue (``tcp.<code>``, with ``params``). It
    is written before any request head is read, so the reader's language is not known: a browser shows
    all three, a program reads the status and the code."""
    code = text.split(":", 1)[0]
    key = "tcp." + code.replace("-", "_")
    lines = [text] + [i18n.t(language, key, **params) for language in LANGUAGES]
    body = ("\n".join(lines) + "\n").encode()
    retry_after = b"retry-after: %d\r\n" % RETRY_AFTER_S if retry else b""
    return b"".join((STATUS_LINE[status], b"content-type: text/plain; charset=utf-8\r\n", retry_after,
                     b"content-length: %d\r\nconnection: close\r\n\r\n" % len(body), body))


class HeadBoundProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a request-head timeout and caps on open connections (see above)."""

    limits: Limits | None = None  # None: the CHRONICLE_* variables' (``with_limits`` gives others)

    @classmethod
    def with_limits(cls, limits: Limits) -> type[HeadBoundProtocol]:
        """This protocol with ``limits``' bounds: what ``chronicle serve`` gives uvicorn as ``http``."""
        return type(cls.__name__, (cls,), {"limits": limits})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        limits = self.limits or limits_from_env_once()
        self.head_timeout = limits.head_timeout
        self.per_address = limits.tcp_connections_per_address
        self.address: str | None = None  # counted in OPEN until the connection (or its WebSocket) is lost
        self.refused = False
        self.lingering = False  # a refused connection counted in LINGERING while it lingers
        self.head_timer: TimerHandle | None = None
        self.head_bytes = 0  # bytes received since the head timer was started
        self.body_timer: TimerHandle | None = None  # from a head to its body's end, reset by each piece of it

    def connection_made(self, transport: Any) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = client_key(self.client[0]) if self.client else ""  # "": a unix socket, no cap of its own
        held = OPEN.get(address, 0)
        if self.per_address and address and held >= self.per_address:
            self._refuse("too-many-connections-per-address", 429,
                         f"this address holds {held} open connections to this server, at most {self.per_address}",
                         held=held, most=self.per_address)
            return
        if TOTAL[0] >= files_budget():
            self._refuse("too-many-connections", 503, f"this server holds {files_budget()} open connections, "
                                                      "as many as it takes; try again later", held=files_budget())
            return
        OPEN[address] = held + 1
        TOTAL[0] += 1
        self.address = address
        self._start_head_timer()

    def _refuse(self, code: str, status: int, why: str, **params: object) -> None:
        """Answer ``status`` and close: lingering (FIN sent, what comes discarded, closed at the client's end
        of stream or after ``REFUSED_LINGER_S``) while fewer than ``REFUSED_LINGERING`` do, else at once."""
        transport_cut(code)
        self.refused = True
        self.transport.write(answer(status, f"{code}: {why}", retry=True, seconds=RETRY_AFTER_S, **params))
        if LINGERING[0] >= REFUSED_LINGERING or not self.transport.can_write_eof():  # (TLS cannot half-close)
            self.transport.close()
            return
        LINGERING[0] += 1
        self.lingering = True
        self.transport.write_eof()
        self.loop.call_later(REFUSED_LINGER_S, self.transport.close)

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return  # discarded: the connection was answered and is closing
        self.head_bytes += len(data)
        super().data_received(data)

    def on_headers_complete(self) -> None:
        self._stop_head_timer()
        super().on_headers_complete()
        if not self.parser.should_upgrade():  # its body, if it has one, may not stop coming (on_body)
            self._start_body_timer()

    def on_body(self, body: bytes) -> None:
        super().on_body(body)
        if self.body_timer is not None:
            self._start_body_timer()

    def on_message_complete(self) -> None:
        self._stop_body_timer()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.timeout_keep_alive_task is not None:  # uvicorn waits for the next request now (none pipelined)
            self._start_head_timer()

    def handle_websocket_upgrade(self) -> None:
        """uvicorn's upgrade, then the address's count handed to the WebSocket protocol, which now owns
        the transport: ``FrameProtocol.connection_lost`` gives it back (any other class: see ``hand_over``)."""
        self._stop_head_timer()
        super().handle_websocket_upgrade()
        address, self.address = self.address, None
        if address is not None:
            hand_over(self.transport.get_protocol(), address)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        self._stop_body_timer()
        address, self.address = self.address, None
        release(address)
        if self.lingering:
            self.lingering = False
            LINGERING[0] -= 1
        super().connection_lost(exc)

    def _start_head_timer(self) -> None:
        self._stop_head_timer()
        self.head_bytes = 0
        self.head_timer = self.loop.call_later(self.head_timeout, self._head_timed_out)

    def _stop_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _start_body_timer(self) -> None:
        self._stop_body_timer()
        self.body_timer = self.loop.call_later(self.head_timeout, self._body_timed_out)

    def _stop_body_timer(self) -> None:
        if self.body_timer is not None:
            self.body_timer.cancel()
            self.body_timer = None

    def _body_timed_out(self) -> None:
        """No piece of the body for ``head_timeout`` s. Not the client's doing while uvicorn paused reading (the
        app has not taken what came): wait again. Else 408 ``body-timeout`` if no response began, and close."""
        self.body_timer = None
        if self.transport.is_closing():
            return
        if self.flow.read_paused:
            self._start_body_timer()
            return
        transport_cut("body-timeout")
        cycle = self.cycle
        if cycle is None or not cycle.response_started:
            self.transport.write(answer(408, f"body-timeout: no piece of the request's body within {self.head_timeout} s",
                                        seconds=self.head_timeout))
        self.transport.close()

    def _head_timed_out(self) -> None:
        self.head_timer = None
        if self.transport.is_closing():
            return
        transport_cut("head-timeout")
        if self.head_bytes:
            self.transport.write(answer(408, f"head-timeout: no complete request head within {self.head_timeout} s",
                                        seconds=self.head_timeout))
        self.transport.close()


def hand_over(protocol: Any, address: str) -> None:
    """``address``'s count, released when ``protocol`` (the WebSocket's, after an upgrade) loses its
    connection: through its ``tcp_address`` (``FrameProtocol``), else by wrapping its ``connection_lost``."""
    if hasattr(type(protocol), "tcp_address"):
        protocol.tcp_address = address
        return
    lost = protocol.connection_lost

    def connection_lost(exc: Exception | None) -> None:
        release(address)
        lost(exc)

    protocol.connection_lost = connection_lost
