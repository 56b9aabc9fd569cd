"""``chronicle play arkham/<each built-in> --random 300 --seed 2 --log g.jsonl && chronicle audit g.jsonl``.

In process for every built-in scenario (the same random choices as ``server/cli/play.py``: one
``Rng(seed)`` picks a seat among those with legal commands, then a command), and once through the
real command line in a subprocess.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from events.bots import playout
from events.log import Table, audit
from events.rng import Rng
from server import scenarios
from tests.games.arkham.helpers import BUILTINS, GAME
from tests.server_fixture import ROOT


def random_game(name: str, count: int, seed: int) -> Table:
    game_name, data = scenarios.load(f"arkham/{name}")
    assert game_name == "arkham"
    table = Table.create(GAME, "local", data, seed)
    made = playout(table, {}, Rng(seed), count)  # raises if a legal command is refused
    assert made == count or GAME.is_over(table.state), "nobody can act in a game that is not over"
    return table


@pytest.mark.parametrize("name", BUILTINS)
@pytest.mark.parametrize("seed", [2, 7, 31])
def test_ah_1_every_built_in_scenario_plays_300_random_commands_and_audits(name, seed):
    """AH-1: a random game of each built-in scenario is accepted throughout and its log audits clean."""
    table = random_game(name, 300, seed)
    assert GAME.is_over(table.state)
    assert audit(GAME, table.envelopes) is None


def test_ah_1_the_built_in_scenarios_are_listed():
    """AH-1: the server and the CLI find the three built-ins by name."""
    assert {f"arkham/{name}" for name in BUILTINS} <= set(scenarios.builtin_scenarios())


def test_the_command_line_plays_and_audits_a_built_in(tmp_path):
    """The real ``chronicle play ... && chronicle audit ...`` exits 0."""
    log = tmp_path / "g.jsonl"
    for name in BUILTINS:
        play = subprocess.run([sys.executable, "-m", "server.cli.main", "play", f"arkham/{name}", "--random", "300",
                               "--seed", "2", "--log", str(log)], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert play.returncode == 0, play.stderr
        check = subprocess.run([sys.executable, "-m", "server.cli.main", "audit", str(log)], cwd=ROOT,
                               capture_output=True, text=True, timeout=60)
        assert check.returncode == 0 and "events verified\n" in check.stdout, (check.stdout, check.stderr)
