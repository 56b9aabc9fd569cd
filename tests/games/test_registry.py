"""Every game's records, checked as declarations (STYLE habits 3 and 4).

Unique stable tags; each registered type built from sample data holds only ints, strings,
booleans, None, tuples and records; every event cites a clause of its catalogue; and a fold meets
one of every registered event type.
"""

from __future__ import annotations

import importlib
import importlib.util

import pytest

import events.games
from events.game import GameStarted, rule_of
from events.games.mecha import model
from events.record import Record
from tests.games.mecha.helpers import GAME, chain, line, loc, scenario, table
from tests.games.tables import unregistered_records

GAMES = [events.games.load(name) for name in events.games.NAMES]

SAMPLES = {
    "mecha": {
        "GameStarted": {"game": "mecha", "rules_version": "mecha-2", "commitment": "ab" * 32, "seats": ["red"], "scenario": "{}"},
        "MechMoved": {"seat": "red", "start": None, "to": 4, "path": [2, 4], "passed_through": [2]},
        "MechStayed": {"seat": "red", "at": 3},
        "PlanTokenGained": {"seat": "red", "location": 8},
        "LocationRevealed": {"seat": "red", "location": 8},
        "CorruptionDrawn": {"location": 8, "value": 4, "colour": "orange", "total": 4, "level": 5},
        "CorruptionPlaced": {"location": 20, "value": 20, "colour": "orange"},
        "BagRanOut": {"location": 8, "total": 2, "level": 5},
        "TurnPassed": {"seat": "red"},
        "TurnEnded": {"seat": "red", "next_seat": "blue", "round": 2},
        "GameEnded": {"rounds": 12, "plans": [3, 1], "revealed": [3, 2]},
        "Move": {"to": 4},
        "Pass": {},
    },
}
# Every other game keeps its sample data beside its tests: ``tests/games/<name>/samples.py``'s SAMPLES.
for _name in events.games.NAMES:
    if _name not in SAMPLES and importlib.util.find_spec(f"tests.games.{_name}.samples") is not None:
        SAMPLES[_name] = importlib.import_module(f"tests.games.{_name}.samples").SAMPLES


def plain(value) -> bool:
    """Only what a record may hold: int, str, bool, None, tuples of them and nested records."""
    if isinstance(value, Record):
        return all(plain(item) for item in value.fields())
    if isinstance(value, tuple):
        return all(plain(item) for item in value)
    return value is None or type(value) in (int, str, bool)


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_tags_are_unique_across_events_and_commands(game):
    assert not set(game.events.names()) & set(game.commands.names())
    classes = list(game.events.by_type.values()) + list(game.commands.by_type.values())
    assert len({cls.TYPE for cls in classes}) == len(classes)
    assert all(tag == cls.TYPE for tag, cls in game.events.by_type.items())


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_every_registered_type_builds_from_sample_data_into_plain_fields(game):
    samples = SAMPLES[game.name]
    for registry in (game.events, game.commands):
        for tag in registry.names():
            assert tag in samples, f"add sample data for {game.name} {registry.kind} {tag}"
            record = registry.build(dict(samples[tag], type=tag))
            assert plain(record), record
            assert registry.build(record.to_data()) == record


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_every_event_cites_a_clause_of_its_catalogue(game):
    for tag in game.events.names():
        event = game.events.build(dict(SAMPLES[game.name][tag], type=tag))
        rule = rule_of(event)
        assert rule is None if tag == "GameStarted" else rule in game.catalogue, (tag, rule)


def test_mecha_every_record_class_is_registered():
    """A record class in model.py that no registry knows could never be decoded: all but the
    state's parts, which are only ever folded from events, never decoded."""
    from events.games.mecha.model import COMMANDS, EVENTS, Board, Location, Seat, State

    assert unregistered_records(model, EVENTS, COMMANDS) == {State, Board, Location, Seat}


def test_mecha_catalogue_holds_every_clause_of_the_digest():
    assert GAME.catalogue.ids() == [
        "MV-1", "MV-2", "MV-3", "MV-4", "MV-5", "MV-6", "MV-6a", "MV-6b", "MV-6c", "MV-7", "MV-8", "MV-9",
        "MV-C1", "MV-C2", "MV-C3", "MV-C4",
    ]


def test_mecha_folds_one_of_every_registered_event_type():
    """STYLE habit 3: one case per event type; a fold through all of them, each with its effect."""
    locations = [loc(1), loc(2, level=3, up=False), loc(3), loc(20, up=False)]
    tab = table(scenario(locations, [(1, 2), (2, 3), (3, 20)], rounds=1, start={"blue": 3}))
    state = tab.state
    folded = {GameStarted}
    steps = [
        model.MechMoved("red", None, 2, (2,), ()),
        model.PlanTokenGained("red", 2),
        model.LocationRevealed("red", 2),
        model.CorruptionDrawn(2, 2, "orange", 2, 3),
        model.BagRanOut(2, 2, 3),
        model.TurnEnded("red", "blue", 1),
        model.MechStayed("blue", 3),
        model.TurnPassed("blue"),
        model.CorruptionPlaced(20, 20, "orange"),
        model.TurnEnded("blue", "red", 2),
        model.GameEnded(1, (1, 0), (1, 0)),
    ]
    for event in steps:
        after = GAME.evolve(state, event)
        folded.add(type(event))
        state = after
    assert {cls.TYPE for cls in folded} == set(GAME.events.names())
    assert state.positions == (2, 3)
    assert state.plans == ((2,), ()) and state.revealed == ((2,), ()) and 2 in state.face_up
    assert state.stacks == ((2, ((2, "orange"),)), (20, ((20, "orange"),)))
    assert state.token_20 is None
    assert (state.turn, state.round, state.over) == (0, 2, True)


def test_mecha_evolve_refuses_an_unknown_event_naming_it():
    with pytest.raises(TypeError, match="mecha cannot fold an event of type Move"):
        GAME.evolve(table(scenario(line(4), chain(4))).state, model.Move(2))


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_core_2_every_game_folds_secret_revealed_to_the_same_state(game):
    """CORE-2: the core's event is every game's: it decodes through the game's registry, cites CORE-2 of its
    catalogue, and the game's own evolve folds it to the very state it was given."""
    from events.game import SecretRevealed
    from events.log import Table
    from server import scenarios

    name = next(name for name in scenarios.builtin_scenarios() if name.startswith(f"{game.name}/"))
    table = Table.create(game, "g-core2", scenarios.load(name)[1], 1)
    event = game.events.build({"type": "SecretRevealed", "secret": "ab" * 32})
    assert event == SecretRevealed("ab" * 32) and rule_of(event) in game.catalogue
    assert game.evolve(table.state, event) is table.state


def test_one_list_of_games_every_game_is_a_package_with_its_questions_found_by_name():
    """Issue 13: events.games.NAMES is the one list; each name loads its package and its rule
    questions are ``server.cli.ask_<name>``, found by that naming rule (no second list)."""
    from server.cli import ask

    assert tuple(ask.QUESTIONS) == events.games.NAMES
    for name in events.games.NAMES:
        assert events.games.load(name).name == name
        module = importlib.import_module(ask.QUESTIONS[name])
        assert callable(module.add_questions), name


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_core_3_every_game_folds_rules_version_changed_to_the_same_state(game):
    """CORE-3: RulesVersionChanged decodes through every game's registry, cites CORE-3 of its catalogue,
    and the game's own evolve folds it to the very state it was given (the Table changes rules, not state)."""
    from events.game import RulesVersionChanged
    from events.log import Table
    from server import scenarios

    name = next(name for name in scenarios.builtin_scenarios() if name.startswith(f"{game.name}/"))
    table = Table.create(game, "g-core3", scenarios.load(name)[1], 1)
    event = game.events.build({"type": "RulesVersionChanged", "from_version": "x-1", "to_version": "x-2",
                               "since_seq": 3})
    assert event == RulesVersionChanged("x-1", "x-2", 3) and rule_of(event) == "CORE-3" and "CORE-3" in game.catalogue
    assert game.evolve(table.state, event) is table.state


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_core_10_every_version_of_every_game_folds_the_consent_events_and_knows_the_consent_commands(game):
    """CORE-10, CORE-11: the seats' consent to a newer version is every game's, at every released version:
    its commands build through the game's registry, its events decode and fold to the very state given."""
    from events.log import Table
    from events.upgrade import AnswerRulesVersion, ProposeRulesVersion, RulesVersionAnswered, RulesVersionProposed
    from server import scenarios

    name = next(name for name in scenarios.builtin_scenarios() if name.startswith(f"{game.name}/"))
    for version in game.versions():
        table = Table.create(version, "g-core10", scenarios.load(name)[1], 1)
        assert version.commands.build({"type": "ProposeRulesVersion", "to_version": "x-2"}) == ProposeRulesVersion("x-2")
        assert version.commands.build({"type": "AnswerRulesVersion", "proposal": 2, "yes": False}) == \
            AnswerRulesVersion(2, False)
        for event in (version.events.build({"type": "RulesVersionProposed", "seat": "a", "from_version": "x-1",
                                            "to_version": "x-2"}),
                      version.events.build({"type": "RulesVersionAnswered", "seat": "b", "proposal": 2, "yes": True})):
            assert isinstance(event, (RulesVersionProposed, RulesVersionAnswered)) and rule_of(event) in version.catalogue
            assert version.evolve(table.state, event) is table.state
