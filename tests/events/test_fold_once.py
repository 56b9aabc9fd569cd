"""Each logged event is folded exactly once (issue 13): ``decide`` returns a ``Flow`` (its events with
the states they lead to) and the Table keeps those states instead of folding the events again.

Check: random games of every game, played by the bots of ``events.bots``; every ``evolve`` call made
while the Table creates the game or takes a command is counted, and there is one per logged event.
"""

from __future__ import annotations

import importlib

import pytest

import events.games
from events.bots import playout
from events.game import Flow
from events.log import Table
from events.rng import Rng
from server.scenarios import builtin_scenarios, load


class Counted:
    """``evolve`` of one game, counting the calls made while ``on``. ``around`` counts a rules version's own
    evolve with the same count (gloomhaven-4's reads a scenario's variant, then calls the rules module's):
    a call made inside a counted one is the same fold, not counted again."""

    def __init__(self, evolve) -> None:
        self.evolve = evolve
        self.calls = 0
        self.on = False
        self.inside = False

    def __call__(self, state, event):
        return self._count(self.evolve, state, event)

    def around(self, evolve):
        return lambda state, event: self._count(evolve, state, event)

    def _count(self, evolve, state, event):
        if self.inside:
            return evolve(state, event)
        if self.on:
            self.calls += 1
        self.inside = True
        try:
            return evolve(state, event)
        finally:
            self.inside = False


class CountingTable(Table):
    """A Table whose ``submit`` counts the folds it causes (the bots' own look-ahead is not the Table's)."""

    counter: Counted

    def submit(self, *args, **kwargs):
        self.counter.on = True
        try:
            return super().submit(*args, **kwargs)
        finally:
            self.counter.on = False


@pytest.mark.parametrize("name", events.games.NAMES)
def test_core_1_every_logged_event_is_folded_once(name, monkeypatch):
    game = events.games.load(name)
    rules = importlib.import_module(f"events.games.{name}.rules")
    counter = Counted(rules.evolve)
    own = game.evolve
    monkeypatch.setattr(rules, "evolve", counter)
    monkeypatch.setattr(game, "evolve", counter if own is counter.evolve else counter.around(own))
    scenarios = [item for item in builtin_scenarios() if item.startswith(name + "/")][:3]
    for number, scenario in enumerate(scenarios):
        counter.calls, counter.on = 0, True
        table = CountingTable.create(game, "g", load(scenario)[1], number)
        counter.on = False
        table.counter = counter
        playout(table, {}, Rng(number), 150)
        assert table.seq > 2, scenario
        assert counter.calls == table.seq, f"{scenario}: {counter.calls} folds for {table.seq} logged events"


def test_core_1_a_plain_list_from_decide_is_folded_by_the_table(monkeypatch):
    """The toy game (like any game or old version that does not build a Flow) answers with a plain
    list: the Table folds it, once per event."""
    from tests.events import toy

    counter = Counted(toy.evolve)
    game = toy.make()
    monkeypatch.setattr(game, "evolve", counter)
    table = Table.create(game, "t", {"seats": ["a"]}, 1)
    assert not isinstance(game.decide(table.state, "a", toy.Roll(3), table.rng()), Flow)
    counter.on = True
    table.submit("a", toy.Roll(3), "c-1")
    assert table.seq == 4 and counter.calls == 3


def test_core_1_a_flow_that_did_not_begin_at_the_tables_state_is_folded_again():
    """A Flow keeps its states only for the state it began from: from any other, None (the Table folds)."""
    flow = Flow(0, lambda state, event: state + event)
    flow.emit(1, 2)
    assert flow == [1, 2] and flow.state == 3 and flow.states_from(0) == [1, 3]
    assert flow.states_from(1) is None
    flow += [4]  # extended as a list: its states no longer cover every event
    assert flow.states_from(0) is None
