"""Copy a log up to SEQ into a new file, to continue it as a what-if branch.

SEQ must end a command (a command's events are applied together, so a log cut inside them is a
game that never was): inside one, the refusal names where that command ends. The kept part is
replayed first, every hash checked. Continue the branch with

  chronicle play --continue NEW.jsonl --commands FILE.jsonl --log NEW.jsonl

A branch of a finished game keeps its dice: the log's SecretRevealed (CORE-2) is copied after
the kept part (same secret, the hash of the state at SEQ, which it does not change), so the
branch's commands draw from the secret GameStarted committed to and `chronicle audit` re-derives
them. `--dice` on `chronicle play --continue` still loads values on top of it.
"""

from __future__ import annotations

import argparse
import os

from events.game import SecretRevealed
from events.log import Envelope, command_groups
from server import logfile
from server.cli.status import BAD_ARGS, SUCCESS, CommandError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", metavar="LOG", help="the log to branch from (JSON Lines)")
    parser.add_argument("--at", type=int, required=True, metavar="SEQ", help="the last seq to keep (ends a command)")
    parser.add_argument("--out", required=True, metavar="NEW", help="the new log file (replaced if it exists)")


def run(args: argparse.Namespace) -> int:
    game, envelopes = logfile.read(args.log)
    if os.path.exists(args.out) and os.path.samefile(args.log, args.out):
        raise CommandError(f"fork: --out {args.out} is the log being forked: choose a new file", BAD_ARGS)
    last = len(envelopes)
    if not 1 <= args.at <= last:
        raise CommandError(f"fork: --at {args.at}: {args.log} holds seq 1 to {last}", BAD_ARGS)
    group = next(group for group in command_groups(envelopes) if group[0].seq <= args.at <= group[-1].seq)
    end = group[-1].seq
    if args.at != end:
        head = group[0]
        what = head.command.TYPE if head.command is not None else head.type
        raise CommandError(
            f"fork: seq {args.at} is inside command {head.command_id!r} ({head.seat} {what}, "
            f"seq {head.seq} to {end}): fork at seq {end}, where it ends, or at seq {head.seq - 1}", BAD_ARGS
        )
    kept = envelopes[: args.at]
    logfile.restore(game, kept, args.log)
    revealed = next((e for e in envelopes[args.at :] if isinstance(e.event, SecretRevealed)), None)
    note = ""
    if revealed is not None and not any(isinstance(e.event, SecretRevealed) for e in kept):
        end = kept[-1]
        kept = kept + [Envelope(end.game, end.seq + 1, revealed.event, None, None, None, None, revealed.rule, end.hash,
                                revealed.at)]
        logfile.restore(game, kept, args.log)  # the secret opens the commitment, the hash is the state's
        note = f"; the game's secret (SecretRevealed, CORE-2) follows at seq {args.at + 1}"
    logfile.write(args.out, kept)
    print(f"{args.out}: seq 1 to {args.at} of {args.log} ({last - args.at} later events left out){note}")
    return SUCCESS
