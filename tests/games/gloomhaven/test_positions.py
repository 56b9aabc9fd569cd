"""Monster-turn positions written from the rule text, answered through ``chronicle ask`` (GH-6, GH-7, GH-C4).

Each file in ``events/games/gloomhaven/positions/`` (built in: ``chronicle ask gloomhaven monster-turn
gloomhaven/positions/NAME``) is a map with figures, the acting monster ``M`` and what the rules
say it does (``expect``; ``expect_jotl`` for the Jaws of the Lion variant), with a note on why.
The answers run through the real command line (``server.cli.main.main``), in process for speed,
and one of them in a subprocess as a user would type it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from server.cli.main import main

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
BUILT_IN = ROOT / "events" / "games" / "gloomhaven" / "positions"
POSITIONS = sorted(BUILT_IN.glob("*.json"))


def ask(capsys, path: Path, *extra: str) -> dict:
    status = main(["ask", "gloomhaven", "monster-turn", str(path), *extra])
    out = capsys.readouterr()
    assert status == 0, out.err
    return json.loads(out.out)


def check(answer: dict, expect: dict) -> None:
    if "focus" in expect:
        assert answer["focus"] == expect["focus"]
    options = answer["options"]
    if "destinations" in expect:
        assert sorted({tuple(o["destination"]) for o in options}) == sorted(tuple(d) for d in expect["destinations"])
    if "attacks" in expect:
        assert sorted(tuple(o["attacks"]) for o in options) == sorted(tuple(a) for a in expect["attacks"])
    if "negative" in expect:
        assert {o["negative"] for o in options} == {expect["negative"]}
    if "decided_by" in expect:
        assert expect["decided_by"] in answer["trace"]["decided_by"]


def test_at_least_forty_positions():
    assert len(POSITIONS) >= 40


@pytest.mark.parametrize("path", POSITIONS, ids=lambda path: path.stem)
def test_gh_6_position(path, capsys):
    """GH-6, GH-7, GH-C4: the monster's focus, options and tie-break are the rule text's."""
    data = json.loads(path.read_text(encoding="utf-8"))
    answer = ask(capsys, path)
    check(answer, data["expect"])
    if "expect_jotl" in data:
        check(ask(capsys, path, "--rules", "jotl"), data["expect_jotl"])


def test_gh_c4_every_option_is_a_complete_answer(capsys):
    """GH-C4: each option names its destination, a path ending there, and its targets; the trace lists every enemy."""
    for path in POSITIONS:
        data = json.loads(path.read_text(encoding="utf-8"))
        answer = ask(capsys, path)
        for option in answer["options"]:
            assert option["path"] == [] or option["path"][-1] == option["destination"]
        mover = next(f for f in data["figures"] if f["id"] == "M")
        want = {f["id"] for f in data["figures"] if (f["side"] == "monster") != (mover["side"] == "monster")}
        assert {c["figure"] for c in answer["trace"]["candidates"]} == want


def test_gh_v1_jotl_skips_proximity(capsys):
    """GH-V1: under Jaws of the Lion rules a path tie goes straight to initiative."""
    path = BUILT_IN / "03-proximity-breaks-a-path-tie.json"
    assert ask(capsys, path)["focus"] == ["B"]
    answer = ask(capsys, path, "--rules", "jotl")
    assert answer["focus"] == ["A"] and "GH-V1" in answer["trace"]["decided_by"]


def test_gh_v2_jotl_jump_lands_on_difficult_for_one(capsys):
    """GH-V2: under Jaws of the Lion rules a jump's difficult landing costs no extra movement."""
    path = BUILT_IN / "27-jump-landing-on-difficult.json"
    assert [o["destination"] for o in ask(capsys, path)["options"]] == [[0, 1]]
    assert [o["attacks"] for o in ask(capsys, path, "--rules", "jotl")["options"]] == [["A"]]


def test_monster_flag_overrides_and_errors_are_one_line(capsys, tmp_path):
    path = BUILT_IN / "16-no-focus-attack-hex-occupied.json"
    answer = ask(capsys, path, "--monster", "m2")
    assert answer["monster"] == "m2" and answer["focus"] == ["A"]
    assert main(["ask", "gloomhaven", "monster-turn", str(path), "--monster", "nobody"]) == 2
    assert "no figure 'nobody'" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"map": {"name": "x", "hexes": [[0, 0]]}, "figures": [{"id": "M", "side": "monster",
                                                                                       "hex": [5, 5]}]}))
    assert main(["ask", "gloomhaven", "monster-turn", str(bad)]) == 4
    assert "$.figures[0].hex: hex [5, 5] is not on the map" in capsys.readouterr().err


def test_a_position_through_the_real_command():
    """The command a player types, in a subprocess."""
    path = BUILT_IN / "12-ranged-steps-away-from-disadvantage.json"
    done = subprocess.run([sys.executable, "-m", "server.cli.main", "ask", "gloomhaven", "monster-turn", str(path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["focus"] == ["A"] and len(answer["options"]) == 3


def test_built_in_positions_answer_by_name(capsys):
    """The positions ship with the package: ``gloomhaven/positions/NAME`` (or NAME alone) is a built-in name."""
    by_name = ask(capsys, Path("gloomhaven/positions/12-ranged-steps-away-from-disadvantage"))
    assert by_name == ask(capsys, BUILT_IN / "12-ranged-steps-away-from-disadvantage.json")
    assert ask(capsys, Path("03-proximity-breaks-a-path-tie"))["focus"] == ["B"]


def test_an_unknown_or_escaping_position_name_is_refused_with_the_list(capsys):
    """A name that is no file and no built-in, or tries to leave the folder, is a one-line error naming the built-ins."""
    for name in ("gloomhaven/positions/nope", "gloomhaven/positions/../../../pyproject", "../positions/01"):
        assert main(["ask", "gloomhaven", "monster-turn", name]) == 4
        err = capsys.readouterr().err
        assert "no such position file or built-in position" in err and "gloomhaven/positions/01-" in err


def test_the_readmes_monster_turn_example_runs_as_written(capsys):
    """The README's ``chronicle ask gloomhaven monster-turn`` example names a built-in position that answers."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    names = re.findall(r"chronicle ask gloomhaven monster-turn (gloomhaven/positions/[\w-]+)", readme)
    assert names
    for name in names:
        assert ask(capsys, Path(name))["focus"]
