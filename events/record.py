"""Immutable records: the one base class of every event, command and state.

BRYTHON.md measured why this is a plain class: frozen ``dataclasses`` with ``slots=True`` cost
~200 ms per class at page load, while a class with ``__slots__``, ``__match_args__`` and an
explicit ``__init__`` costs ~0.1 ms. A record's class body is its field list; its ``__init__``
assigns each field once (``self.round = round``) and then, in CPython, the record refuses
assignment, so no reducer can mutate a state it was given.

How it refuses, cheaply: a class whose ``__setattr__`` raises can only be filled through
``object.__setattr__``, ~80 ns a field in CPython, most of a copy's cost (issue 13). So each
record class has an *unsealed twin* (``cls._twin``: a subclass adding no slot, with the plain
``__setattr__``), on which ``__init__``'s assignments are CPython's quickest; ``Record.__new__``
builds the twin, runs the class's ``__init__`` on it and then makes it an instance of the class
itself (``__class__``, which the twin's identical layout allows). What comes out is an ordinary
instance of the record's class: ``type(record)`` is the class, and assignment raises. Brython
skips all of it: it has no such cost to avoid, and its tests fold through the same reducers
that CPython's tests check (a mutation there would be a bug CPython's run shows first).

Fields hold only ``int``, ``str``, ``bool``, ``None``, tuples of them and nested records (no
floats: they serialise differently in Brython; no sets: their order differs between runtimes).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


_set = object.__setattr__
# Reading every field of a record, for ``but`` and ``fields``. CPython does it in C with
# ``operator.attrgetter`` (``but`` of a 15-field state ~10% cheaper than a ``getattr`` per field,
# issue 13). Brython's ``operator`` is Python that imports ``functools`` (~0.8 s to compile at page
# load, BRYTHON.md), and its ``getattr`` costs about four times ``object.__getattribute__``: the
# browser reads field by field with the latter (a 15-field state: ~7 µs against ~30 µs a copy,
# docs/performance.md). Which runtime this is shows in a difference BRYTHON.md measured (no
# ``sys`` in ``events/``): a Brython instance of a class with empty ``__slots__`` has a ``__dict__``.
_get = object.__getattribute__
_new = object.__new__


class _Probe:
    __slots__ = ()


IN_BRYTHON = hasattr(_Probe(), "__dict__")  # also for ``events.canonical``'s CPython-only paths

if IN_BRYTHON:
    _reader = None
else:
    from operator import attrgetter as _reader


class Record:
    """Base of every record. Subclasses declare ``TYPE`` (a stable tag) and ``__slots__``.

    A record that arrives from outside (a command) also declares ``KINDS``, each field's kind as
    a short string (see ``kind_problem``): ``Registry.build`` refuses data of another shape with
    its path, so the rules never check a field's type.

    The base's two slots are not fields but the memo of ``events.canonical`` (a record never
    changes, so neither does its text): ``_json`` holds the record's canonical JSON, and
    ``_parts`` either its ``"key":value`` pieces (in the text's sorted order, once hashed) or,
    on a copy made by ``but``, the record it was copied from (or that one's own source, if it is
    an unhashed copy), whose texts the copy reuses, once they exist, for every field that still
    holds the same object. So a state hash after an event rebuilds
    only the fields the event changed, not the whole state (issue 16). ``_sha`` is set on a record
    hashed whole by ``state_hash`` in CPython: its digest, and the sha256 states of the text's
    stable beginnings that its copies hash on from (``events.canonical._record_hash``).
    """

    __slots__ = ("_json", "_parts", "_sha")
    TYPE = ""
    _kinds: dict | None = None  # KINDS parsed, set per class by __init_subclass__
    DEFAULTS: dict | None = None  # a class's fields that data may leave out, with their values

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Brython makes a new mappingproxy at each ``cls.__dict__`` and raises (then catches) an
        # AttributeError for a ``getattr`` default: read the class's own names once (issue 16).
        own = cls.__dict__
        if "_is_twin" in own:  # a record class's unsealed twin, made below: not a record of its own
            super().__init_subclass__(**kwargs)
            return
        # A subclass without its own __slots__ would read the base's and lose its field list.
        if "__slots__" not in own:
            raise TypeError(f"record {cls.__name__} must declare __slots__ (its field list)")
        cls._positions = {name: index for index, name in enumerate(cls.__slots__)}  # for ``but``
        cls._defaulted = cls.DEFAULTS is not None  # for ``Registry.build``
        # For ``but`` and ``fields``: every field at once (CPython; a tuple only with two or more).
        cls._read = _reader(*cls.__slots__) if _reader is not None and len(cls.__slots__) > 1 else None
        # For ``events.canonical``: its tables of the class's keys, made by ``layout`` on the first
        # hash of one of its records (most classes a page defines are never hashed: ~0.35 ms a
        # class in Brython, ~12 ms of a play page's imports, issue 16).
        cls._keyed = None
        kinds = own.get("KINDS")
        cls._kinds = None  # not inherited: a subclass has fields of its own
        if kinds is not None:
            if sorted(kinds) != sorted(cls.__slots__):
                raise TypeError(f"record {cls.__name__}: KINDS must name every field once ({', '.join(cls.__slots__)})")
            cls._kinds = {name: parse_kind(kind) for name, kind in kinds.items()}  # for ``Registry.build``
        if not IN_BRYTHON:
            # CPython: the class's own ``__init__`` fills its unsealed twin (``__new__``, ``but``).
            init = own.get("__init__")
            if init is not None:
                cls._fill = init
                cls.__init__ = object.__init__  # ``__new__`` has filled the record already
            cls._twin = type(cls.__name__, (cls,), {
                "__slots__": (), "_is_twin": True, "__module__": cls.__module__,
                "__setattr__": object.__setattr__, "__delattr__": object.__delattr__,
            })
        super().__init_subclass__(**kwargs)

    _keyed: tuple | None = None

    if not IN_BRYTHON:
        def _fill(self) -> None:
            """A record class without an ``__init__`` of its own (nor its bases) has no fields to fill."""

        def __new__(cls, *args: Any, **kwargs: Any) -> Any:
            # The twin takes the assignments, then becomes the class (the module docstring says why).
            self = _new(cls._twin)
            cls._fill(self, *args, **kwargs)
            self.__class__ = cls
            return self

        def __setattr__(self, name: str, value: Any) -> None:
            raise AttributeError(f"{type(self).__name__} is immutable: cannot set {name!r}")

        def __delattr__(self, name: str) -> None:
            raise AttributeError(f"{type(self).__name__} is immutable: cannot delete {name!r}")

    def fields(self) -> tuple:
        """The field values in declaration order."""
        read = self._read
        if read is not None:
            return read(self)
        return tuple([_get(self, name) for name in self.__slots__])

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.fields() == other.fields()  # type: ignore[attr-defined]

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.fields()))

    def __repr__(self) -> str:
        parts = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({parts})"

    def but(self, **changes: Any) -> Any:
        """A copy with some fields changed: ``state.but(round=2)``. The one way to copy a record.

        Every record's ``__init__`` takes its fields in ``__slots__`` order (``Registry.build``
        relies on it too), so the copy goes through ``__init__`` and keeps its checks; given a
        record's own fields it keeps their values (it may normalise, never change them), which is
        what lets the incremental hash spell only the fields ``changes`` names (issue 16).
        """
        cls = type(self)
        read = cls._read
        positions = cls._positions  # type: ignore[attr-defined]
        if read is not None:
            # CPython: a ``for`` over the changes, a foreign field found by its KeyError (a ``try``
            # costs nothing there), instead of a membership test and a ``popitem`` per change
            # (issue 13, docs/performance.md).
            args = [*read(self)]
            try:
                for name in changes:
                    args[positions[name]] = changes[name]
            except KeyError:
                raise TypeError(f"{cls.__name__} has no field {name!r}") from None
        else:
            args = [_get(self, name) for name in cls.__slots__]
            # Brython: ``changes`` is this call's own dict, emptied with popitem, as Brython ends a
            # ``for`` loop with a StopIteration it raises and catches (~7 µs), and a missed
            # ``dict.get`` with a KeyError.
            while changes:
                name, value = changes.popitem()
                if name not in positions:
                    raise TypeError(f"{cls.__name__} has no field {name!r}")
                args[positions[name]] = value
        # The record whose texts the copy may reuse: self, if hashed or made by its constructor
        # (then it may be hashed later), else the one self would have reused: never a longer chain.
        # Set on every copy, so the next ``but`` of a fold finds it without a missing-slot error.
        # In CPython a copy of self keeps, with it, the names it was given (the call's own dict,
        # self under the key ""): its hash spells those fields alone (``events.canonical``).
        # The commonest first: self an unhashed copy (CPython: its dict); the slot read as an
        # attribute, not by ``getattr`` (~1% of a mecha fold).
        try:
            source = self._parts
        except AttributeError:  # made by its constructor
            source = None
        if type(source) is dict:
            link = source[""]
        elif source is None or type(source) is tuple:
            if read is not None:
                changes[""] = self
                link = changes
            else:
                link = self
        else:
            link = source
        if read is not None:  # CPython: ``__new__``'s steps without its call, the link set while unsealed
            copy = _new(cls._twin)
            cls._fill(copy, *args)
            copy._parts = link
            copy.__class__ = cls
        else:
            copy = cls(*args)
            _set(copy, "_parts", link)
        return copy

    def to_data(self) -> dict:
        """Plain JSON-able data: ``{"type": TYPE, field: value, ...}`` (tuples become lists)."""
        data: dict = {"type": self.TYPE}
        for name in self.__slots__:
            data[name] = to_data(getattr(self, name))
        return data


def layout(cls: type) -> tuple:
    """``events.canonical``'s tables of a record class, set on it on first use: ``_keyed``, the keys
    in sorted order with each field's name (None: "type"); ``_placed``, each field with its place in
    that order and its key; ``_where``, the same by field name. Returns ``_keyed``."""
    keys = sorted(("type",) + tuple(cls.__slots__))
    cls._placed = tuple((name, keys.index(name), f'"{name}":') for name in cls.__slots__)
    cls._where = {name: (keys.index(name), f'"{name}":') for name in cls.__slots__}
    cls._keyed = keyed = tuple((None if name == "type" else name, f'"{name}":') for name in keys)
    return keyed


class Worked(Record):
    """Base of a record that keeps what is worked out from its fields once (a board's neighbour table).

    ``_near`` is not a field: never hashed, compared, copied by ``but`` or sent; ``worked_out`` sets
    it once, from the fields alone, which never change. Every ``decide`` and ``legal`` of a game asks
    for its board's table, and the states of a game share one board (issue 16).
    """

    __slots__ = ("_near",)


def worked_out(record: Worked, build: Any) -> Any:
    """``build(record)``, worked out on the first call for this record and kept in its ``_near``;
    callers only read what it returns."""
    try:
        return record._near
    except AttributeError:  # not worked out yet: once per record (a board), so Brython's raise is no cost
        table = build(record)
        _set(record, "_near", table)
        return table


def to_data(value: Any) -> Any:
    """Turn a record, tuple or scalar into JSON-able builtins."""
    if isinstance(value, Record):
        return value.to_data()
    if isinstance(value, tuple):
        return [to_data(item) for item in value]
    if value is None or isinstance(value, (bool, int, str)):
        return value
    raise TypeError(f"a record field may hold int, str, bool, None, tuple or record, not {type(value).__name__}")


class Registry:
    """Stable type tag -> record class, for one game's events or commands (or the core's)."""

    def __init__(self, kind: str, classes: tuple = (), core: Registry | None = None) -> None:
        self.kind = kind
        self.by_type: dict[str, type] = {}
        self.core = core  # the engine's own records (SecretRevealed), found by every game; not in by_type
        for cls in classes:
            self.add(cls)

    def add(self, cls: type) -> type:
        tag = cls.TYPE  # type: ignore[attr-defined]
        if not tag:
            raise ValueError(f"{cls.__name__} has no TYPE tag")
        if tag in self.by_type and self.by_type[tag] is not cls:
            raise ValueError(f"{self.kind} type {tag!r} is registered twice")
        self.by_type[tag] = cls
        return cls

    def names(self) -> list[str]:
        return sorted(self.by_type)

    def __contains__(self, tag: str) -> bool:
        return tag in self.by_type or (self.core is not None and tag in self.core)

    def build(self, data: Any, path: str = "$") -> Record:
        """Rebuild a record from ``to_data`` output; errors name the path and what was wrong."""
        if not isinstance(data, dict):
            raise DecodeError(f"{path}: expected an object with a 'type', got {_kind(data)}")
        tag = data.get("type")
        cls = self.by_type.get(tag) if isinstance(tag, str) else None
        if cls is None and self.core is not None and isinstance(tag, str) and tag in self.core:
            return self.core.build(data, path)
        if cls is None:
            known = ", ".join(self.names())
            raise DecodeError(f"{path}.type: unknown {self.kind} type {tag!r} (known: {known})")
        slots = cls.__slots__
        # "type" and each field once: no key can be foreign (a class with DEFAULTS may miss some).
        if len(data) != len(slots) + 1 or cls._defaulted:
            extra = sorted(key for key in data if key != "type" and key not in slots)
            if extra:
                raise DecodeError(f"{path}: {self.kind} {tag!r} has no field {extra[0]!r}")
        kinds = cls._kinds
        args = []
        for name in slots:
            if name in data:
                value = data[name]
                if kinds is not None:
                    kind = kinds[name]
                    scalar = _TYPES[kind[0]] if kind[0] in _TYPES else None  # no missed get: see ``but``
                    if (type(value) is not scalar) if scalar is not None else not _fits(value, kind):
                        raise DecodeError(kind_problem(value, kind, f"{path}.{name}"))
                    if scalar is not None:  # a well-formed scalar needs no conversion
                        args.append(value)
                        continue
                kind = type(value)
                if kind is str or kind is int or value is None or kind is bool:  # as from_data, without a call
                    args.append(value)
                else:
                    args.append(from_data(value, self, f"{path}.{name}"))
            elif cls._defaulted and name in cls.DEFAULTS:
                args.append(cls.DEFAULTS[name])
            else:
                # A field missing with the count right means a foreign one took its place: name that first.
                extra = sorted(key for key in data if key != "type" and key not in slots)
                if extra:
                    raise DecodeError(f"{path}: {self.kind} {tag!r} has no field {extra[0]!r}")
                raise DecodeError(f"{path}: {self.kind} {tag!r} is missing field {name!r}")
        try:
            return cls(*args)
        except (TypeError, ValueError) as error:
            raise DecodeError(f"{path}: {self.kind} {tag!r}: {error}") from None


def from_data(value: Any, registry: Registry | None = None, path: str = "$") -> Any:
    """Lists become tuples; objects with a registered ``type`` become records."""
    if isinstance(value, list):
        items = []  # a loop, not a generator: Brython pays for a generator's frames and its StopIteration
        index = 0
        for item in value:
            kind = type(item)
            if kind is int or kind is str or item is None or kind is bool:
                items.append(item)
            else:
                items.append(from_data(item, registry, f"{path}[{index}]"))
            index += 1
        return tuple(items)
    if isinstance(value, dict):
        if registry is None:
            raise DecodeError(f"{path}: nested objects need a registry")
        return registry.build(value, path)
    if isinstance(value, float):
        raise DecodeError(f"{path}: floats are not allowed (got {value!r})")
    return value


# --- kinds of fields --------------------------------------------------------------------------------
#
# A kind is ``int``, ``str``, ``bool`` or ``None``; ``tuple[K, ...]`` (any number of K),
# ``tuple[K1, K2]`` (exactly those), or alternatives ``K1 | K2``. Parsed once per string into
# ("int",) / ("tuple", item) / ("fixed", items) / ("or", alternatives), and checked on the plain
# data a registry builds from (lists for tuples), before anything reaches the rules.

_SCALARS = {"int": "an integer", "str": "a string", "bool": "true or false", "None": "null"}
_TYPES = {"int": int, "str": str, "bool": bool}
_PARSED: dict = {}


def parse_kind(text: str) -> tuple:
    """``"tuple[int, int] | None"`` -> its tree; ``TypeError`` for a kind this module does not know."""
    tree = _PARSED.get(text)
    if tree is None:
        tokens = text.replace("[", " [ ").replace("]", " ] ").replace(",", " , ").replace("|", " | ").split()
        tree, rest = _parse_alternatives(tokens, text)
        if rest:
            raise TypeError(f"kind {text!r}: unexpected {rest[0]!r}")
        _PARSED[text] = tree
    return tree


def _parse_alternatives(tokens: list, text: str) -> tuple:
    options = []
    while True:
        option, tokens = _parse_one(tokens, text)
        options.append(option)
        if not tokens or tokens[0] != "|":
            break
        tokens = tokens[1:]
    return (options[0] if len(options) == 1 else ("or", tuple(options))), tokens


def _parse_one(tokens: list, text: str) -> tuple:
    if not tokens:
        raise TypeError(f"kind {text!r} ends too soon")
    head = tokens[0]
    if head in _SCALARS:
        return (head,), tokens[1:]
    if head != "tuple" or tokens[1:2] != ["["]:
        raise TypeError(f"kind {text!r}: unknown kind {head!r} (int, str, bool, None, tuple[...])")
    tokens = tokens[2:]
    items = []
    while True:
        if tokens[:1] == ["..."]:
            if len(items) != 1 or tokens[1:2] != ["]"]:
                raise TypeError(f"kind {text!r}: '...' follows the one item kind: tuple[K, ...]")
            return ("tuple", items[0]), tokens[2:]
        item, tokens = _parse_alternatives(tokens, text)
        items.append(item)
        if tokens[:1] == ["]"]:
            return ("fixed", tuple(items)), tokens[1:]
        if tokens[:1] != [","]:
            raise TypeError(f"kind {text!r}: expected ',' or ']'")
        tokens = tokens[1:]


def kind_problem(value: Any, kind: tuple, path: str) -> str | None:
    """What is wrong with plain data ``value`` for a parsed ``kind``, with its path; None if nothing."""
    if isinstance(value, float):  # said as from_data says it, whatever the kind
        return f"{path}: floats are not allowed (got {value!r})"
    tag = kind[0]
    if tag == "or":
        for option in kind[1]:
            if _fits_outside(value, option):
                return kind_problem(value, option, path)
        return f"{path}: expected {describe_kind(kind)}, got {_shown(value)}"
    if not _fits_outside(value, kind):
        return f"{path}: expected {describe_kind(kind)}, got {_shown(value)}"
    if tag == "tuple":
        for index, item in enumerate(value):
            problem = kind_problem(item, kind[1], f"{path}[{index}]")
            if problem is not None:
                return problem
    elif tag == "fixed":
        for index, item in enumerate(value):
            problem = kind_problem(item, kind[1][index], f"{path}[{index}]")
            if problem is not None:
                return problem
    return None


def _fits(value: Any, kind: tuple) -> bool:
    """Whether plain data ``value`` is of ``kind``: the quick yes of every well-formed command."""
    tag = kind[0]
    if tag in _TYPES:
        return type(value) is _TYPES[tag]
    if tag == "None":
        return value is None
    if tag == "or":
        for option in kind[1]:
            if _fits(value, option):
                return True
        return False
    if not isinstance(value, (list, tuple)):
        return False
    if tag == "tuple":
        item = kind[1]
        for entry in value:
            if not _fits(entry, item):
                return False
        return True
    items = kind[1]
    if len(value) != len(items):
        return False
    for index, entry in enumerate(value):
        if not _fits(entry, items[index]):
            return False
    return True


def _fits_outside(value: Any, kind: tuple) -> bool:
    """Whether ``value`` has the outer shape of ``kind`` (its items are checked apart)."""
    tag = kind[0]
    scalar = _TYPES.get(tag)
    if scalar is not None:
        return type(value) is scalar  # a bool is no integer here, though Python says True == 1
    if tag == "None":
        return value is None
    if tag == "tuple":
        return isinstance(value, (list, tuple))
    return isinstance(value, (list, tuple)) and len(value) == len(kind[1])  # "fixed" ("or" is never nested)


def describe_kind(kind: tuple) -> str:
    """A kind in words, as an error message says what it expected."""
    tag = kind[0]
    if tag in _SCALARS:
        return _SCALARS[tag]
    if tag == "tuple":
        return "a list"
    if tag == "fixed":
        return f"a list of {len(kind[1])}"
    words = [describe_kind(option) for option in kind[1]]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _shown(value: Any) -> str:
    """A value as JSON would write it, cut short: what a client sent, quoted in an error."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if type(value) is int:
        return str(value) if -10**18 < value < 10**18 else "an integer of over 18 digits"
    if type(value) is str:
        text = value if len(value) <= 40 else value[:40] + "…"
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)}"
    return _kind(value)


class DecodeError(ValueError):
    """Data that does not describe a known record, with a path to the fault."""


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    names = {bool: "a boolean", int: "an integer", str: "a string", list: "a list", tuple: "a list", float: "a number",
             dict: "an object"}
    return names.get(type(value), type(value).__name__)
