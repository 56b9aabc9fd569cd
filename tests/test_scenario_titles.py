"""A scenario's title in the reader's language (the tablefix pass): echo's French page showed "Первое дело ·
The first case", its data's own title. A scenario may give ``titles`` ({"en", "fr", "ru"}, any of them),
which the pages show in their reader's language (``client.i18n.scenario_titles`` reads them from the
GameStarted's scenario); ``title`` stays what the command line and a page without a match show, and a file
without ``titles`` (every one written before) loads as it did."""

from __future__ import annotations

import copy

import pytest

import events.games
from client.i18n import scenario_titles
from events.canonical import canonical_json
from events.log import Table
from events.validate import BoundError, ScenarioError
from server import scenarios

BUILTIN = scenarios.builtin_scenarios()


def started(name: str, data: dict) -> Table:
    return Table.create(events.games.load(name.split("/")[0]), "g-titles", data, 1)


@pytest.mark.parametrize("name", BUILTIN)
def test_every_bundled_scenario_has_its_title_in_each_language(name):
    _game, data = scenarios.load(name)
    found = data.get("titles")
    assert isinstance(found, dict) and sorted(found) == ["en", "fr", "ru"], (name, found)
    assert all(isinstance(text, str) and text.strip() for text in found.values()), (name, found)
    assert found["fr"] != found["en"] and found["ru"] != found["en"] and found["fr"] != found["ru"], (name, found)
    assert not any("·" in text for text in found.values()), (name, found)  # one language each, not "ru · en"
    # Check: the page reads them back from the game's first event, as it records the scenario.
    table = started(name, data)
    assert scenario_titles(table.envelopes[0].event.scenario) == found


@pytest.mark.parametrize("name", ["echo/first-case", "mecha/sample", "arkham/crossing", "skirmish/purge",
                                  "gloomhaven/barrow"])
def test_a_scenario_without_titles_loads_as_before_with_the_same_state(name):
    _game, data = scenarios.load(name)
    old = copy.deepcopy(data)
    del old["titles"]
    with_titles, without = started(name, data), started(name, old)
    assert with_titles.state.title == without.state.title == data["title"]
    assert scenario_titles(without.envelopes[0].event.scenario) == {}


@pytest.mark.parametrize("titles, error, path", [
    ("Первое дело", ScenarioError, "$.titles"),
    ({}, ScenarioError, "$.titles"),
    ({"de": "Der erste Fall"}, ScenarioError, "$.titles.de"),
    ({"fr": 7}, ScenarioError, "$.titles.fr"),
    ({"fr": ""}, ScenarioError, "$.titles.fr"),
    ({"ru": "д" * 201}, BoundError, "$.titles.ru"),
])
def test_hostile_titles_are_refused_at_their_path(titles, error, path):
    _game, data = scenarios.load("echo/first-case")
    data = dict(data, titles=titles)
    with pytest.raises(error) as raised:
        started("echo/first-case", data)
    assert raised.value.path == path, raised.value


def test_a_title_holding_a_brace_is_read_whole():
    _game, data = scenarios.load("mecha/sample")
    data = dict(data, titles={"en": "Camp {north}", "fr": "Le camp } du nord", "ru": "Лагерь"})
    assert scenario_titles(canonical_json(data)) == data["titles"]
    assert scenario_titles(None) == {} and scenario_titles('{"title":"x"}') == {}


def test_a_page_shows_the_title_in_its_language_unless_the_title_was_changed_without_them():
    """``client.i18n.scenario_title``: ``titles`` translate ``title`` (echo's holds both languages and its
    English); a copy whose ``title`` was changed and whose ``titles`` were not shows its own ``title``."""
    from client import i18n
    from client.i18n import scenario_title

    _game, echo = scenarios.load("echo/first-case")
    try:
        i18n.install({"lang": "fr", "messages": {}})
        assert scenario_title(echo["titles"], echo["title"]) == "La première affaire"
        assert scenario_title(echo["titles"], "My own table") == "My own table"
        assert scenario_title(None, "My own table") == "My own table"
        assert scenario_title({"ru": "Своя партия"}, "My own table") == "My own table"  # no French given
        i18n.install({"lang": "ru", "messages": {}})
        assert scenario_title({"ru": "Своя партия"}, "My own table") == "Своя партия"
    finally:
        i18n.install({})
