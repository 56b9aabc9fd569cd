"""The chat beside the log (issue 18): the table talk of one channel, never folded into the game.

A seat's page shows the seats' channel, a spectator's page the spectators' (the server decides
which from the hello: docs/protocol.md, "Chat"). Lines come as ``chat`` frames (live, the
sender's own included) and one ``chat-history`` frame after the hello; each ``n`` is kept once
and lines are shown in the order of ``n``, so a line that came both live and in the history, or
out of order, shows once in its place. What people wrote is put in as text, never as HTML
(``client/dom.py``), and marked ``translate="no"``: it is theirs, not the catalogue's.
"""

from __future__ import annotations

from client.dom import add, byid, el, listen, set_text
from client.i18n import seat_name, t

MAX_CHARS = 500  # the server's bound (server/chat.py); the server counts after normalising and decides
MAX_LINES = 200  # lines kept on the page; older ones are dropped from the page (the store keeps them)
# The server's chat error codes with words of their own (docs/protocol.md).
ERRORS = ("chat-empty", "chat-too-long", "chat-control-character", "chat-rate-limited", "chat-game-rate-limited",
          "chat-full")
# The bounds each channel has for itself (its game bucket, its cap): a spectator's page names the
# spectators' channel, so a watcher never reads that the players' table is full (gamebounds).
CHANNEL_ERRORS = ("chat-game-rate-limited", "chat-full")


class ChatPanel:
    """``send(text) -> bool`` sends a chat frame (False when not connected)."""

    def __init__(self, send: object) -> None:
        self.send = send
        self.box = None
        self.lines = None
        self.shown: list = []  # the n of each line on the page, in order
        self.channel = "seats"

    def open(self, seat: object) -> None:
        """Build the panel after the log, once the hello said which channel this page reads."""
        channel = "spectators" if seat is None else "seats"
        self.channel = channel
        if self.box is not None:
            self.box.setAttribute("data-channel", channel)
            return
        log_box = byid("log").parentNode
        box = el("section", None, "chat", (("id", "chat"), ("aria-labelledby", "chat-title"),
                                           ("data-channel", channel)))
        add(box, el("h3", t("chat.title"), None, (("id", "chat-title"),)),
            el("p", t("chat.channel." + channel), "chat-who"))
        self.lines = el("ol", None, "chat-lines", (("id", "chat-lines"),))
        add(box, add(el("div", None, "chat-box", (("role", "log"), ("aria-live", "polite"))), self.lines))
        form = el("form", None, "chat-form", (("id", "chat-form"),))
        field = el("input", None, None, (("id", "chat-text"), ("type", "text"), ("maxlength", str(MAX_CHARS)),
                                         ("autocomplete", "off")))
        add(form, el("label", t("chat.label"), None, (("for", "chat-text"),)), field,
            el("button", t("chat.send"), None, (("type", "submit"), ("id", "chat-send"))))
        listen(form, "submit", self.submit)
        add(box, form, el("p", None, "chat-status", (("id", "chat-status"), ("role", "status"))))
        log_box.parentNode.insertBefore(box, log_box.nextSibling)
        self.box = box

    def submit(self, event: object) -> None:
        event.preventDefault()
        field = byid("chat-text")
        text = str(field.value)
        if not text.strip():
            self.status(t("chat.error.chat-empty"), "chat-empty")
            return
        if self.send(text):
            field.value = ""
            self.status("", "")
        else:
            self.status(t("chat.not_connected"), "not-connected")

    def status(self, text: str, code: str) -> None:
        node = byid("chat-status")
        if node is not None:
            set_text(node, text)
            node.setAttribute("data-code", code)

    def refused(self, code: str, message: object) -> None:
        """A chat error frame: in the reader's words when the code has them, else the server's."""
        if code in CHANNEL_ERRORS and self.channel == "spectators":
            self.status(t("chat.bounds.spectators." + code), code)
        elif code in ERRORS:
            self.status(t("chat.error." + code), code)
        else:
            self.status(t("error.other", code=code, message=message), code)

    def history(self, frame: dict) -> None:
        for line in frame.get("messages") or ():
            self.line(line)

    def line(self, line: dict) -> None:
        """One line in its place by ``n``; a line already shown is not shown twice."""
        if self.lines is None:
            return
        n = line.get("n")
        if not isinstance(n, int) or n in self.shown:
            return
        row = self.row(line)
        at = len(self.shown)
        while at > 0 and self.shown[at - 1] > n:
            at -= 1
        if at == len(self.shown):
            self.lines.appendChild(row)
        else:
            self.lines.insertBefore(row, self.lines.children.item(at))
        self.shown.insert(at, n)
        while len(self.shown) > MAX_LINES:
            self.shown.pop(0)
            self.lines.removeChild(self.lines.firstChild)

    def row(self, line: dict) -> object:
        author = line.get("author")
        who = t("chat.spectator") if line.get("channel") == "spectators" else seat_name(author)
        at = str(line.get("at") or "")
        row = el("li", None, "chat-line", (("data-n", str(line.get("n"))), ("data-author", str(author)),
                                            ("data-channel", str(line.get("channel")))))
        add(row, el("time", at[11:16], "chat-at", (("datetime", at),)), el("b", who, "chat-author"),
            el("span", str(line.get("text") or ""), "chat-text", (("translate", "no"),)))
        return row
