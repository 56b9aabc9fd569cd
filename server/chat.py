"""Table talk (issue 18): the chat beside the log, kept with the game but never folded into it.

A chat message is not an event: it never enters the event log, its hashes or the state, and no
reducer sees it. The store keeps it in a table of its own (``Store.add_chat``), numbered by a
per-game counter ``n``, with its channel, its author, its text and the server's time.

Channels: a seat's message goes to ``seats`` (read by every seat's socket), a spectator's to
``spectators`` (read by every spectator's socket). The channel and the author come from the
socket's hello, never from the frame (which holds only ``text``), so a spectator can never post
as a seat or into the seats' channel. Seats do not read the spectators' channel, nor spectators
the seats': watchers may not coach the players while the game runs, and the players' talk is
theirs (docs/protocol.md, "Chat").

Bounds, each with its own error code (docs/protocol.md, docs/bounds.md): the text is normalised
(NFC, then surrounding white space dropped) and must then hold 1 to ``MAX_CHARS`` characters
(``chat-empty``, ``chat-too-long``), none of them a control character, a surrogate or a bidi
override (``chat-control-character``, with the ``$.text[i]`` position); a socket and each channel
of a game have a token bucket (``chat-rate-limited``, ``chat-game-rate-limited``); each channel of a
game keeps at most ``chat_per_game`` messages (``chat-full``); a socket joining gets the last
``chat_history`` messages of its channel. The game's bucket and cap are the channel's, never shared:
until 2026-12-02 they covered both channels, so 40 spectators, each within its own socket's rate,
left the seats' lines ``chat-game-rate-limited``, and ten of them filling the cap made every later
seat's line ``chat-full`` for good.
"""

from __future__ import annotations

import json
import time
import unicodedata
from collections.abc import Callable

from server.frames import FrameError
from server.limits import TokenBucket

MAX_CHARS = 500  # characters (code points) after normalising; a chat line, not a letter
SEATS = "seats"
SPECTATORS = "spectators"
CHANNELS = (SEATS, SPECTATORS)
SPECTATOR = "spectator"  # the author of every message in the spectators' channel
# Format characters that reorder or hide text (a name could be made to read backwards): refused
# like control characters. Joiners (U+200D, for emoji) and other format characters are kept.
BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def channel_of(seat: str | None) -> str:
    """The channel a socket greeted as ``seat`` (None: a spectator) writes to and reads."""
    return SPECTATORS if seat is None else SEATS


def author_of(seat: str | None) -> str:
    return SPECTATOR if seat is None else seat


def normalise(text: str) -> str:
    """The text as kept and shown, or FrameError (``chat-empty``, ``chat-too-long``, ``chat-control-character``).

    NFC first, so the same words typed on two keyboards count alike; control characters are
    refused before surrounding white space is dropped (a newline is refused, not trimmed); the
    bound counts code points after that.
    """
    text = unicodedata.normalize("NFC", text)
    for position, char in enumerate(text):
        category = unicodedata.category(char)
        if category in ("Cc", "Cs") or char in BIDI:
            raise FrameError("chat-control-character", f"$.text[{position}]: a chat message may hold no control "
                             f"character, got U+{ord(char):04X}")
    text = text.strip()
    if not text:
        raise FrameError("chat-empty", "$.text: a chat message needs at least one character that is not white space")
    if len(text) > MAX_CHARS:
        raise FrameError("chat-too-long", f"$.text: a chat message may hold at most {MAX_CHARS} characters "
                         f"(after normalising), got {len(text)}")
    return text


class ChatRate(TokenBucket):
    """A token bucket: ``per_minute`` messages a minute, at most ``burst`` at once."""

    __slots__ = ()

    def __init__(self, per_minute: int, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        TokenBucket.__init__(self, per_minute, 60, burst, clock)

    @property
    def per_minute(self) -> int:
        return self.amount

    def wait(self) -> int:
        """Whole seconds until the next message may go (at least 1)."""
        return max(1, int((1 - self.tokens) * 60 / self.per_minute + 0.999))


def line_dict(line: object) -> dict:
    return {"n": line.n, "channel": line.channel, "author": line.author, "text": line.text, "at": line.at}


def chat_frame(line: object) -> str:
    """``{"type": "chat", "n", "channel", "author", "text", "at"}``: one message, to its channel's sockets."""
    return json.dumps(dict(line_dict(line), type="chat"), ensure_ascii=False, separators=(",", ":"))


def history_frame(channel: str, lines: list) -> str:
    """``{"type": "chat-history", "channel", "messages": [...]}``: the last messages, oldest first, after hello."""
    return json.dumps({"type": "chat-history", "channel": channel, "messages": [line_dict(line) for line in lines]},
                      ensure_ascii=False, separators=(",", ":"))
