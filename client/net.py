"""One WebSocket to the game's Room (docs/protocol.md), reconnecting with the last seq held.

The connection is a small state machine: ``connecting`` -> ``open`` (hello sent) -> ``closed``
-> (after a back-off) ``connecting`` again. Every (re)connection says ``hello`` with the seq the
page holds, so the server sends only what is missing; a hello unanswered for a few seconds counts
as a dropped connection. The first connection of a play or watch page is usually already open:
``static/socket.js`` opened it and said the same hello before Brython started, and ``open()`` takes
it over with the frames it kept (issue 16, docs/client.md). A welcome naming another ``build`` than
the page's (the server was redeployed) ends the connection: the page gets an ``outdated`` frame.
"""

from __future__ import annotations

import json

from browser import timer, websocket, window

from client.faults import fault_words
from client.i18n import t

CONNECTING = "connecting"
OPEN = "open"
CLOSED = "closed"
BACKOFF_MS = (250, 500, 1000, 2000, 4000)
TOKEN_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"  # secrets.token_urlsafe's
WELCOME_TIMEOUT_MS = 4000


class Connection:
    """``held()`` gives the last seq the page holds; ``on_frame(dict)`` gets every server frame."""

    def __init__(self, game_id: str, token: str | None, held: object, on_frame: object, on_state: object) -> None:
        self.game_id = game_id
        self.token = token
        self.held = held
        self.on_frame = on_frame
        self.on_state = on_state
        self.state = CLOSED
        self.socket = None
        self.failures = 0
        self.greeted = False
        self.counter = 0
        self.stopped = False
        self.snapshots = True  # a hello from seq 0 may start from a snapshot (issue 16); False after one was refused
        self.outdated = False  # the server serves another build than this page's (``_outdated``)
        self.backlog: list = []  # frames socket.js kept, read one per task (later ones queue behind them)
        self.claim = True  # offer the seat's claim at the upgrade; turned over by each handshake that fails

    def url(self) -> str:
        scheme = "wss" if str(window.location.protocol) == "https:" else "ws"
        return f"{scheme}://{window.location.host}/ws/{window.encodeURIComponent(self.game_id)}"

    def protocols(self) -> list:
        """The subprotocols offered: for a seat, ``chronicle`` and its claim ``chronicle.seat.<token>``, so that
        past its address's bound on opens the server lets the seat in before any frame (docs/protocol.md);
        none for a spectator, or for a token no subprotocol may carry (the hello alone then names it). A
        socket closed before it opened turns the claim over for the next try (``_closed``): a proxy that
        drops ``Sec-WebSocket-Protocol``, or a server that does not answer it, fails every handshake that
        offers one in Chromium, so the page then connects without, saying its token in the hello alone."""
        if not self.claim or not self.token or any(c not in TOKEN_CHARACTERS for c in self.token):
            return []
        return ["chronicle", "chronicle.seat." + self.token]

    def open(self) -> None:
        early = _take_early()
        if early is not None and self._adopt(early):
            return
        self.state = CONNECTING
        self.on_state(self.state)
        socket = websocket.WebSocket(self.url(), self.protocols())
        self.socket = socket
        socket.bind("open", lambda event: self._opened(socket))
        socket.bind("message", lambda event: self._message(socket, event))
        socket.bind("close", lambda event: self._closed(socket))

    def _adopt(self, early: object) -> bool:
        """Take over the socket ``static/socket.js`` opened before Python started (issue 16), if it is
        the one this connection would open and says the hello it would say; False: it was closed."""
        socket = early.socket
        if (int(socket.readyState) > 1 or str(early.url) != self.url() or (early.token or None) != self.token
                or self.held() != 0 or not self.snapshots):
            _close(socket)  # closing a closed socket does nothing
            return False
        frames = _reflect.apply(early.release, early, [])  # socket.js keeps nothing from now on
        self.socket = socket
        socket.addEventListener("message", lambda event: self._message(socket, event))
        socket.addEventListener("close", lambda event: self._closed(socket))
        if not early.sent:  # still connecting: this connection says hello when it opens
            self.state = CONNECTING
            self.on_state(self.state)
            socket.addEventListener("open", lambda event: self._opened(socket))
            return True
        self.state = OPEN
        self.on_state(self.state)
        timer.set_timeout(lambda: self._check_welcome(socket), WELCOME_TIMEOUT_MS)
        # The kept frames in the order they came, one per task as the socket's own events would be
        # (the browser may paint the first draw before the history frames are read); a frame that
        # arrives meanwhile queues behind them.
        self.backlog = list(frames)
        self._drain(socket)
        return True

    def _drain(self, socket: object, everything: bool = False) -> None:
        while self.backlog and socket is self.socket:
            self._received(socket, self.backlog.pop(0))
            if not everything:
                break
        if socket is not self.socket:
            self.backlog = []
        elif self.backlog:
            timer.set_timeout(lambda: self._drain(socket), 0)

    def _opened(self, socket: object) -> None:
        if socket is not self.socket:
            return
        if socket.readyState != 1:  # closed again before its open event ran (a server restarting)
            self._closed(socket)
            return
        self.state = OPEN
        since = self.held()
        hello = {"type": "hello", "since": since, "token": self.token}
        if since == 0 and self.snapshots:
            hello["snapshot"] = True  # a long game starts from the server's newest snapshot (docs/protocol.md)
        _send(socket, json.dumps(hello))
        self.on_state(self.state)
        # A hello left unanswered (seen while a server restarts) would leave the page waiting
        # forever on a socket that looks open: give up on it and connect again.
        timer.set_timeout(lambda: self._check_welcome(socket), WELCOME_TIMEOUT_MS)

    def _check_welcome(self, socket: object) -> None:
        if socket is self.socket and self.state == OPEN and not self.greeted:
            self._closed(socket)
            _close(socket)

    def _message(self, socket: object, event: object) -> None:
        if socket is not self.socket:
            return
        if self.backlog:
            self.backlog.append(event.data)
            return
        self._received(socket, event.data)

    def _received(self, socket: object, text: object) -> None:
        try:
            frame = json.loads(text)
        except Exception as error:  # a frame we cannot read is shown, and the socket stays up
            frame = {"type": "error", "code": "bad-frame", "message": t("error.unreadable_frame", error=fault_words(error))}
        if type(frame) is list:  # an events frame, the one frame that is an array (docs/protocol.md)
            self.on_frame(frame)
            return
        if type(frame) is not dict:
            frame = {"type": "error", "code": "bad-frame",
                     "message": t("error.unreadable_frame", error=t("wire.not_a_frame"))}
        if frame.get("type") == "welcome":
            build = frame.get("build")  # absent from an older server's welcome: read as before
            if type(build) is str and build != page_build():
                self._outdated(socket, build)
                return
            self.greeted = True
            self.failures = 0
        self.on_frame(frame)

    def _outdated(self, socket: object, build: str) -> None:
        """The server serves another build than this page's (a deployment, docs/protocol.md): its frames
        may not read by this page's schema, so none is read from now on, and the page asks for a reload."""
        self.stopped = True
        self.outdated = True
        self.backlog = []
        self.socket = None  # what the socket still sends or says is ignored (``socket is not self.socket``)
        self.state = CLOSED
        _close(socket)
        self.on_state(self.state)
        self.on_frame({"type": "outdated", "build": build})

    def _closed(self, socket: object) -> None:
        if socket is not self.socket:
            return
        self._drain(socket, everything=True)  # what came before the close is read first, as it would have been
        if socket is not self.socket:
            return
        if self.state == CONNECTING:  # its handshake failed: the next try offers the other way (``protocols``)
            self.claim = not self.claim
        self.socket = None
        self.greeted = False
        self.state = CLOSED
        self.on_state(self.state)
        if self.stopped:
            return
        delay = BACKOFF_MS[min(self.failures, len(BACKOFF_MS) - 1)]
        self.failures += 1
        timer.set_timeout(self.open, delay)

    def restart(self) -> None:
        """Drop the socket and say hello again (after a gap in the seqs)."""
        if self.socket is not None:
            _close(self.socket)  # _closed reconnects

    def send_command(self, command_type: str, data: dict) -> str:
        """Send a ``command`` frame; returns its id, ``c-<time>-<n>-<random>``.

        Ids are unique per game, not per page (docs/protocol.md): two pages opened in the same
        millisecond count alike, so 64 random bits from the browser's ``crypto`` tell them apart.
        """
        self.counter += 1
        command_id = f"c-{int(window.Date.now())}-{self.counter}-{random_part()}"
        frame = {"type": "command", "id": command_id, "command": {"type": command_type, "data": data}}
        if self.socket is not None and self.state == OPEN:
            _send(self.socket, json.dumps(frame))
        elif self.outdated:
            pass  # the page said to reload (``_outdated``): nothing is sent to a server of another build
        else:
            self.on_frame({"type": "error", "code": "not-connected", "message": t("error.not-connected")})
        return command_id

    def send_chat(self, text: str) -> bool:
        """Send a ``chat`` frame (client/chat.py); False if the socket is not open (nothing sent)."""
        if self.socket is None or self.state != OPEN or not self.greeted:
            return False
        _send(self.socket, json.dumps({"type": "chat", "text": text}))
        return True


def _take_early() -> object:
    """The socket ``static/socket.js`` opened (play and watch pages), once; None on any other page."""
    if not _reflect.has(window, "chronicle_socket") or not window.chronicle_socket:
        return None
    early = window.chronicle_socket
    window.chronicle_socket = 0  # taken: a reconnection opens a socket of its own
    return early


def page_build() -> str:
    """The build this page was served with (``<body data-build>``, written by ``server/pages.py``)."""
    return str(window.document.body.getAttribute("data-build") or "")


def random_part() -> str:
    """16 hex digits from ``crypto.getRandomValues`` (also on plain-http pages, unlike ``randomUUID``)."""
    words = window.crypto.getRandomValues(window.Uint32Array.new(2))
    return "".join(f"{int(words[i]):08x}" for i in range(2))


def _send(socket: object, text: str) -> None:
    """``socket.send(text)``, applied through ``Reflect``.

    Brython 3.15 can hand back a JavaScript method bound to another object than the one it was
    looked up on: after a reconnection, ``socket.send`` sent on the old, closed socket
    ("WebSocket is already in CLOSING or CLOSED state") and the page waited forever for its
    welcome. ``Reflect.apply`` takes the object as an argument, so nothing is bound.
    """
    _reflect.apply(_SEND, socket, [text])


def _close(socket: object) -> None:
    _reflect.apply(_CLOSE, socket, [])


_reflect = window.Reflect
_SEND = window.WebSocket.prototype.send
_CLOSE = window.WebSocket.prototype.close
