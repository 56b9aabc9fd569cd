"""``chronicle audit`` of a corpus log, and the report of one audited under another rules version.

Shared by ``tests/corpus/test_old_versions.py`` and ``tests/test_cli_rules.py`` (issue 13): both
read ``audit LOG --rules VERSION``'s report of the first divergence line by line.
"""

from __future__ import annotations

from server.cli.main import main
from server.cli.status import DIVERGED


def run(capsys, *args) -> tuple:
    """``chronicle`` with these arguments, in process: (status, captured stdout and stderr)."""
    status = main([*map(str, args)])
    return status, capsys.readouterr()


def audit(capsys, *args) -> tuple:
    """``chronicle audit`` with these arguments: (status, captured stdout and stderr)."""
    return run(capsys, "audit", *args)


def assert_diverges(capsys, log, version: str, *, played: str, at: str, logged: str, produced: str, clause: str,
                    changed: str) -> list:
    """Audit ``log`` under ``version`` and check each line of its report of the first divergence:
    the versions, ``diverges at <at>``, the logged event (holding ``logged``), the produced one
    (holding ``produced``), ``clause: <clause>`` and the note that begins ``<version> changed
    <changed>``. The report's lines are returned for any further check."""
    status, out = audit(capsys, log, "--rules", version)
    lines = out.out.splitlines()
    assert status == DIVERGED, lines
    assert lines[0] == f"log played under {played}, audited under {version}"
    assert lines[1] == f"diverges at {at}"
    assert lines[2].startswith(f"  logged under {played}: ") and logged in lines[2]
    assert lines[3].startswith(f"  produced under {version}: ") and produced in lines[3]
    assert lines[4] == f"  clause: {clause}"
    assert lines[5].startswith(f"  {version} changed {changed}")
    return lines
