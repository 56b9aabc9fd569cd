"""What the games' rule questions (``server.cli.ask_<game>``) share: where the question is asked.

A question is answered on a position: a scenario as it starts (the positional SCENARIO), or the
state after event N of a real game's log (``--log LOG --seq N``; without ``--seq``, after its last
event). Every hash of the log up to N is checked on the way, as ``chronicle replay`` does. Not a
game: ``server.cli.ask.QUESTIONS`` does not list this module.
"""

from __future__ import annotations

import argparse
import json

from events.validate import ScenarioError
from server import logfile, scenarios
from server.cli.status import BAD_ARGS, BAD_INPUT, SUCCESS, CommandError


def add_question(subparsers: argparse._SubParsersAction, name: str, summary: str, example: str, func):
    """The question ``name``, asked on SCENARIO (e.g. ``example``) or ``--log LOG [--seq N]``, run by ``func``.

    Returns its parser, for the question's own options.
    """
    parser = subparsers.add_parser(name, help=summary)
    add_scenario(parser, example)
    parser.set_defaults(func=func)
    return parser


def reply(answer: dict, origin: dict) -> int:
    """Print the answer, with where it was asked (``position``'s origin), as one JSON line."""
    print(json.dumps({**answer, **origin}, ensure_ascii=False))
    return SUCCESS


def add_scenario(parser: argparse.ArgumentParser, example: str) -> None:
    """SCENARIO (a file or a built-in scenario such as ``example``), or ``--log LOG [--seq N]``."""
    parser.add_argument("scenario", metavar="SCENARIO", nargs="?",
                        help=f"a scenario file or a built-in one ({example}); or give --log")
    add_log(parser)


def add_log(parser: argparse.ArgumentParser) -> None:
    """``--log LOG --seq N``: ask on the state after event N of a real game."""
    parser.add_argument("--log", metavar="LOG", help="ask on a position of a real game: its log (JSON Lines)")
    parser.add_argument("--seq", type=int, metavar="N", help="with --log: the state after event N (default: the last)")


def initial_state(name: str, game: str, rules):
    """The scenario's first state, as ``game`` (whose ``rules`` module starts it) would start."""
    game_name, scenario = scenarios.load(name)
    if game_name != game:
        article = "an" if game[0] in "aeiou" else "a"
        raise CommandError(f"{name}: {article} {game} question needs {article} {game} scenario, got a {game_name} one",
                           BAD_INPUT)
    try:
        started = rules.start(scenario, "")[0]  # a question draws no dice: no secret, no commitment (CORE-1)
    except ScenarioError as error:
        raise CommandError(f"{name}: {error}", BAD_INPUT) from None
    return rules.initial_state(started)


def position(args: argparse.Namespace, game: str, rules, given: str | None = None):
    """(state, origin) for the question: ``origin`` is {} for a scenario, {"log", "seq"} for a log.

    ``given`` is the positional argument when it is not called ``scenario`` (gloomhaven's POSITION).
    """
    named = getattr(args, "scenario", None) if given is None else given
    if args.log is None:
        if args.seq is not None:
            raise CommandError("--seq: give the log it counts in with --log LOG", BAD_ARGS)
        if named is None:
            raise CommandError("give a SCENARIO, or --log LOG [--seq N] for a position of a real game", BAD_ARGS)
        return initial_state(named, game, rules), {}
    if named is not None:
        raise CommandError(f"give {named} or --log {args.log}, not both: a question is asked on one position",
                           BAD_ARGS)
    state, seq = logged_state(args.log, args.seq, game)
    return state, {"log": args.log, "seq": seq}


def logged_state(path: str, seq: int | None, game: str) -> tuple:
    """(the state after event ``seq``, that seq) of the log at ``path`` (default: its last), every hash checked."""
    log_game, envelopes = logfile.read(path)
    if log_game.name != game:
        article = "an" if game[0] in "aeiou" else "a"
        raise CommandError(f"{path}: {article} {game} question needs {article} {game} game's log, got a "
                           f"{log_game.name} one", BAD_INPUT)
    to = len(envelopes) if seq is None else seq
    if not 1 <= to <= len(envelopes):
        raise CommandError(f"--seq {to}: {path} holds seq 1 to {len(envelopes)}", BAD_ARGS)
    return logfile.restore(log_game, envelopes[:to], path).state, to
