"""What the games' bounds tests share (issue 12): a format doc's Bounds table, and hostile edits of a scenario.

Each game keeps its bounds in ``BOUNDS`` (``events/games/<g>/board.py``) and lists them in the
"Bounds" table of ``docs/<g>-format.md``; ``documented`` reads that table back so a test can hold
the two equal. ``builtin_faults`` loads every built-in scenario of a game and gives the errors
(none, if all are within the bounds). ``hostile`` applies one edit to a copy of a built-in scenario and returns the
error its loader raises (or None), so a test can check the code and the ``$`` path.
"""

from __future__ import annotations

import copy
from pathlib import Path

from events.validate import BoundError, ScenarioError
from server import scenarios

DOCS = Path(__file__).resolve().parents[2] / "docs"


def documented(game: str) -> dict:
    """``{bound name: number}`` from the "## Bounds" table of ``docs/<game>-format.md``."""
    text = (DOCS / f"{game}-format.md").read_text(encoding="utf-8")
    section = text.split("\n## Bounds\n", 1)[1].split("\n## ", 1)[0]
    out = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].startswith("`") and cells[1].replace("−", "-").lstrip("-").isdigit():
            out[cells[0].strip("`")] = int(cells[1])
    return out


def builtin(name: str) -> dict:
    """A built-in scenario with its files inlined, as the shell reads it."""
    return scenarios.load(name)[1]


def builtin_faults(game: str, load) -> list:
    """``["<name>: <error>", ...]`` for the built-in scenarios of ``game`` that ``load`` refuses."""
    faults = []
    for name in scenarios.builtin_scenarios():
        if name.startswith(f"{game}/"):
            try:
                load(builtin(name))
            except ScenarioError as error:
                faults.append(f"{name}: {error}")
    return faults


def put(data: object, keys: tuple, value: object) -> None:
    """Set ``data[k0][k1]...[kn] = value`` (keys are dict keys or list indexes)."""
    for key in keys[:-1]:
        data = data[key]
    data[keys[-1]] = value


def hostile(load, name: str, keys: tuple, value: object) -> ScenarioError | None:
    """The error ``load`` raises for built-in scenario ``name`` with one value replaced, or None."""
    data = copy.deepcopy(builtin(name))
    put(data, keys, value)
    try:
        load(data)
    except ScenarioError as error:
        return error
    return None


def assert_refused_at(load, name: str, keys: tuple, value: object, where: str, bound: bool) -> None:
    """``load`` refuses built-in scenario ``name`` with one hostile value at ``where`` (or inside it):
    a BoundError (``scenario-out-of-bounds``) when ``bound``, else a plain ScenarioError (``bad-scenario``)."""
    error = hostile(load, name, keys, value)
    assert error is not None, (keys, value)
    assert error.path.startswith(where), (error.path, where)
    assert isinstance(error, BoundError) is bound, error
    assert error.code == ("scenario-out-of-bounds" if bound else "bad-scenario")


def json_path(keys: tuple) -> str:
    """``("seats", 0, "range")`` -> ``$.seats[0].range``."""
    return "$" + "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in keys)
