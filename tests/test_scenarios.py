"""Scenario files: built-in names, paths, inlined board and bag files, and clear errors."""

from __future__ import annotations

import json

import pytest

from server import scenarios


def test_builtin_scenarios_are_listed_and_load():
    names = scenarios.builtin_scenarios()
    assert "mecha/sample" in names
    for name in names:
        game, data = scenarios.load(name)
        assert game == name.split("/")[0]
        assert not any(isinstance(data.get(key), str) for key in scenarios.FILE_KEYS), "referenced files are inlined"


def test_mv_c1_board_and_bag_files_are_inlined_relative_to_the_scenario(tmp_path):
    """MV-C1/MV-C2: board and bag are data files named by the scenario."""
    (tmp_path / "b.json").write_text(json.dumps({"tokens": [{"value": 1, "colour": "orange", "count": 2}]}))
    (tmp_path / "s.json").write_text(json.dumps({"game": "mecha", "bag": "b.json", "notes": "see other.json"}))
    _game, data = scenarios.load(str(tmp_path / "s.json"))
    assert data["bag"]["tokens"][0]["count"] == 2
    assert data["notes"] == "see other.json", "only known keys name files"


def test_missing_referenced_file_is_named(tmp_path):
    (tmp_path / "s.json").write_text(json.dumps({"game": "mecha", "board": "nowhere.json"}))
    with pytest.raises(scenarios.ScenarioFileError, match=r"\$\.board names 'nowhere.json', which does not exist"):
        scenarios.load(str(tmp_path / "s.json"))


def test_unknown_builtin_lists_the_known_ones():
    with pytest.raises(scenarios.ScenarioFileError, match="built-in: .*mecha/sample"):
        scenarios.load("mecha/nope")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", "not valid JSON: .* at line 1 column 2"),
        (b'{"game": "\xff"}', "not UTF-8 text"),
        (b"[1, 2]", "a scenario is a JSON object, got list"),
        (b'{"game": "chess"}', r"\$\.game must be one of mecha, .*got 'chess'"),
    ],
)
def test_broken_scenario_file_gets_a_clear_error(tmp_path, content, message):
    path = tmp_path / "s.json"
    path.write_bytes(content)
    with pytest.raises(scenarios.ScenarioFileError, match=message):
        scenarios.load(str(path))


def test_a_scenario_file_nested_past_the_decoder_is_refused_with_the_file_named(tmp_path):
    """Issue 12: 100,000 nested brackets answer ScenarioFileError naming the file, never a RecursionError."""
    deep = tmp_path / "deep.json"
    deep.write_text('{"game": "mecha", "notes": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(scenarios.ScenarioFileError, match="deep.json: JSON nested too deeply"):
        scenarios.load(str(deep))
