"""Seat tokens: the secret in each join link.

A token is ``secrets.token_urlsafe(32)`` (256 bits). The store keeps only its sha256, so a copy
of the database lets nobody take a seat; the comparison goes through ``hmac.compare_digest`` so
its timing says nothing about how much of a guess was right.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 32
GAME_ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
GAME_ID_LENGTH = 10


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def seat_for_token(token: str, token_hashes: dict) -> str | None:
    """The seat whose hash matches; every seat is compared, so timing does not reveal which."""
    presented = token_hash(token)
    found = None
    for seat, stored in token_hashes.items():
        if hmac.compare_digest(presented, stored):
            found = seat
    return found


def new_game_id() -> str:
    """``g-`` and 10 random URL-safe characters (60 bits)."""
    return "g-" + "".join(secrets.choice(GAME_ID_ALPHABET) for _ in range(GAME_ID_LENGTH))
