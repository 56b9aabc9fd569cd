"""The built-in scenarios: the rule text's two scenes (SK-12) played out, and random games audited.

``chronicle play skirmish/<each built-in> --random 300 --seed 5 --log g.jsonl && chronicle audit
g.jsonl`` must exit 0: the same loop runs here in process for every built-in (fast), and once as
real subprocesses.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from events.bots import playout
from events.games.skirmish import rules
from events.games.skirmish.model import ContestDoor, DecideDoor, DoorContested, DoorDecided, EndActivation, Move
from events.log import audit
from events.rng import Rng
from tests.games.skirmish.helpers import BUILT_INS, GAME, act, activate, builtin, end, table

ROOT = Path(__file__).resolve().parents[3]


def test_sk_12_a_survivor_holds_the_safe_room_door_shut_against_the_horde():
    """SK-12 (with SK-7, SK-10, SK-C6): in skirmish/purge a zombie reaches door2 and opens it at the
    end of its turn; Ben, in contact, wrestles it shut (14 + 4 against 9 + 3); the next zombie,
    helped by the first (+2), fails to open it again (8 + 3 + 2 against 11 + 4)."""
    tab = table(builtin("purge"), seed=5)
    # Check the zombies move first and z3 reaches door2's contact squares from D5.
    activate(tab, "z3")
    act(tab, "zombies", Move("z3", (2, 3)))
    assert end(tab, "z3")[-1].doors == ("door2",)
    act(tab, "zombies", DecideDoor("z3", "door2", True))
    assert rules.door(tab.state, "door2").open
    # Check Ben contests and wins: the door is shut, and Ben holds it.
    activate(tab, "ben")
    won = act(tab, "survivors", ContestDoor("ben", "door2", False), dice=(14, 9))[0]
    assert won == DoorContested("door2", "ben", "z3", False, 4, 0, 3, 0, ((14, 18, 9, 12),), "ben", False, "SK-10")
    act(tab, "survivors", EndActivation("ben"))
    # Check z4 steps into contact and loses, though z3 helps it.
    activate(tab, "z4")
    act(tab, "zombies", Move("z4", (3, 3)))
    lost = act(tab, "zombies", ContestDoor("z4", "door2", True), dice=(8, 11))[0]
    assert (lost.figure_bonus, lost.holder_bonus, lost.winner) == (2, 0, "ben")
    door = rules.door(tab.state, "door2")
    assert (door.open, door.holder) == (False, "ben")


def test_sk_12_a_troll_holds_the_passage_open_for_its_side():
    """SK-12 (with SK-7, SK-8, SK-10): in skirmish/troll-gate the Troll opens the gate at the end of
    its turn, beats Sir Aldo's attempt to shut it (10 + 8 against 10 + 6) and, at the end of its
    next activation, keeps it open."""
    tab = table(builtin("troll-gate"), seed=5)
    activate(tab, "troll")
    end(tab, "troll")
    act(tab, "horde", DecideDoor("troll", "door1", True))
    activate(tab, "k1")
    act(tab, "knights", Move("k1", (2, 2)))
    contest = act(tab, "knights", ContestDoor("k1", "door1", False), dice=(10, 10))[0]
    assert contest.throws == ((10, 16, 10, 18),) and contest.winner == "troll"
    end(tab, "k1")
    for figure_id in ("orc1", "k2", "orc2", "xb"):
        activate(tab, figure_id)
        end(tab, figure_id)
    assert tab.state.round == 2 and GAME.turn(tab.state) == ("horde",)
    activate(tab, "troll")
    assert end(tab, "troll")[-1].doors == ("door1",)
    kept = act(tab, "horde", DecideDoor("troll", "door1", True))[0]
    assert kept == DoorDecided("door1", "troll", True, True, "SK-8")


def test_sk_6_the_hangars_blast_door_two_squares_wide_opens_and_is_contested_as_one():
    """SK-6, SK-7, SK-10, SK-C6 in skirmish/hangar: Trooper 1 reaches E3 (touching only the blast
    door's lower edge) and opens door1: both its edges open; Leia at D2 (touching only its upper
    edge) contests it shut (15 + 6 against 9 + 4) and the whole door closes, held by her."""
    tab = table(builtin("hangar"), seed=5)
    grid = tab.state.grid
    assert grid.doors[0] == ("door1", ((3, 1), (4, 1)), ((3, 2), (4, 2)))
    assert [entry[0] for entry in grid.doors] == ["door1", "door2", "door3"]
    activate(tab, "tk1")
    act(tab, "troopers", Move("tk1", (4, 2)))
    assert end(tab, "tk1")[-1].doors == ("door1",)
    act(tab, "troopers", DecideDoor("tk1", "door1", True))
    assert not rules.blocked_edges(tab.state) & set(grid.doors[0][1:])
    activate(tab, "leia")
    contest = act(tab, "rebels", ContestDoor("leia", "door1", False), dice=(15, 9))[0]
    assert (contest.winner, contest.open, contest.throws) == ("leia", False, ((15, 21, 9, 13),))
    assert set(grid.doors[0][1:]) <= rules.blocked_edges(tab.state)
    assert rules.door(tab.state, "door1").holder == "leia"


@pytest.mark.parametrize("name", BUILT_INS)
def test_sk_c5_random_play_of_300_commands_on_each_built_in_is_accepted_and_audits(name):
    """SK-C5: what ``chronicle play skirmish/NAME --random 300 --seed 5`` does, in process: every
    legal command is accepted, the game runs to its end, and ``audit`` finds no divergence."""
    tab = table(builtin(name), seed=5)
    playout(tab, {}, Rng(5), 300)  # raises if a legal command is refused
    assert audit(GAME, tab.envelopes) is None


def test_chronicle_play_and_audit_exit_0_on_a_built_in(tmp_path):
    """The command line itself, as the issue states it, on skirmish/purge."""
    log = tmp_path / "g.jsonl"
    play = subprocess.run(
        [sys.executable, "-m", "server.cli.main", "play", "skirmish/purge", "--random", "300", "--seed", "5",
         "--log", str(log)], cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert play.returncode == 0, play.stderr
    assert '"ok": false' not in play.stdout
    checked = subprocess.run([sys.executable, "-m", "server.cli.main", "audit", str(log)], cwd=ROOT,
                             capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr
