"""Skirmish's refusals name figures as the log does, never by id (issue 17): "Sir Aldo", not
"Sir Aldo (aldo)", and the page says the name in the reader's language (names/skirmish.<lang>.json)."""

from __future__ import annotations

from events.games.skirmish.model import Activate
from tests.games import tables
from tests.games.skirmish.helpers import act, fig, open_rows, scenario, table


def said(lang, found):
    return tables.said("skirmish", lang, found)


def test_sk_c5_an_enemys_figure_is_refused_by_its_name_in_each_language():
    """SK-C5: red activating blue's Sir Aldo is told so by name; French says "Sire Aldo"."""
    tab = table(scenario(open_rows(4, 1), [fig("ana", "red", "A1", name="Ana"),
                                           fig("aldo", "blue", "D1", name="Sir Aldo")]))
    refused = act(tab, "red", Activate("aldo"))
    assert (refused.rule, refused.reason) == ("SK-C5", "Sir Aldo is a blue figure, not one of red's")
    assert said("fr", refused) == "Sire Aldo est une figurine du camp bleu, pas du camp rouge"
    assert "aldo" not in said("ru", refused)


def test_sk_c2_one_movement_point_left_is_singular():
    """SK-C2: Ana (2 movement points) steps once, then a two-step path is refused at its second step with "1
    movement point left"; French "il reste 1 point de déplacement"."""
    from events.games.skirmish.model import Move

    tab = table(scenario(open_rows(9, 1), [fig("ana", "red", "A1", name="Ana", speed=1),
                                           fig("aldo", "blue", "I1", name="Sir Aldo")]))
    act(tab, "red", Activate("ana"))
    act(tab, "red", Move("ana", (1, 0), ((1, 0),)))
    refused = act(tab, "red", Move("ana", (3, 0), ((2, 0), (3, 0))))
    assert (refused.rule, refused.reason) == ("SK-C2", "step 2, C1→D1: costs 1, 2 in all; Ana has 1 movement point "
                                              "left")
    assert said("fr", refused).endswith("il reste 1 point de déplacement à Ana")


def test_sk_10_a_door_is_door_1_never_door1_in_each_language():
    """SK-10, SK-7: a contest at a door nobody holds, then for the state the door has, names it "door 1" as the log
    does ("la porte 1", "дверь 1"), never its id ``door1``."""
    from events.games.skirmish.model import ContestDoor, DecideDoor, Move
    from tests.games.skirmish.helpers import activate, end
    from tests.games.skirmish.test_rules import DOOR_ROOM

    tab = table(scenario(DOOR_ROOM, [fig("a", "red", "B2"), fig("z", "blue", "D2")]))
    activate(tab, "a")
    free = act(tab, "red", ContestDoor("a", "door1", True))
    assert (free.rule, free.reason) == ("SK-7", "nobody holds door 1: it is decided by a figure ending its turn in "
                                        "contact with it")
    assert said("fr", free).startswith("personne ne tient la porte 1 :")
    end(tab, "a")
    act(tab, "red", DecideDoor("a", "door1", False))
    activate(tab, "z")
    act(tab, "blue", Move("z", (2, 1)))
    same = act(tab, "blue", ContestDoor("z", "door1", False))
    assert (same.rule, same.reason) == ("SK-10", "door 1 is already closed")
    assert (said("fr", same), said("ru", same)) == ("la porte 1 est déjà fermée", "дверь 1 уже закрыта")
