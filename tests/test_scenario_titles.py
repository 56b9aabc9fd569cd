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


# A hostile scenario's nested "titles" (the pages review): canonical JSON sorts "notes" (and "board") before
# "titles", so the first '"titles":{' of the text was the attacker's, unchecked, and headed the page.
PWNED = {"en": "The first case", "fr": "Partie piégée", "ru": "Ловушка", "de": "unchecked"}


def with_notes(name: str, notes: object, titles: object = "keep") -> dict:
    _game, data = scenarios.load(name)
    data = dict(data, notes=notes)
    if titles != "keep":
        data.pop("titles")
        if titles is not None:
            data["titles"] = titles
    return data


@pytest.mark.parametrize("notes", [
    {"titles": PWNED},
    [{"titles": PWNED}, {"a": {"titles": {"fr": "x"}}}],
    {"a": [1, [2, {"titles": PWNED}]], "b": '"titles":{"fr":"in a string"}'},
    'a } " \\" ] [ { "titles":{"fr":"in the notes text"}',
])
def test_titles_inside_notes_never_head_the_page(notes):
    """Only the scenario's own ``titles`` count, the ones the game checked (``events.validate.titles``)."""
    for name in ("echo/first-case", "arkham/crossing"):
        data = with_notes(name, notes)
        table = started(name, data)  # the game accepts notes holding anything
        assert scenario_titles(table.envelopes[0].event.scenario) == data["titles"], name
        without = with_notes(name, notes, titles=None)
        assert scenario_titles(started(name, without).envelopes[0].event.scenario) == {}, name


def test_titles_nested_in_the_board_or_after_never_count():
    _game, data = scenarios.load("mecha/sample")
    data = dict(data, board=dict(data["board"], notes={"titles": PWNED}))
    data.pop("titles")
    data["zz"] = {"titles": PWNED}
    assert scenario_titles(canonical_json(data)) == {}


@pytest.mark.parametrize("titles", [{"de": "Der erste Fall"}, {"fr": 7}, {"fr": ""}, {"ru": "д" * 201}, {},
                                    "Первое дело", ["fr"], {"fr": {"titles": "x"}}])
def test_top_level_titles_the_games_refuse_give_nothing(titles):
    """A GameStarted written by hand (a log file offered to the offline page) is not checked by a game first."""
    _game, data = scenarios.load("echo/first-case")
    assert scenario_titles(canonical_json(dict(data, titles=titles))) == {}


def test_nesting_the_decoder_refuses_gives_nothing_without_raising():
    deep = 200_000
    assert scenario_titles('{"notes":' + "[" * deep + "]" * deep + ',"titles":{"fr":"Bien"}}') == {}
    assert scenario_titles('{"notes":' + "[" * 15 + "]" * 15 + ',"titles":{"fr":"Bien"}}') == {"fr": "Bien"}


@pytest.mark.parametrize("text", ['{"notes":{"titles":{"fr":"x"}', '{"notes":"never closed', "", "[]", "{", '{"a"',
                                  '{"a":1 "titles":{"fr":"x"}}', '{"titles":{"fr":"x"'])
def test_texts_that_are_not_json_give_nothing(text):
    assert scenario_titles(text) == {}


def test_spaced_or_escaped_json_reads_as_json_does():
    text = ' { "notes" : { "titles" : { "fr" : "x" } } , "n" : -1.5e3 , "t" : true ,\n "\\u0074itles" : { "fr" : "Le \\"vrai\\" titre \\\\" } } '
    assert scenario_titles(text) == {"fr": 'Le "vrai" titre \\'}
