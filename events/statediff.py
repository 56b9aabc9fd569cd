"""Field by field, what changed between two folded states: the dispute panel's "before and after".

``diff(before, after)`` walks two states (records, tuples and scalars, as every state of every
game is made) side by side and answers each difference as a ``Change``: the path to it in the
spelling a reader can follow into the state (``figures[2].hex``, ``stacks[0][1]``), and the value
before and after as canonical JSON text (None where the part does not exist on that side: a
tuple that grew or shrank). States share the parts a fold did not touch, so a part that is the
same object on both sides is skipped without a look inside, and a whole game's state compares in
the time of the few fields its events changed. Pure and stdlib-only: it runs in the browser
(``client/dispute.py``) as well as in CPython.

``limit`` bounds the answer (a scenario can be large; a reader cannot take in thousands of
lines): past it, ``Diff.more`` counts the changes left out.
"""

from __future__ import annotations

from events.canonical import record_json
from events.record import Record

LIMIT = 200  # changes listed at most; the rest are counted


class Change:
    """One difference: ``path`` and the value ``before``/``after`` as canonical JSON (None: absent)."""

    __slots__ = ("path", "before", "after")
    __match_args__ = __slots__

    def __init__(self, path: str, before: str | None, after: str | None) -> None:
        self.path = path
        self.before = before
        self.after = after

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Change) and self.path == other.path and self.before == other.before
                and self.after == other.after)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self.path, self.before, self.after))

    def __repr__(self) -> str:
        return f"Change({self.path!r}, {self.before!r}, {self.after!r})"

    def __str__(self) -> str:
        return f"{self.path}: {_shown(self.before)} → {_shown(self.after)}"


class Diff(list):
    """The changes found, in the order of the states' fields; ``more``: how many were left out."""

    def __init__(self) -> None:
        list.__init__(self)
        self.more = 0


def diff(before: object, after: object, limit: int = LIMIT) -> Diff:
    """Every difference between ``before`` and ``after``, at most ``limit`` of them listed."""
    found = Diff()
    _walk(before, after, "", found, limit)
    return found


def _walk(a: object, b: object, path: str, found: Diff, limit: int) -> None:
    if a is b:
        return
    if isinstance(a, Record) and type(a) is type(b):
        for name in a.__slots__:
            _walk(getattr(a, name), getattr(b, name), f"{path}.{name}" if path else name, found, limit)
        return
    if type(a) is tuple and type(b) is tuple:
        # A tuple that grew or shrank (a token taken from a list, one added to a stack) is lined
        # up on what both keep at their start and their end, so one removal reads as one change.
        start, end = 0, 0
        if len(a) != len(b):
            shorter = min(len(a), len(b))
            while start < shorter and a[start] == b[start]:
                start += 1
            while end < shorter - start and a[len(a) - 1 - end] == b[len(b) - 1 - end]:
                end += 1
        for index in range(start, max(len(a), len(b)) - end):
            where = f"{path}[{index}]"
            if index >= len(a) - end:
                _add(found, limit, where, None, record_json(b[index]))
            elif index >= len(b) - end:
                _add(found, limit, where, record_json(a[index]), None)
            else:
                _walk(a[index], b[index], where, found, limit)
        return
    if type(a) is type(b) and a == b:
        return
    _add(found, limit, path or "$", record_json(a), record_json(b))


def _add(found: Diff, limit: int, path: str, before: str | None, after: str | None) -> None:
    if len(found) < limit:
        found.append(Change(path, before, after))
    else:
        found.more += 1


def _shown(text: str | None) -> str:
    return "—" if text is None else text
