"""Validate data once, at load, with a path: helpers for boards and scenarios.

Every check raises ``ScenarioError`` naming where (``$.board.locations[3].corruption``), what was
expected and what was found, so a person editing a JSON file knows exactly what to fix. Rules
code downstream never re-checks for missing keys.

Bounded work (issue 12): a value past a documented upper bound (a number, a list's length, a
string's length, the nesting of the JSON) raises ``BoundError``, a ScenarioError with its own code
(``scenario-out-of-bounds``), so no scenario can make one command search, draw or loop for long.
The bounds every scenario shares are ``SHAPE``, ``TEXT_LIMIT`` and ``COORD_LIMIT`` here; each game
keeps its own in a ``BOUNDS`` dict in its ``board.py``, and ``docs/<game>-format.md`` lists them.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


#: The shape of any scenario, whatever its game: nesting depth, any string (``notes`` included), any
#: list, any object's keys, and all values together. The built-in scenarios stay far below.
SHAPE = {"depth": 16, "text": 2000, "items": 1000, "keys": 100, "values": 20000}
#: Any string read with ``text`` (names, ids, titles): at most this many characters.
TEXT_LIMIT = 200
#: Any coordinate read with ``pair``: at most this far from 0 either way.
COORD_LIMIT = 10_000
#: A seat's name read with ``seat_name``, in every game: at most this many characters.
SEAT_NAME_LIMIT = 24


class ScenarioError(ValueError):
    """A board or scenario that cannot be played, with the path to the fault."""

    code = "bad-scenario"

    def __init__(self, path: str, message: str) -> None:
        ValueError.__init__(self, f"{path}: {message}")
        self.path = path
        self.message = message


class BoundError(ScenarioError):
    """A value past a documented bound: too large a number, too long a list or string, too deep."""

    code = "scenario-out-of-bounds"


def check_shape(value: Any, path: str = "$", limits: dict = SHAPE) -> None:
    """Refuse JSON nested deeper, or with longer strings, lists or objects, than ``limits`` allow.

    Walked with an explicit stack, not recursion, so a value nested thousands deep is refused
    with its path instead of raising RecursionError. Runs before any other check of a scenario.
    """
    stack = [(value, path, 0)]
    count = 0
    while stack:
        item, where, depth = stack.pop()
        count += 1
        if count > limits["values"]:
            raise BoundError(path, f"expected at most {limits['values']} values in all, got more")
        if depth > limits["depth"]:
            raise BoundError(where, f"expected at most {limits['depth']} levels of nesting, got more")
        if isinstance(item, str):
            if len(item) > limits["text"]:
                raise BoundError(where, f"expected a string of at most {limits['text']} characters, got {len(item)}")
        elif isinstance(item, list):
            if len(item) > limits["items"]:
                raise BoundError(where, f"expected at most {limits['items']} items, got {len(item)}")
            for i in range(len(item) - 1, -1, -1):
                stack.append((item[i], f"{where}[{i}]", depth + 1))
        elif isinstance(item, dict):
            if len(item) > limits["keys"]:
                raise BoundError(where, f"expected at most {limits['keys']} keys, got {len(item)}")
            for key in sorted(item, key=str, reverse=True):
                if not isinstance(key, str):
                    raise ScenarioError(where, f"expected string keys, got {found(key)}")
                if len(key) > limits["text"]:
                    raise BoundError(where, f"expected a key of at most {limits['text']} characters, got {len(key)}")
                stack.append((item[key], f"{where}.{key}", depth + 1))


def found(value: Any) -> str:
    """How a JSON value reads in an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def obj(value: Any, path: str, required: tuple = (), optional: tuple = ()) -> dict:
    """An object with these keys and no others (a misspelt key is an error, not a default)."""
    if not isinstance(value, dict):
        raise ScenarioError(path, f"expected an object, got {found(value)}")
    for key in required:
        if key not in value:
            raise ScenarioError(path, f"missing required key {key!r}")
    allowed = set(required) | set(optional)
    for key in sorted(value):
        if key not in allowed:
            raise ScenarioError(f"{path}.{key}", f"unknown key (expected one of: {', '.join(sorted(allowed))})")
    return value


def integer(value: Any, path: str, low: int | None = None, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ScenarioError(path, f"expected an integer, got {found(value)}")
    if low is not None and value < low:
        raise ScenarioError(path, f"expected an integer >= {low}, got {value}")
    if high is not None and value > high:
        raise BoundError(path, f"expected an integer <= {high}, got {value}")
    return value


def text(value: Any, path: str, choices: tuple = (), limit: int = TEXT_LIMIT) -> str:
    if not isinstance(value, str) or not value:
        raise ScenarioError(path, f"expected a non-empty string, got {found(value)}")
    if len(value) > limit:
        raise BoundError(path, f"expected a string of at most {limit} characters, got {len(value)}")
    if choices and value not in choices:
        raise ScenarioError(path, f"expected one of {', '.join(choices)}, got {found(value)}")
    return value


#: The languages a scenario's ``titles`` may give its title in (the pages' own: client/i18n).
TITLE_LANGUAGES = ("en", "fr", "ru")


def titles(value: Any, path: str) -> dict:
    """A scenario's optional ``titles``: its title in the readers' languages, ``{"en": …, "fr": …, "ru": …}``
    (any of the three, each a text), which a page shows in its reader's language instead of ``title``."""
    data = obj(value, path, (), TITLE_LANGUAGES)
    if not data:
        raise ScenarioError(path, f"expected a title in at least one of {', '.join(TITLE_LANGUAGES)}, got an empty object")
    return {lang: text(data[lang], f"{path}.{lang}") for lang in TITLE_LANGUAGES if lang in data}


def boolean(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise ScenarioError(path, f"expected true or false, got {found(value)}")
    return value


def array(value: Any, path: str, min_items: int = 0, max_items: int | None = None) -> list:
    if not isinstance(value, list):
        raise ScenarioError(path, f"expected a list, got {found(value)}")
    if len(value) < min_items:
        raise ScenarioError(path, f"expected at least {min_items} items, got {len(value)}")
    if max_items is not None and len(value) > max_items:
        if max_items == min_items:  # a fixed shape, such as a pair: not a bound
            raise ScenarioError(path, f"expected at most {max_items} items, got {len(value)}")
        raise BoundError(path, f"expected at most {max_items} items, got {len(value)}")
    return value


def pair(value: Any, path: str, limit: int = COORD_LIMIT) -> tuple:
    """Two integers, such as hex coordinates [q, r], each from -limit to limit."""
    items = array(value, path, 2, 2)
    out = (integer(items[0], f"{path}[0]"), integer(items[1], f"{path}[1]"))
    for i, number in enumerate(out):
        if not -limit <= number <= limit:
            raise BoundError(f"{path}[{i}]", f"expected an integer from {-limit} to {limit}, got {number}")
    return out


def seat_name(value: Any, path: str) -> str:
    """A seat's name: 1 to ``SEAT_NAME_LIMIT`` letters, digits, ``-`` or ``_`` (it travels in links and frames)."""
    name = text(value, path)
    if len(name) > SEAT_NAME_LIMIT or not all(ch.isalnum() or ch in "-_" for ch in name):
        raise ScenarioError(path, f"a seat name is 1–{SEAT_NAME_LIMIT} letters, digits, - or _, got {name!r}")
    return name


def listed_once(key: Any, taken: Any, path: str, name: str, among: str = "") -> None:
    """Refuse ``key`` when ``taken`` holds it already: ``{name} is listed twice [in {among}]`` at ``path``.

    ``taken`` is what the loader has read so far (a set, a dict, or a list of keys); the loader adds
    ``key`` to it itself, as it keeps the item in its own order or with its own value.
    """
    if key in taken:
        raise ScenarioError(path, f"{name} is listed twice in {among}" if among else f"{name} is listed twice")
