"""What the games' rule questions (``server.cli.ask_<game>``) share: the SCENARIO argument and the
scenario's first state. Not a game: ``server.cli.ask.QUESTIONS`` does not list it."""

from __future__ import annotations

import argparse

from events.validate import ScenarioError
from server import scenarios
from server.cli.status import BAD_INPUT, CommandError


def add_scenario(parser: argparse.ArgumentParser, example: str) -> None:
    """The positional SCENARIO: a file or a built-in scenario such as ``example`` (``arkham/crossing``)."""
    parser.add_argument("scenario", metavar="SCENARIO", help=f"a scenario file or a built-in one ({example})")


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
