"""STYLE habit 12, shared by every game's ``test_clauses.py``: every clause of a catalogue is named by a
test (``mv_6a`` in the name, ``MV-6a`` in its docstring) and, where a game asks for it, cited in its code.

Each function returns what is missing (an empty list when all is well), so a test asserts ``== []`` and a
failure names the clauses or tests at fault.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path


def token(clause: str) -> str:
    """``MV-6a`` -> ``mv_6a``: how a clause ID stands in a test's name."""
    return clause.lower().replace("-", "_")


def clause_tests(folder: Path, extra: tuple = ()) -> dict:
    """Test function name -> docstring, over every test module of ``folder`` (and the ``extra`` modules)."""
    tests = {}
    for path in sorted(folder.glob("test_*.py")) + list(extra):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                tests[node.name] = ast.get_docstring(node) or ""
    return tests


def clauses_no_test_names(ids: list, tests: dict) -> list:
    """The clauses that no test both names (``_mv_6a_`` in its name) and cites (``MV-6a`` in its docstring)."""
    return [clause for clause in ids
            if not [name for name, doc in tests.items() if f"_{token(clause)}_" in f"{name}_" and clause in doc]]


def named_tests_not_citing_their_clause(ids: list, tests: dict, exact: bool = False) -> list:
    """The tests called ``test_mv_6a_…`` whose docstring does not say ``MV-6a`` (with ``exact``, not followed by
    a digit either, so ``AH-1`` is not cited by ``AH-10``)."""
    wrong = []
    for name, doc in tests.items():
        for clause in ids:
            if name.startswith(f"test_{token(clause)}_"):
                cited = re.search(rf"{re.escape(clause)}(?![0-9])", doc) if exact else clause in doc
                if not cited:
                    wrong.append(name)
    return wrong


def clauses_not_cited_in_code(ids: list, sources: Path) -> list:
    """The clauses whose ID appears nowhere in the ``*.py`` of ``sources`` (the catalogue ``clauses.py`` aside)
    as itself, not followed by a digit."""
    code = "\n".join(path.read_text(encoding="utf-8") for path in sorted(sources.glob("*.py"))
                     if path.name != "clauses.py")
    return [clause for clause in ids if not re.search(rf"{re.escape(clause)}(?![0-9])", code)]
