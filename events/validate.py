"""Validate data once, at load, with a path: helpers for boards and scenarios.

Every check raises ``ScenarioError`` naming where (``$.board.locations[3].corruption``), what was
expected and what was found, so a person editing a JSON file knows exactly what to fix. Rules
code downstream never re-checks for missing keys.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class ScenarioError(ValueError):
    """A board or scenario that cannot be played, with the path to the fault."""

    def __init__(self, path: str, message: str) -> None:
        ValueError.__init__(self, f"{path}: {message}")
        self.path = path
        self.message = message


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
        raise ScenarioError(path, f"expected an integer <= {high}, got {value}")
    return value


def text(value: Any, path: str, choices: tuple = ()) -> str:
    if not isinstance(value, str) or not value:
        raise ScenarioError(path, f"expected a non-empty string, got {found(value)}")
    if choices and value not in choices:
        raise ScenarioError(path, f"expected one of {', '.join(choices)}, got {found(value)}")
    return value


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
        raise ScenarioError(path, f"expected at most {max_items} items, got {len(value)}")
    return value


def pair(value: Any, path: str) -> tuple:
    """Two integers, such as hex coordinates [q, r]."""
    items = array(value, path, 2, 2)
    return (integer(items[0], f"{path}[0]"), integer(items[1], f"{path}[1]"))
