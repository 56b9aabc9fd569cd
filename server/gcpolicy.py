"""The cyclic garbage collector's pauses, kept short while the heap grows (issue 16, the p99).

CPython's collector stops the whole process while it runs. Its full (generation 2) collection
visits every tracked object, and runs each time the old generation has grown by a quarter. A
server that keeps its games in memory (every Table's envelopes, the last ``KEEP_STATES`` states
of each game for its undos, the connections) grows its heap for as long as games grow, so it
runs full collections again and again over a heap that keeps getting larger: at 100 games × 12
sockets, after ten seconds of play, ~250,000 objects and pauses of 60–190 ms, each of which
delays every command in flight (docs/performance.md, "The latency tail").

``install()`` (``chronicle serve`` calls it) keeps the young generations as they are and makes the
full collections incremental in the simplest way: after each full collection it freezes what
survived (``gc.freeze``: the survivors of a full collection are reachable, none is garbage), so
the next full collection visits only what is younger than the last one. Objects frozen are still
freed the ordinary way, by their reference count, the moment nothing refers to them; only a
*cycle* among them that becomes garbage later waits, for the next whole collection: once the
frozen part has grown to ``WHOLE_AFTER`` times what the last whole collection left (or
``WHOLE_EVERY`` collections have passed), the next full collection is whole again (everything
unfrozen first). So the heap is still collected whole at each of its doublings, as CPython does
at each quarter, and garbage cycles among old objects live at most until then: memory held by
them is bounded by the live heap's own size in objects (not in bytes: one dead socket can hold
~100 KB of zlib state, which is why ``server/wsprotocol.py`` leaves no cycle behind a closed one).

``CHRONICLE_GC_FREEZE=0`` leaves the collector as CPython has it (for comparisons).
"""

from __future__ import annotations

import gc
from collections.abc import Mapping

from server.switches import switch_from_env

VARIABLE = "CHRONICLE_GC_FREEZE"
WHOLE_AFTER = 2  # a whole collection once the frozen part has doubled since the last one
WHOLE_EVERY = 64  # and at least every this many full collections


def enabled_from_env(environ: Mapping[str, str] | None = None) -> bool:
    """``CHRONICLE_GC_FREEZE``: 1 (the default) freezes the survivors of each full collection, 0 does not."""
    return switch_from_env(VARIABLE, environ)


class FreezeSurvivors:
    """The ``gc.callbacks`` entry: after a full collection, freeze its survivors, or, when a whole
    collection is due, unfreeze everything so that the next full collection sees all of it."""

    __slots__ = ("base", "since_whole", "whole", "frozen", "held")

    def __init__(self) -> None:
        self.base = 0  # objects the last whole collection left (0: none yet, the first is whole)
        self.since_whole = 0  # full collections since the last whole one
        self.whole = True  # whether the collection now running sees the whole heap
        self.frozen = 0  # freezes done (for tests and the bench)
        self.held = 0  # objects frozen since the last whole collection (an upper bound: some have died since)

    def __call__(self, phase: str, info: dict) -> None:
        if phase != "stop" or info.get("generation") != 2:
            return
        # What this freeze adds: the survivors the collection just visited, counted before they are
        # frozen. Not ``gc.get_freeze_count()``, which walks the whole frozen part (1 ms at 250,000
        # objects, 67 ms at 6 million, found in review) inside every pause.
        added = sum(len(gc.get_objects(generation)) for generation in (0, 1, 2))
        gc.freeze()
        self.frozen += 1
        if self.whole:
            self.base, self.held, self.since_whole = added, added, 0
        else:
            self.held += added
            self.since_whole += 1
        self.whole = self.held >= WHOLE_AFTER * max(self.base, 1) or self.since_whole + 1 >= WHOLE_EVERY
        if self.whole:
            gc.unfreeze()  # the next full collection visits everything, cycles among old objects included


_installed: FreezeSurvivors | None = None


def install(environ: Mapping[str, str] | None = None) -> FreezeSurvivors | None:
    """Freeze the survivors of each full collection in this process (unless ``CHRONICLE_GC_FREEZE=0``);
    the policy installed, or None. Installing twice keeps the first."""
    global _installed
    if not enabled_from_env(environ):
        return None
    if _installed is None:
        _installed = FreezeSurvivors()
        gc.callbacks.append(_installed)
    return _installed


def uninstall() -> None:
    """Remove the policy and unfreeze everything (tests)."""
    global _installed
    if _installed is not None:
        gc.callbacks.remove(_installed)
        _installed = None
    gc.unfreeze()
