"""List, for every stored game, whether it replays unchanged under the newest rules version of its game.

One line per game, newest first: ``GAME_ID  VERSION  NEWEST  unchanged`` or ``... diverges at seq N
(CLAUSE)``, where VERSION is the version the game is played under and CLAUSE the clause that decided
differently (issue 19). Each game is re-decided with its secret from the store, so every die is
checked; a game under a rule system this server lacks is listed as unavailable. Exit status 0 when
every game replays unchanged, 3 when one does not (or cannot be read); 4 when the store cannot be
opened. ``--db`` takes a SQLite path or a postgresql:// URL, as ``chronicle serve`` does.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from events.log import LogError
from events.record import DecodeError
from server import rulescheck
from server.cli.status import BAD_INPUT, DIVERGED, SUCCESS, CommandError
from server.store import Store, StoreError, store_for


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH_OR_URL", required=True,
                        help="the store: a SQLite file path, sqlite:///path or postgresql://…")


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_run(args.db))


async def _run(db: str) -> int:
    store = await opened(db)
    status = SUCCESS
    try:
        for meta in await store.list_games():
            try:
                checked = await rulescheck.check(store, meta)
            except KeyError as error:
                print(f"{meta.game_id}  {meta.rules}  -  unavailable: {error.args[0]}")
                status = DIVERGED
                continue
            except (LogError, DecodeError) as error:
                print(f"{meta.game_id}  {meta.rules}  -  unreadable: {error}")
                status = DIVERGED
                continue
            print(checked.line())
            if not checked.unchanged:
                status = DIVERGED
    finally:
        await store.close()
    return status


async def opened(db: str) -> Store:
    """The store ``--db`` names, opened; a SQLite file must exist already (it is never created here)."""
    if "://" not in db or db.startswith("sqlite://"):
        path = Path(db.removeprefix("sqlite://"))
        if not path.is_file():
            raise CommandError(f"--db: no SQLite store at {str(path)!r}", BAD_INPUT)
    try:
        store = store_for(db)
        await store.open()
    except StoreError as error:
        raise CommandError(f"--db: {error}", BAD_INPUT) from None
    return store
