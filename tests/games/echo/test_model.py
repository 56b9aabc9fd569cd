"""The echo records as declarations (STYLE habits 3 and 4): all registered, one fold case per event."""

from __future__ import annotations

import pytest

from events.games.echo import model
from events.games.echo.model import (
    COMMANDS,
    EVENTS,
    Cards,
    Combat,
    Enemy,
    EnemyCard,
    Investigator,
    Item,
    Link,
    Location,
    Map,
    Move,
    Spell,
    State,
)
from events.log import Table
from tests.games.echo.helpers import GAME, builtin, scenario, table
from tests.games.echo.samples import SAMPLES
from tests.games.tables import unregistered_records


def test_every_record_class_is_registered():
    """A record class in model.py that no registry knows could never be decoded: all but the
    state's parts, which are only ever folded from events, never decoded."""
    parts = {State, Map, Location, Link, Cards, EnemyCard, Spell, Item, Investigator, Enemy, Combat}
    assert unregistered_records(model, EVENTS, COMMANDS) == parts


def test_ec_c3_a_played_game_folds_one_of_every_event_type():
    """EC-C3 / STYLE habit 3: long random games of the built-ins meet every event type, and a replay
    of their logs (a plain fold) reaches the same state hash."""
    from events.canonical import state_hash
    from events.log import fold
    from events.rng import Rng

    seen = set()
    for name in ("bunba-brawl", "first-case", "novice-duel"):
        for seed in range(12):
            tab = Table.create(GAME, "g", builtin(name), seed)
            chooser = Rng(seed)
            for n in range(400):
                if GAME.is_over(tab.state):
                    break
                seat = GAME.turn(tab.state)[0]
                tab.submit(seat, chooser.pick(tuple(GAME.legal(tab.state, seat))), f"c{n}")
            seen |= {envelope.type for envelope in tab.envelopes}
            replayed = fold(GAME, [envelope.event for envelope in tab.envelopes])
            assert state_hash(replayed) == tab.envelopes[-1].hash
    # Death is rare in random play: add one, scripted (EC-18).
    from events.games.echo.model import CheckOrder, Fight, RollAttack
    from tests.games.echo.helpers import act, cards, enemy_card

    brute = enemy_card("brute-t", attack={"blue": 0, "red": 6})
    tab = table(scenario([("red", "kofa", "iafakh")], [("brute-1", "brute-t", "iafakh")],
                         card_data=cards(enemies=(brute,))))
    act(tab, "red", Fight())
    act(tab, "red", CheckOrder("attention"), (1, 1, 1, 1, 1))
    seen |= {event.TYPE for event in act(tab, "red", RollAttack(), (6,) * 6)}
    assert seen == set(EVENTS.names()) | {"SecretRevealed"}  # CORE-2 ends every finished game


def test_evolve_refuses_an_unknown_event_naming_it():
    with pytest.raises(TypeError, match="echo cannot fold an event of type Move"):
        GAME.evolve(table(scenario([("red", "melifaro", "old-city")])).state, Move("iafakh"))


def test_samples_cover_every_registered_type():
    assert set(SAMPLES) == set(EVENTS.names()) | set(COMMANDS.names())
