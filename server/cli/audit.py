"""Re-decide every logged command under today's rules and compare with what the log says.

Each command is decided again with the seed (and loaded dice) it was logged with; its events
and every state hash must come out the same. Prints "N events verified" (exit 0) or the first
divergence, "seq S: logged ..., produced ..." (exit status 3). A log played under another rules
version is named as such either way: a divergence then may be a rules change, not a forgery.
"""

from __future__ import annotations

import argparse

from events.log import audit
from server import logfile
from server.cli.status import DIVERGED, SUCCESS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", metavar="LOG", help="a log file (JSON Lines)")


def run(args: argparse.Namespace) -> int:
    game, envelopes = logfile.read(args.log)
    version = envelopes[0].event.rules_version
    if version != game.rules_version:
        print(f"log was played under {version}, today's rules are {game.rules_version}")
    divergence = audit(game, envelopes)
    if divergence is not None:
        print(divergence)
        return DIVERGED
    print(f"{len(envelopes)} events verified")
    return SUCCESS
