"""What an event says, as data: catalogue keys with named parameters, rendered in any language later.

Each game's describer (``events/games/<g>/words.py``) turns an event, with the state before it,
into a ``Msg`` for its one-line description and a list of ``Msg`` for its trace (the rules'
reasoning). A message holds no words, only a key of the message catalogue
(``client/i18n/<lang>.json``) and its parameters; a parameter is an ``int``, a ``str`` shown as it
is (a number, a hex, a die face), or a part that the renderer puts in the reader's words:

- ``Msg``: another message (``the Camp``, ``Location 4``);
- ``Name(game, key, fallback, held)``: a place's, card's or monster's name: the data's own in the
  reader's language (``held``), else ``client/i18n/names/``, else the data's name ``fallback``;
- ``Seat(seat)``: a seat's name (``seat.<seat>``: ``red``, ``rouge``, ``красный``);
- ``Word(prefix, code)``: a code the rules write (``insane``, ``orange``) as ``prefix + code`` if
  the catalogue has it, else as written;
- ``Join(separator, items)``: parts joined by a separator, itself a string or a ``Msg``.

The browser's log renders them with ``client.i18n.say`` in the page's language, ``chronicle
explain`` with the same function over ``en.json`` (``server/i18n.py``), so both say the same.
Pure, stdlib-free plain classes: nothing here costs a page anything (BRYTHON.md).
"""

from __future__ import annotations


class Msg:
    """A catalogue key with its named parameters; a plural message counts with ``n``."""

    __slots__ = ("key", "params")

    def __init__(self, key: str, **params: object) -> None:
        self.key = key
        self.params = params

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Msg) and other.key == self.key and other.params == self.params

    def __repr__(self) -> str:
        return f"Msg({self.key!r}, {self.params!r})"


class Name:
    """A name to look up in the reader's language: the data's own name in that language where the
    data holds one (``held``: ``(language, name)`` pairs, echo's Russian), else the catalogue's
    (``client/i18n/names/<game>.<lang>.json``, by ``key``), else ``fallback`` (the data's name)."""

    __slots__ = ("game", "key", "fallback", "held")

    def __init__(self, game: str, key: object, fallback: object = None, held: tuple = ()) -> None:
        self.game = game
        self.key = str(key)
        self.fallback = self.key if fallback is None else str(fallback)
        self.held = held

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Name) and (other.game, other.key, other.fallback, other.held) == (
            self.game, self.key, self.fallback, self.held)

    def __repr__(self) -> str:
        return f"Name({self.game!r}, {self.key!r}, {self.fallback!r}, {self.held!r})"


class Seat:
    """A seat's name in the reader's language."""

    __slots__ = ("seat",)

    def __init__(self, seat: object) -> None:
        self.seat = seat

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Seat) and other.seat == self.seat

    def __repr__(self) -> str:
        return f"Seat({self.seat!r})"


class Word:
    """A code the rules write, worded by the message ``prefix + code`` where the catalogue has one."""

    __slots__ = ("prefix", "code")

    def __init__(self, prefix: str, code: object) -> None:
        self.prefix = prefix
        self.code = code

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Word) and (other.prefix, other.code) == (self.prefix, self.code)

    def __repr__(self) -> str:
        return f"Word({self.prefix!r}, {self.code!r})"


class Join:
    """Parts joined by a separator (a string, or a ``Msg`` such as `` or ``)."""

    __slots__ = ("separator", "items")

    def __init__(self, separator: object, items: object) -> None:
        self.separator = separator
        self.items = tuple(items)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Join) and (other.separator, other.items) == (self.separator, self.items)

    def __repr__(self) -> str:
        return f"Join({self.separator!r}, {self.items!r})"


def messages_in(part: object) -> list:
    """Every ``Msg`` in a part, itself first (for tests: each key must be in every catalogue)."""
    out = []
    stack = [part]
    while stack:
        item = stack.pop()
        if isinstance(item, Msg):
            out.append(item)
            stack.extend(reversed(list(item.params.values())))
        elif isinstance(item, Join):
            stack.extend(reversed((item.separator,) + item.items))
    return out


def words_in(part: object) -> list:
    """Every ``Word`` in a part (for tests: a code's message is in every catalogue or in none)."""
    out = []
    stack = [part]
    while stack:
        item = stack.pop()
        if isinstance(item, Word):
            out.append(item)
        elif isinstance(item, Msg):
            stack.extend(item.params.values())
        elif isinstance(item, Join):
            stack.extend((item.separator,) + item.items)
    return out
