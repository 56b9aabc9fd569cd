"""Reliability tests: real servers (``tests/server_fixture.py``), real sockets, counted.

Counts come from ``report.count(quick, soak)``: ``make test`` runs the quick ones (the whole
package in a few minutes on 2 cores), ``make soak`` (CHRONICLE_SOAK=1) the full ones. At the end
of the session the table of what was tried and what held is printed and written out
(``docs/reliability.md`` under soak, ``.pytest_cache/reliability.md`` otherwise).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.reliability import report
from tests.server_fixture import chronicle_server_factory, server_fixture  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent.parent
_outcomes: dict[str, str] = {}
_started = time.monotonic()


#: One server for tests that need fresh games, not a fresh process; limits high enough for floods (the
#: fuzzer sends ~100 faulty frames a socket, test_access hundreds of refused commands).
quiet_server = server_fixture(
    "reliability", {"CHRONICLE_COMMANDS_PER_SECOND": "100000", "CHRONICLE_COMMAND_BURST": "100000",
                    "CHRONICLE_FAULTS_PER_MINUTE": "100000"}, scope="package")




@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    result = outcome.get_result()
    if result.when == "call" or result.failed:
        if result.failed or item.nodeid not in _outcomes:
            _outcomes[item.nodeid] = result.outcome


def pytest_sessionfinish(session, exitstatus):
    if not report.ROWS:
        return
    text = report.document(_outcomes, time.monotonic() - _started, session.testsfailed)
    target = ROOT / "docs" / "reliability.md" if report.SOAK else ROOT / ".pytest_cache" / "reliability.md"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    session.config._reliability_target = target


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not report.ROWS:
        return
    terminalreporter.section("reliability")
    terminalreporter.write_line(report.table())
    target = getattr(config, "_reliability_target", None)
    if target is not None:
        terminalreporter.write_line(f"written to {target}")
