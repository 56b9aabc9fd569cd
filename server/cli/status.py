"""Exit statuses of the ``chronicle`` command, and the one error that carries one.

A script that runs ``chronicle audit`` needs to tell "the log diverged" from "the file is not a
log" without parsing text, so each outcome has its own number, named once here (after pip's
``status_codes.py``). ``2`` is what argparse and most Unix tools use for a bad command line.
"""

from __future__ import annotations

SUCCESS = 0  # the command did what it was asked (a play whose commands were rejected included)
ERROR = 1  # an unexpected failure, i.e. a bug: ``--debug`` shows the traceback
BAD_ARGS = 2  # the command line is wrong: unknown command or option, a value that does not parse
DIVERGED = 3  # a log does not reproduce: a logged hash or an audited event differs from today's rules
BAD_INPUT = 4  # a file cannot be read or is not valid: scenario, log, commands
UNAVAILABLE = 5  # the command is registered but cannot be loaded (e.g. ``serve`` not installed)
UNREVEALED = 6  # an audit checked all it could, but random outcomes wait for the game's secret (CORE-2)
LOADED = 7  # a log replays, but some of its outcomes were loaded (``play --dice``), not drawn from its secret (CORE-1)
INTERRUPTED = 130  # Ctrl-C, as shells report SIGINT (128 + 2)
BROKEN_PIPE = 141  # stdout was closed early (`| head`), as shells report SIGPIPE (128 + 13)


class CommandError(Exception):
    """A failure the user can fix, told in one line; ``main`` prints it and exits with ``status``."""

    def __init__(self, message: str, status: int = BAD_INPUT) -> None:
        Exception.__init__(self, message)
        self.status = status
