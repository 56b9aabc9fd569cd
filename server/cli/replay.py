"""Fold a log to a sequence number and print {"seq", "hash"} as one JSON line ("state" too with --state).

Every logged hash up to SEQ is checked against the replayed state on the way: a log whose
hash differs is refused, naming the seq (exit status 3). For the whole log, the printed hash is
the last envelope's. The state is left out unless asked for: a late game's state is long, and
the hash alone proves the fold reached the logged state.
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
    parser.add_argument("--state", action="store_true", help="print the folded state as well (key \"state\")")


def run(args: argparse.Namespace) -> int:
    game, envelopes = logfile.read(args.log)
    to = len(envelopes) if args.to is None else args.to
    if not 1 <= to <= len(envelopes):
        raise CommandError(f"replay: --to {to}: {args.log} holds seq 1 to {len(envelopes)}", BAD_ARGS)
    table = logfile.restore(game, envelopes[:to], args.log)
    line = {"seq": to, "hash": state_hash(table.state)}
    if args.state:
        line["state"] = to_data(table.state)
    print(json.dumps(line, ensure_ascii=False))
    return SUCCESS
