"""axe-core (the npm package) run inside a page: the accessibility violations a test must not see.

``make axe`` (a step of ``make test``) installs the pinned version with npm into
``$CHRONICLE_AXE_DIR`` (default ``~/.cache/chronicle/axe-core``), never into the repository. The
script goes in through Playwright's ``evaluate``, which the page's Content-Security-Policy does
not apply to, so the page runs under its real policy while axe looks at it.
"""

from __future__ import annotations

import os
from pathlib import Path

VERSION = "4.10.3"  # also in the Makefile's axe target
SERIOUS = ("serious", "critical")


def axe_dir() -> Path:
    return Path(os.environ.get("CHRONICLE_AXE_DIR") or Path.home() / ".cache" / "chronicle" / "axe-core")


def source() -> str:
    path = axe_dir() / "node_modules" / "axe-core" / "axe.min.js"
    if not path.is_file():
        raise AssertionError(f"axe-core is not installed at {path}: run `make axe` (make test does)")
    return path.read_text(encoding="utf-8")


def violations(page) -> list:
    """Every axe violation of the page as it is now: (impact, rule id, help, the first nodes)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(source())
    found = page.evaluate("""async () => {
        const result = await window.axe.run(document, {resultTypes: ['violations']});
        return result.violations.map(v => [v.impact, v.id, v.help,
            v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + (n.failureSummary || '').slice(0, 160))]);
    }""")
    return [tuple(item) for item in found]


def serious(page) -> list:
    """The violations whose impact is serious or critical (the ones the browser tests refuse)."""
    return [item for item in violations(page) if item[0] in SERIOUS]
