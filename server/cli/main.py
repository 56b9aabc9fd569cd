"""``chronicle``'s entry point: find the subcommand, parse its arguments, run it, map failures.

Every failure ends as one line on stderr, ``chronicle: error: <what>``, and a named exit status
(``server.cli.status``): a person reading a terminal wants the fact, not a stack. ``--debug``
(anywhere before ``--``) adds the traceback, for the bug reports.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import sys
import traceback

from server.cli import COMMANDS
from server.cli.status import (
    BAD_ARGS,
    BAD_INPUT,
    BROKEN_PIPE,
    DIVERGED,
    ERROR,
    INTERRUPTED,
    SUCCESS,
    UNAVAILABLE,
    CommandError,
)

PROG = "chronicle"


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    options = argv[: argv.index("--")] if "--" in argv else argv
    debug = "--debug" in options  # known before parsing, so a failure while parsing is covered too
    _tolerate_narrow_terminals()
    try:
        return _dispatch(argv)
    except SystemExit as stop:  # argparse's --help, or a command that calls sys.exit itself
        if stop.code is None:
            return SUCCESS
        return stop.code if isinstance(stop.code, int) else ERROR
    except BrokenPipeError:
        # The reader left (`| head`): nothing to tell it. Point stdout at /dev/null so that
        # Python's own flush at exit does not complain about the closed pipe a second time.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE
    except (Exception, KeyboardInterrupt) as error:
        return _fail(error, debug)


def _dispatch(argv: list[str]) -> int:
    index = 0
    while index < len(argv) and argv[index].startswith("-"):
        option = argv[index]
        if option in ("-h", "--help"):
            print(_overview())
            return SUCCESS
        if option != "--debug":
            raise CommandError(f"unknown option {option!r} before the command (try {PROG} --help)", BAD_ARGS)
        index += 1
    if index == len(argv):
        raise CommandError(f"no command given (commands: {', '.join(COMMANDS)}; try {PROG} --help)", BAD_ARGS)
    name = argv[index]
    module = _load(name)
    parser = _Parser(
        prog=f"{PROG} {name}",
        description=module.__doc__ or COMMANDS[name].summary,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    parser.add_argument("--debug", action="store_true", help="on failure, show the traceback as well")
    module.add_arguments(parser)
    args = parser.parse_args(argv[index + 1 :])
    status = module.run(args)
    return SUCCESS if status is None else status


def _load(name: str):
    """The subcommand's module, imported now (not before: ``--help`` stays fast)."""
    info = COMMANDS.get(name)
    if info is None:
        close = difflib.get_close_matches(name, COMMANDS, n=1)
        hint = f"maybe you meant {close[0]!r}?" if close else f"commands: {', '.join(COMMANDS)}"
        raise CommandError(f"unknown command {name!r} ({hint})", BAD_ARGS)
    try:
        module = importlib.import_module(info.module)
    except ModuleNotFoundError as error:
        if error.name == info.module:
            raise CommandError(f"command {name!r} is not available: module {info.module} is not installed",
                               UNAVAILABLE) from error
        if error.name and not error.name.startswith(("server.", "events.")):
            raise CommandError(f"command {name!r} needs the Python package {error.name!r}, which is not installed",
                               UNAVAILABLE) from error
        raise
    for function in ("add_arguments", "run"):
        if not callable(getattr(module, function, None)):
            raise CommandError(f"command {name!r} is not available: {info.module} has no {function}()", UNAVAILABLE)
    return module


class _Parser(argparse.ArgumentParser):
    """argparse, except that a bad argument raises instead of printing usage and exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        command = self.prog.removeprefix(f"{PROG} ")
        raise CommandError(f"{command}: {message} (try {self.prog} --help)", BAD_ARGS)


def _overview() -> str:
    width = max(len(name) for name in COMMANDS)
    lines = [f"usage: {PROG} [--debug] <command> [options]", "", "commands:"]
    lines += [f"  {name:<{width}}  {info.summary}" for name, info in COMMANDS.items()]
    lines += ["", f"'{PROG} <command> --help' describes a command; --debug shows tracebacks on failure."]
    return "\n".join(lines)


def _fail(error: BaseException, debug: bool) -> int:
    status, message = _classify(error)
    if debug:
        traceback.print_exception(error)
    elif status == ERROR:
        message += " (rerun with --debug for the traceback)"
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    print(f"{PROG}: error: {' | '.join(lines) or type(error).__name__}", file=sys.stderr)
    return status


def _classify(error: BaseException) -> tuple[int, str]:
    """Exception -> (exit status, message). Only the failures listed here are the user's to fix."""
    # Imported here, not at the top, so that `chronicle --help` loads no game code.
    from events.log import LogError
    from events.record import DecodeError
    from events.validate import ScenarioError
    from server.logfile import LogFileError
    from server.scenarios import ScenarioFileError

    if isinstance(error, CommandError):
        return error.status, str(error)
    if isinstance(error, KeyboardInterrupt):
        return INTERRUPTED, "interrupted"
    if isinstance(error, LogError):
        return DIVERGED, str(error)
    if isinstance(error, (LogFileError, ScenarioFileError, ScenarioError, DecodeError)):
        return BAD_INPUT, str(error)
    if isinstance(error, OSError):
        where = f"{error.filename}: " if error.filename else ""
        return BAD_INPUT, f"{where}{error.strerror or error}"
    return ERROR, f"internal error: {type(error).__name__}: {error}"


def _tolerate_narrow_terminals() -> None:
    """Print '→' as an escape rather than crash on a terminal whose encoding lacks it."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


if __name__ == "__main__":
    sys.exit(main())
