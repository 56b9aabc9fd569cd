"""Fold a log to a sequence number and print {"seq", "hash", "state"} as one JSON line.

Every logged hash up to SEQ is checked against the replayed state on the way: a log whose
hash differs is refused, naming the seq (exit status 3). For the whole log, the printed hash is
the last envelope's.
"""

from __future__ import annotations

import argparse
import json

from events.canonical import state_hash
from events.record import to_data
from server import logfile
from server.cli.status import BAD_ARGS, SUCCESS, CommandError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", metavar="LOG", help="a log file (JSON Lines)")
    parser.add_argument("--to", type=int, metavar="SEQ", help="fold up to and including this seq (default: the last)")


def run(args: argparse.Namespace) -> int:
    game, envelopes = logfile.read(args.log)
    to = len(envelopes) if args.to is None else args.to
    if not 1 <= to <= len(envelopes):
        raise CommandError(f"replay: --to {to}: {args.log} holds seq 1 to {len(envelopes)}", BAD_ARGS)
    table = logfile.restore(game, envelopes[:to], args.log)
    print(json.dumps({"seq": to, "hash": state_hash(table.state), "state": to_data(table.state)}, ensure_ascii=False))
    return SUCCESS
