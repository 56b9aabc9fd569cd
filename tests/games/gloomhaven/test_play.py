"""Whole games with random legal commands: every built-in scenario plays and audits clean.

The issue's check is ``chronicle play gloomhaven/<each built-in> --random 300 --seed 3 --log g.jsonl
&& chronicle audit g.jsonl``: the same loop runs in process here for every built-in and several
seeds (fast), and once through the real command line in a subprocess.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from events.bots import playout
from events.log import Table, audit
from events.rng import Rng
from server import scenarios
from tests.games.gloomhaven.helpers import GAME

ROOT = Path(__file__).resolve().parents[3]
BUILTINS = [name for name in scenarios.builtin_scenarios() if name.startswith("gloomhaven/")]


def random_game(name: str, seed: int, commands: int = 300) -> Table:
    """What ``chronicle play NAME --random N --seed S`` does, in process."""
    _game, data = scenarios.load(name)
    tab = Table.create(GAME, "g", data, seed)
    made = playout(tab, {}, Rng(seed), commands)  # raises if a legal command is refused
    assert made == commands or GAME.is_over(tab.state), f"nobody can act in phase {tab.state.phase}"
    return tab


def test_there_are_built_in_scenarios():
    assert set(BUILTINS) >= {"gloomhaven/barrow", "gloomhaven/drake-den"}


@pytest.mark.parametrize("name", BUILTINS)
@pytest.mark.parametrize("seed", [3, 4, 5, 6])
def test_gh_c2_random_rounds_audit_clean(name, seed):
    """GH-C2: random legal play never gets stuck, never has a legal command refused, and audits clean."""
    tab = random_game(name, seed)
    assert audit(GAME, tab.envelopes) is None
    restored = Table.restore(GAME, "g", tab.envelopes)
    assert restored.envelopes[-1].hash == tab.envelopes[-1].hash


def test_chronicle_play_and_audit_on_every_built_in(tmp_path):
    """The issue's own check, through the real command line."""
    for name in BUILTINS:
        log = tmp_path / f"{name.replace('/', '-')}.jsonl"
        play = subprocess.run([sys.executable, "-m", "server.cli.main", "play", name, "--random", "300", "--seed", "3",
                               "--log", str(log)], capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert play.returncode == 0, play.stderr
        done = subprocess.run([sys.executable, "-m", "server.cli.main", "audit", str(log)], capture_output=True,
                              text=True, cwd=ROOT, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
