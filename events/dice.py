"""The game's secret: the commitment ``GameStarted`` carries, and each command's dice derived from it.

Dice nobody can foresee and everyone can check afterwards (issue 12; clauses CORE-1 and CORE-2 of
``events.rules.CORE``):

- the shell draws a **secret** of 256 bits (64 lowercase hex digits) from ``secrets`` when it
  creates a game, keeps it in the store and sends it to nobody while the game runs;
- ``GameStarted.commitment`` is ``commitment(secret, game_id)``: the SHA-256, in hex, of the
  ASCII text ``chronicle-commitment-v1:<game id>:<secret>``; it binds the game to one secret
  without telling it;
- the generator of the command at position ``seq`` of the effective history (the seq its first
  event gets, in a log without undos; CORE-7, ``events.undo``) is ``command_rng(secret, seq)``: SplitMix64 (``events.rng.Rng``) started from the first 8 bytes,
  big-endian, of HMAC-SHA-256 keyed with the secret's 32 bytes over the ASCII text
  ``chronicle-dice-v1:<seq>``. The whole secret is the key, so nothing truncates it; HMAC's
  outputs for two seqs are unrelated, so one command's dice say nothing about another's;
- when the game ends, ``SecretRevealed`` publishes the secret: anyone recomputes the commitment
  and re-decides every command (``events.log.audit``).

A local game (``chronicle play --seed S``) takes ``local_secret(S)``: the SHA-256 of
``chronicle-local-seed-v1:<S>``. It is foreseeable by whoever knows S, which is the point of a
seed; it is revealed and audited like any other.

A server's page never draws; the pass-and-play page (``/offline``) does, in the browser, with
``hmac_sha256`` below: ``hashlib`` only, which is already loaded for state hashes
(``events.canonical``), so drawing costs no import at all.
"""

from __future__ import annotations

import hashlib

from events.rng import MASK, Rng, _mix

SECRET_DIGITS = 64  # 256 bits, in lowercase hex
_HEX = "0123456789abcdef"
# HMAC's inner and outer pads as translation tables: ``block.translate(_INNER)`` is each byte XOR 0x36,
# in one call instead of a loop of 64 in Python (the server derives a generator per command: issue 16).
_INNER = bytes([byte ^ 0x36 for byte in range(256)])
_OUTER = bytes([byte ^ 0x5C for byte in range(256)])


def check_secret(secret: object) -> str:
    """The secret itself if it is 64 lowercase hex digits; ValueError says what was wrong."""
    if not isinstance(secret, str):
        raise ValueError(f"a game secret is a string of {SECRET_DIGITS} hex digits, got {type(secret).__name__}")
    if len(secret) != SECRET_DIGITS or secret.strip(_HEX):  # every character a hex digit: nothing left
        raise ValueError(f"a game secret is {SECRET_DIGITS} lowercase hex digits, got {len(secret)} characters")
    return secret


def commitment(secret: str, game_id: str) -> str:
    """SHA-256 hex of ``chronicle-commitment-v1:<game id>:<secret>`` (UTF-8; the secret is ASCII)."""
    text = "chronicle-commitment-v1:" + game_id + ":" + check_secret(secret)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def command_rng(secret: str, seq: int) -> Rng:
    """The generator of the command at position ``seq`` of the effective history (CORE-7): with no
    undo logged, the seq of its first event."""
    key = bytes.fromhex(check_secret(secret))
    digest = hmac_sha256(key, ("chronicle-dice-v1:" + str(seq)).encode("ascii"))
    return Rng(int.from_bytes(digest[:8], "big"))


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """HMAC-SHA-256 (RFC 2104) of ``message`` under a key of at most 64 bytes, on ``hashlib`` alone.

    The same bytes as ``hmac.new(key, message, hashlib.sha256).digest()`` (``tests/events`` checks
    it), written out because Brython's ``hmac`` breaks on ``hashlib.sha256`` (it feeds one digest
    into another hash and fails, measured with brython 3.15 on the pass-and-play page, which draws
    its dice in the browser: docs/offline.md); the hex round trip keeps to what Brython's
    ``hashlib`` does right.
    """
    if len(key) > 64:
        raise ValueError(f"a key of at most 64 bytes, got {len(key)}")
    block = key + bytes(64 - len(key))
    inner = hashlib.sha256(block.translate(_INNER) + message).hexdigest()
    return bytes.fromhex(hashlib.sha256(block.translate(_OUTER) + bytes.fromhex(inner)).hexdigest())


def local_secret(seed: int) -> str:
    """A local game's secret, made from its seed (``chronicle play --seed``): foreseeable by design."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"a seed is an integer, got {seed!r}")
    return hashlib.sha256(("chronicle-local-seed-v1:" + str(seed)).encode("ascii")).hexdigest()


def legacy_rng(seed: int, seq: int) -> Rng:
    """The generator of a command in a log made before commitments (``GameStarted.seed``): the
    old derivation, kept so that such logs still replay and audit exactly. Its dice could be
    foreseen by anyone who read the seed; no new game is made this way."""
    return Rng(_mix((seed & MASK) ^ _mix(seq & MASK)))


class SealedRng(Rng):
    """The generator of a command whose secret is not known here: any draw raises ``SecretNeeded``.

    An audit of a running game's log decides each command with it: a command that never draws is
    re-decided in full, one that draws is counted as waiting for the reveal, never guessed.
    """

    def __init__(self) -> None:
        Rng.__init__(self, 0)

    def next64(self) -> int:
        raise SecretNeeded("this command draws, and the game's secret is not revealed yet")

    def below(self, n: int) -> int:
        return self.next64()


class SecretNeeded(Exception):
    """A draw was asked of a ``SealedRng``."""
