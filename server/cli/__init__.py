"""The ``chronicle`` command line: one registry of subcommands, each in its own module (after pip).

``COMMANDS`` maps a subcommand's name to its module and a one-line summary. The summary lives
here so that ``chronicle --help`` lists every command without importing any of them; ``main``
imports only the module of the command being run.

A subcommand module provides two functions (and may define anything else privately)::

    def add_arguments(parser: argparse.ArgumentParser) -> None:
        '''Declare the command's arguments and options on ``parser``.'''

    def run(args: argparse.Namespace) -> int:
        '''Do the work; return an exit status from ``server.cli.status``.'''

- The module docstring is the command's ``--help`` description; the summary is ``COMMANDS``'s.
- ``main`` builds the parser (``prog="chronicle <name>"``, with ``--debug`` already added); an
  argument error becomes a one-line ``chronicle: error: ...`` with status ``BAD_ARGS``.
- ``run`` reports a failure the user can fix by raising ``server.cli.status.CommandError(message,
  status)``; ``main`` prints it as one line. Any other exception is a bug: status ``ERROR``,
  with the traceback only under ``--debug``. ``run`` may block (``serve`` does) and should
  return ``SUCCESS`` when it ends normally.
- Output goes to stdout; stderr is for the one-line error and short notes (``chronicle: note:``).
"""

from __future__ import annotations

from typing import NamedTuple


class CommandInfo(NamedTuple):
    module: str
    summary: str


COMMANDS: dict[str, CommandInfo] = {
    "serve": CommandInfo("server.cli.serve", "serve the lobby and games over HTTP and WebSocket"),
    "play": CommandInfo("server.cli.play", "play a game headless from a scenario or a log, one JSON line per command"),
    "replay": CommandInfo(
        "server.cli.replay", "fold a log to a sequence number, verifying every hash, and print its hash"
    ),
    "explain": CommandInfo("server.cli.explain", "show the command, rule clauses and reasoning behind a logged event"),
    "audit": CommandInfo(
        "server.cli.audit", "re-decide every logged command under today's rules; report the first divergence"
    ),
    "ask": CommandInfo("server.cli.ask", "answer a rule question about a scenario (paths, reach, line of sight, dice)"),
    "rules-check": CommandInfo(
        "server.cli.rules_check", "list, for every stored game, whether it replays unchanged under the newest rules"
    ),
    "upgrade": CommandInfo(
        "server.cli.upgrade", "move a stored game to the newest rules version, if it replays unchanged under it"
    ),
    "fork": CommandInfo("server.cli.fork", "copy a log up to a command boundary, to continue it as a what-if branch"),
}
