"""Gloomhaven's records as declarations: registered, plain, folded, and the sealed pick (STYLE habits 3, 4)."""

from __future__ import annotations

import inspect

import pytest

from events.canonical import canonical_json, record_json, state_hash
from events.games.gloomhaven import model, rules
from events.games.gloomhaven.model import COMMANDS, EVENTS, STATES, Pick, Sealed
from events.record import Record
from tests.games.gloomhaven.helpers import GAME, builtin, table
from tests.games.gloomhaven.samples import SAMPLES


def test_every_record_class_is_registered():
    declared = {cls for _name, cls in inspect.getmembers(model, inspect.isclass)
                if issubclass(cls, Record) and cls.__module__ == model.__name__ and not cls.__name__.startswith("_")}
    registered = set(EVENTS.by_type.values()) | set(COMMANDS.by_type.values()) | set(STATES.by_type.values())
    assert declared <= registered


def test_nested_parts_decode_but_are_not_events():
    """A focus Candidate decodes inside an event, but no log may hold one as an event."""
    planned = GAME.events.build(dict(SAMPLES["MonsterTurnPlanned"], type="MonsterTurnPlanned"))
    assert isinstance(planned.candidates[0], model.Candidate)
    assert "Candidate" not in GAME.events and "Candidate" not in GAME.events.names()


def test_gh_c2_a_sealed_pick_hashes_like_an_empty_one():
    """GH-C2: the state's JSON never shows a sealed pick, so every viewer folds the same hash."""
    secret = Sealed(Pick(("br-01", "br-02"), "br-01", False))
    assert record_json(secret) == record_json(Sealed(None)) == canonical_json(secret.to_data()) == '{"type":"Sealed"}'
    tab = table(builtin("drake-den"))
    with_pick = tab.state.but(heroes=rules._replace_hero(tab.state, "red", pick=secret))
    without = tab.state.but(heroes=rules._replace_hero(tab.state, "red", pick=Sealed(None)))
    assert state_hash(with_pick) == state_hash(without)
    assert "br-01" not in canonical_json(with_pick.to_data()).split('"pick"')[1][:40]


def test_gh_c2_folds_one_of_every_registered_event_type():
    """GH-C2: every event type folds (sample data through evolve, on a real state), and an unknown one raises."""
    tab = table(builtin("barrow"))
    state = tab.state
    folded = {"GameStarted"}
    for tag in GAME.events.names():
        if tag == "GameStarted":
            continue
        after = rules.evolve(state, GAME.events.build(dict(SAMPLES[tag], type=tag)))
        assert isinstance(after, type(state)) and after is not None
        folded.add(tag)
    assert folded == set(GAME.events.names())
    with pytest.raises(TypeError, match="gloomhaven cannot fold an event of type SelectCards"):
        GAME.evolve(state, model.SelectCards(("a", "b"), "a"))
