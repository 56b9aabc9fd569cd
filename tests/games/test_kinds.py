"""Command fields declared with their kinds (issue 13): a command of the wrong shape is refused at
the edge, by ``Registry.build``, with the ``$`` path of the fault; the rules keep only rule facts.

Each case is a field the rules used to type-check themselves; the frame decoder (server/frames.py)
and the CLI's commands file both build through the registry, so both refuse these the same way.
"""

from __future__ import annotations

import pytest

import events.games
from events.log import Table
from events.record import DecodeError
from events.rng import Rng
from server.scenarios import builtin_scenarios, load

FIVE = ("mecha", "arkham", "echo", "skirmish", "gloomhaven")

HOSTILE = [
    ("mecha", "Move", {"to": True}, "$.command.data.to: expected an integer, a string or null, got true"),
    ("mecha", "Move", {"to": [2]}, "$.command.data.to: expected an integer, a string or null, got a list of 1"),
    ("arkham", "Move", {"to": 3}, "$.command.data.to: expected a string, got 3"),
    ("arkham", "Move", {"to": "rivertown", "path": "rivertown"}, '$.command.data.path: expected a list, got "rivertown"'),
    ("arkham", "Move", {"to": "rivertown", "path": ["rivertown", 3]},
     "$.command.data.path[1]: expected a string, got 3"),
    ("arkham", "TakeClues", {"count": True}, "$.command.data.count: expected an integer, got true"),
    ("arkham", "TakeClues", {"count": "2"}, '$.command.data.count: expected an integer, got "2"'),
    ("arkham", "Evade", {"monster": None}, "$.command.data.monster: expected a string, got null"),
    ("arkham", "Return", {"location": 5}, "$.command.data.location: expected a string, got 5"),
    ("arkham", "Place", {"area": ["a"]}, "$.command.data.area: expected a string, got a list of 1"),
    ("arkham", "OfferTrade", {"partner": "blue", "give": "tommy gun", "take": []},
     '$.command.data.give: expected a list, got "tommy gun"'),
    ("arkham", "OfferTrade", {"partner": "blue", "give": [], "take": [1]},
     "$.command.data.take[0]: expected a string, got 1"),
    ("arkham", "AnswerTrade", {"accept": "yes"}, '$.command.data.accept: expected true or false, got "yes"'),
    ("echo", "Move", {"to": 3}, "$.command.data.to: expected a string, got 3"),
    ("echo", "Evade", {"enemy": {"id": "x"}}, "$.command.data.enemy: expected a string, got an object"),
    ("echo", "CheckOrder", {"skill": 1}, "$.command.data.skill: expected a string, got 1"),
    ("echo", "Strike", {"enemy": "e", "card": []}, "$.command.data.card: expected a string, got a list of 0"),
    ("echo", "Trade", {"item": "lamp", "to": False}, "$.command.data.to: expected a string, got false"),
    ("echo", "Exchange", {"enemy": 2}, "$.command.data.enemy: expected a string, got 2"),
    ("skirmish", "Move", {"to": "B2"}, '$.command.data.to: expected a list of 2, got "B2"'),
    ("skirmish", "Move", {"to": [True, 1]}, "$.command.data.to[0]: expected an integer, got true"),
    ("skirmish", "Move", {"figure": 3, "to": [1, 1]}, "$.command.data.figure: expected a string or null, got 3"),
    ("skirmish", "ContestDoor", {"figure": "a", "door": "d", "open": 1},
     "$.command.data.open: expected true or false, got 1"),
    ("skirmish", "DecideDoor", {"figure": "a", "door": "d", "open": None},
     "$.command.data.open: expected true or false, got null"),
    ("skirmish", "Attack", {"figure": "a", "target": 1.5}, "$.command.data.target: floats are not allowed (got 1.5)"),
    ("gloomhaven", "SelectCards", {"cards": "t-1", "leading": "t-1"}, '$.command.data.cards: expected a list, got "t-1"'),
    ("gloomhaven", "SelectCards", {"cards": ["t-1", 2], "leading": "t-1"},
     "$.command.data.cards[1]: expected a string, got 2"),
    ("gloomhaven", "ChooseOrder", {"order": "red"}, '$.command.data.order: expected a list, got "red"'),
    ("gloomhaven", "PlayCard", {"card": "t-10", "half": "bottom", "path": [[1, 2], "x"]},
     '$.command.data.path[1]: expected a list of 2, got "x"'),
    ("gloomhaven", "PlayCard", {"card": "t-10", "half": "bottom", "path": 5},
     "$.command.data.path: expected a list, got 5"),
    ("gloomhaven", "PlayCard", {"card": "t-10", "half": "bottom", "to": ["a", 1]},
     '$.command.data.to[0]: expected an integer, got "a"'),
    ("gloomhaven", "PlayCard", {"card": "t-10", "half": "bottom", "targets": [3]},
     "$.command.data.targets[0]: expected a string, got 3"),
    ("gloomhaven", "PlayCard", {"card": "t-10", "half": "bottom", "skip": "yes"},
     '$.command.data.skip: expected true or false, got "yes"'),
    ("gloomhaven", "RestLose", {"card": None}, "$.command.data.card: expected a string, got null"),
    ("gloomhaven", "ChooseOption", {"index": True}, "$.command.data.index: expected an integer, got true"),
    ("gloomhaven", "ShortRest", {"rest": 1}, "$.command.data.rest: expected true or false, got 1"),
]


@pytest.mark.parametrize(("name", "kind", "data", "message"), HOSTILE, ids=lambda value: str(value)[:30])
def test_a_field_of_the_wrong_kind_is_refused_at_the_edge_with_its_path(name, kind, data, message):
    game = events.games.load(name)
    with pytest.raises(DecodeError) as raised:
        game.commands.build(dict(data, type=kind), "$.command.data")
    assert str(raised.value) == message


@pytest.mark.parametrize("name", FIVE)
def test_every_command_declares_the_kind_of_each_field(name):
    for cls in events.games.load(name).commands.by_type.values():
        assert "KINDS" in cls.__dict__, cls
        assert sorted(cls.KINDS) == sorted(cls.__slots__), cls


@pytest.mark.parametrize("name", FIVE)
def test_every_command_legal_offers_fits_its_kinds(name):
    """The kinds refuse nothing the game itself offers: every ``legal`` command of random games of each
    built-in round-trips through the registry."""
    scenarios = [item for item in builtin_scenarios() if item.startswith(name + "/")]
    game = events.games.load(name)
    seen = set()
    for number, scenario in enumerate(scenarios):
        table = Table.create(game, "g", load(scenario)[1], number)
        chooser = Rng(number)
        for _ in range(60):
            options = [(seat, command) for seat in game.turn(table.state) for command in game.legal(table.state, seat)]
            if not options:
                break
            for _seat, command in options:
                assert game.commands.build(command.to_data()) == command
                seen.add(type(command))
            seat, command = options[chooser.below(len(options))]
            table.submit(seat, command, f"c-{table.seq}", rng=Rng(table.seq))
    assert len(seen) >= 2
