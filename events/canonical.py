"""Canonical JSON and the state hash that proves two runtimes folded the same game.

BRYTHON.md checked that ``hashlib.sha256`` over JSON with sorted keys, no spaces and only
ints, strings, booleans, None, lists and objects gives the same digest in CPython and Brython.
"""

from __future__ import annotations

import hashlib
import json

from events.record import to_data

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def canonical_json(data: Any) -> str:
    """One spelling per value: sorted keys, no spaces, ASCII only."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def state_hash(state: Any) -> str:
    """sha256 of the state's canonical JSON, in hex."""
    return hashlib.sha256(canonical_json(to_data(state)).encode("ascii")).hexdigest()
