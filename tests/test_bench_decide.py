"""bench.decide builds the largest scenario each game's bounds allow: each loads, and sits at its bounds.

Timings are the benchmark's to print, never a test's to assert; this only keeps its scenarios valid
and as large as the bounds, so its figures keep meaning what the README says (issue 12).
"""

from __future__ import annotations

import pytest

from bench import decide


@pytest.mark.parametrize("name", sorted(decide.BUILDERS))
def test_the_largest_scenario_loads_and_plays_one_command(name):
    result = decide.measure(name, steps=1, seed=1, repeat=1)
    assert result["seq"] >= 2  # the game started and one command was played
    assert result["figures"]["decide"] and result["figures"]["legal"]


def test_the_largest_scenarios_sit_at_their_bounds():
    from events.games.arkham.board import BOUNDS as ARKHAM
    from events.games.echo.board import BOUNDS as ECHO
    from events.games.gloomhaven.board import BOUNDS as GLOOMHAVEN
    from events.games.gloomhaven.board import load_scenario as gloomhaven
    from events.games.mecha.board import BOUNDS as MECHA
    from events.games.skirmish.board import BOUNDS as SKIRMISH
    from events.games.skirmish.board import load_scenario as skirmish

    mecha = decide.largest_mecha()
    assert len(mecha["board"]["locations"]) == MECHA["locations"] and len(mecha["seats"]) == MECHA["seats"]
    assert all(seat["range"][1] == MECHA["range"] for seat in mecha["seats"])
    assert sum(token["count"] for token in mecha["bag"]["tokens"]) > MECHA["bag_tokens"] - MECHA["bag_entries"]
    arkham = decide.largest_arkham()
    assert len(arkham["investigators"]) == ARKHAM["investigators"] and len(arkham["monsters"]) == ARKHAM["monsters"]
    assert len(arkham["board"]["locations"]) == ARKHAM["locations"] and len(arkham["board"]["streets"]) == ARKHAM["streets"]
    assert all(inv["speed"] == ARKHAM["skill"] for inv in arkham["investigators"])
    echo = decide.largest_echo()
    assert len(echo["map"]["locations"]) == ECHO["locations"] and len(echo["map"]["arrows"]) == ECHO["links"]
    assert len(echo["seats"]) == ECHO["seats"] and len(echo["enemies"]) == ECHO["enemies"]
    setup = skirmish(decide.largest_skirmish())
    assert (setup.grid.width, setup.grid.height) == (SKIRMISH["size"], SKIRMISH["size"])
    assert len(setup.figures) == SKIRMISH["figures"] and {f.speed for f in setup.figures} == {SKIRMISH["speed"]}
    setup = gloomhaven(decide.largest_gloomhaven())
    assert len(setup.monsters) == GLOOMHAVEN["figures"]
    assert len(setup.map.hexes) > GLOOMHAVEN["hexes"] * 9 // 10  # the region at the bound, less its wall hexes
