"""Move a stored game to a newer rules version of its game: only if its log replays unchanged under it.

``chronicle upgrade --db PATH_OR_URL GAME_ID [--to VERSION]`` re-decides the whole log under VERSION
(default: the newest), with the game's secret from the store. If nothing differs, it appends
RulesVersionChanged(from, to, since_seq) (CORE-3) and every later command is decided under VERSION,
by every server (a Room that had the game open re-reads it on its next append). If something
differs, the game stays where it is and the first divergence is printed, with the clause of each
outcome (status 3). A game that is over, or already under VERSION, is refused (status 4); so is a
game that another process appended to meanwhile (try again).

A game that diverges may still move when its seats agree, on the game socket (``ProposeRulesVersion``
and ``AnswerRulesVersion``, CORE-10/CORE-11, ``events/upgrade.py``): the operator cannot decide that
for them, so this command only says so.
"""

from __future__ import annotations

import argparse
import asyncio

from events.log import Table, started_under
from server import frames, rulescheck
from server.cli.audit import divergence_lines
from server.cli.rules_check import opened
from server.cli.status import BAD_ARGS, BAD_INPUT, DIVERGED, SUCCESS, CommandError
from server.room import now
from server.store import SeqConflict, Stored, UnknownGame


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH_OR_URL", required=True,
                        help="the store: a SQLite file path, sqlite:///path or postgresql://…")
    parser.add_argument("game_id", metavar="GAME_ID", help="the stored game to move")
    parser.add_argument("--to", metavar="VERSION", help="the released rules version to move to (default: the newest)")


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_run(args.db, args.game_id, args.to))


async def _run(db: str, game_id: str, to: str | None) -> int:
    store = await opened(db)
    try:
        try:
            meta = await store.get_game(game_id)
        except UnknownGame:
            raise CommandError(f"there is no game {game_id!r} in {db}", BAD_INPUT) from None
        try:
            checked = await rulescheck.check(store, meta, target=to)
        except KeyError as error:
            raise CommandError(f"--to: {error.args[0]}", BAD_ARGS) from None
        target = checked.newest
        if not checked.unchanged:
            print(f"{game_id} stays under {checked.game.rules_version}: its log does not replay unchanged under "
                  f"{target.rules_version}")
            for line in divergence_lines(checked.report.divergence, target, checked.game.rules_version):
                print(line)
            print(f"only its seats may move it now: one proposes {target.rules_version} and every other says yes "
                  "(CORE-10, CORE-11)")
            return DIVERGED
        envelopes = checked.envelopes
        table = Table.restore(started_under(target, envelopes), game_id, envelopes,
                              secret=await store.secret(game_id))
        try:
            moved = table.move_to(target.rules_version, at=now())
        except ValueError as error:
            raise CommandError(str(error), BAD_INPUT) from None
        try:
            await store.append(game_id, moved.seq - 1, [Stored(moved.seq, None, frames.encode_envelope(moved))])
        except SeqConflict:
            raise CommandError(f"game {game_id} moved on while it was checked: run upgrade again", BAD_INPUT) from None
        print(f"{game_id} moved from {moved.event.from_version} to {moved.event.to_version} at seq {moved.seq}: "
              f"commands from seq {moved.event.since_seq} on are decided under {moved.event.to_version}")
        return SUCCESS
    finally:
        await store.close()
