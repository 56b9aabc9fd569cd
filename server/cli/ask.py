"""Answer a rule question about a scenario: ``chronicle ask GAME QUESTION SCENARIO [options]``.

Rule questions settle disputes before (or without) a game, or at any position of a real one
(``--log LOG --seq N``): the cheapest route between two Arkham areas, what a Gloomhaven monster
would do, whether a skirmish square sees another, where a Mecha may end its Move. Each
game's questions live in their own module, found by its name: ``server.cli.ask_<game>`` for each
game of ``events.games.NAMES`` (the one list of games; a game without such a module has no
questions yet). That module provides ``add_questions(subparsers)`` (one sub-parser per question,
each setting ``func``) and prints JSON.
"""

from __future__ import annotations

import argparse
import importlib

import events.games
from server.cli.status import UNAVAILABLE, CommandError

#: game -> the module of its questions, by the naming rule, in the order of events.games.NAMES.
QUESTIONS = {name: f"server.cli.ask_{name}" for name in events.games.NAMES}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True)
    for game, module_name in QUESTIONS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            continue  # a rule system without questions yet
        sub = games.add_parser(game, help=(module.__doc__ or "").strip().splitlines()[0])
        module.add_questions(sub.add_subparsers(dest="question", metavar="QUESTION", required=True))


def run(args: argparse.Namespace) -> int:
    func = getattr(args, "func", None)
    if func is None:  # pragma: no cover - argparse requires a question
        raise CommandError(f"no question given for {args.game}", UNAVAILABLE)
    return func(args)
