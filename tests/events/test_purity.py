"""``events/`` stays pure and cheap for Brython (DESIGN.md, BRYTHON.md), checked by reading its source.

* Standard library only: every import is ``events`` or in ``sys.stdlib_module_names``.
* No module that costs page load at run time (``typing``, ``dataclasses``, ``enum``, ``random``,
  ``functools``, ``collections``), except under ``if TYPE_CHECKING:``.
* No I/O, clock or sockets: no ``open(``/``print(``/``input(``, no ``time``, ``datetime``, ``os``,
  ``socket`` (nor ``sys``, ``pathlib``, ``subprocess``, ``threading``, ``asyncio``), anywhere.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

EVENTS = Path(__file__).resolve().parents[2] / "events"
COSTLY = {"typing", "dataclasses", "enum", "random", "functools", "collections"}
IMPURE = {"time", "datetime", "os", "socket", "sys", "pathlib", "subprocess", "threading", "asyncio", "io", "shutil"}
IMPURE_CALLS = {"open", "print", "input", "exec", "eval", "__import__"}


def problems(source: str, name: str = "<source>") -> list[str]:
    """Every purity fault of one module, as "file:line: what"."""
    tree = ast.parse(source, name)
    found: list[str] = []

    def visit(node: ast.AST, typing_only: bool) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, True)
            for child in node.orelse:
                visit(child, typing_only)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for module in _modules(node):
                top = module.split(".")[0]
                where = f"{name}:{node.lineno}"
                if top != "events" and top not in sys.stdlib_module_names:
                    found.append(f"{where}: imports {module}, outside the standard library")
                if top in IMPURE:
                    found.append(f"{where}: imports {module} (I/O, clock or process state)")
                if top in COSTLY and not typing_only:
                    found.append(f"{where}: imports {module} at run time (costly in Brython)")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in IMPURE_CALLS:
            found.append(f"{name}:{node.lineno}: calls {node.func.id}()")
        for child in ast.iter_child_nodes(node):
            visit(child, typing_only)

    visit(tree, False)
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _modules(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:  # a relative import stays inside events/
        return ["events"]
    return [node.module or ""]


MODULES = sorted(EVENTS.rglob("*.py"))


def test_the_scan_finds_every_module():
    names = {path.relative_to(EVENTS).as_posix() for path in MODULES}
    assert {"record.py", "rng.py", "log.py", "games/mecha/rules.py", "geometry/graph.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.relative_to(EVENTS).as_posix())
def test_events_module_is_pure(path):
    assert problems(path.read_text(encoding="utf-8"), path.relative_to(EVENTS.parent).as_posix()) == []


def test_the_checker_catches_what_it_should():
    """Check the checker: a module breaking each rule is flagged, and TYPE_CHECKING imports are not."""
    source = """
import msgspec
import os.path
from collections import abc
from . import rules
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any
    from collections.abc import Callable
else:
    import enum
def f():
    import random
    from functools import reduce
    import time
    return open("x")
"""
    assert problems(source, "m.py") == [
        "m.py:2: imports msgspec, outside the standard library",
        "m.py:3: imports os.path (I/O, clock or process state)",
        "m.py:4: imports collections at run time (costly in Brython)",
        "m.py:11: imports enum at run time (costly in Brython)",
        "m.py:13: imports random at run time (costly in Brython)",
        "m.py:14: imports functools at run time (costly in Brython)",
        "m.py:15: imports time (I/O, clock or process state)",
        "m.py:16: calls open()",
    ]
