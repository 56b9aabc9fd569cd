"""A server's error codes in the player's words, for every page (the lobby imports nothing heavier).

Each code a player can meet has its words in the catalogue as ``error.<code>``; any other code is
shown as the server wrote it, with its code. docs/protocol.md says when each is sent.
"""

from __future__ import annotations

from client.i18n import t

# The codes with words of their own (docs/protocol.md).
ERRORS = {"bad-token", "no-such-game", "rate-limited", "too-many-connections", "too-many-games",
          "store-unavailable", "game-unavailable", "not-connected", "frame-too-large", "internal-error",
          "hello-timeout", "evicted", "replaced", "bad-seq", "too-many-creations", "too-many-open-games",
          "unsupported-media-type", "body-too-large", "bad-limit", "bad-cursor", "method-not-allowed",
          "too-many-faults", "too-busy", "worker-lost", "too-many-opens", "too-many-reads", "no-person-seat",
          "too-many-undos", "too-many-open-games-per-address"}


def error_text(code: object, message: object, game: str = "") -> str:
    """A server's error in words: the codes a player can meet are in the catalogue."""
    if code in ERRORS:
        return t("error." + str(code), game=game)
    return t("error.other", code=code, message=message)
