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


def test_sk_c5_the_reason_a_game_ended_is_said_in_the_readers_words():
    """SK-C5: GameEnded keeps the English reason the rules write ("blue has no figure left", "all 8 rounds
    are played and both sides still stand"; logged games hash it); French and Russian say it in their
    words, with no English word of it, and a reason of another shape is shown as written."""
    from events.games.skirmish.model import GameEnded
    from server.i18n import say

    tab = table(scenario(open_rows(4, 1), [fig("ana", "red", "A1", name="Ana"), fig("aldo", "blue", "D1")]))
    english = ("has", "no", "figure", "left", "all", "rounds", "played", "both", "sides", "still", "stand", "blue",
               "the only")
    cases = ((GameEnded("red", "blue has no figure left"), "le camp bleu n’a plus aucune figurine",
              "синий: не осталось ни одной фигурки"),
             (GameEnded(None, "all 8 rounds are played and both sides still stand"), "les 8 manches sont jouées",
              "сыграны все 8 раундов"),
             (GameEnded(None, "all 1 rounds are played and both sides still stand"), "la seule manche est jouée",
              "сыгран весь 1 раунд"),
             (GameEnded(None, "all 3 rounds are played and both sides still stand"), "les 3 manches", "все 3 раунда"))
    for event, french, russian in cases:
        line = tab.game.describe(event, tab.state)
        fr, ru = say("fr", line), say("ru", line)
        assert french in fr and russian in ru, (fr, ru)
        assert not [word for word in english if f" {word} " in f" {fr} " or f" {word} " in f" {ru} "], (fr, ru)
    assert "all 1 round" not in say("en", tab.game.describe(cases[2][0], tab.state))
    odd = GameEnded(None, "all 08 rounds are played and both sides still stand")
    assert "(all 08 rounds are played and both sides still stand)" in say("fr", tab.game.describe(odd, tab.state))


def test_sk_c3_the_screens_of_an_attack_with_cover_are_said_in_the_readers_words():
    """SK-C3: AttackRolled keeps the screens as the rules write them ("the closed door door1 (C2|D2)",
    "C (c) at C1", "low objects at C1", …; logged games hash them); the trace says each in French and
    Russian with no English word of it and the figure by its name; another text is shown as written."""
    from events.games.skirmish import rules
    from events.games.skirmish.model import AttackRolled
    from events.games.skirmish.words import trace
    from server.i18n import say
    from tests.games.skirmish.helpers import builtin

    tab = table(builtin("hangar"))
    state = tab.state
    entry = state.doors[0]
    door_edge = rules.door_edges(state, entry)[0]
    wall = next(edge for edge in sorted(rules.blocked_edges(state)) if edge not in
                [e for item in state.doors for e in rules.door_edges(state, item)])
    somebody = state.figures[0]
    low = sorted(state.grid.low)[0]
    state = state.but(figures=tuple(f.but(at=low) if f.id == somebody.id else f for f in state.figures))
    screens = (rules.edge_label(state, door_edge), rules.edge_label(state, wall), rules._screen_label(state, low),
               rules._screen_label(tab.state, somebody.at), "low objects at C1", "something else at C1")
    assert screens[0].startswith("the closed door door") and screens[1].startswith("the wall ")
    assert screens[2] == f"{somebody.name} ({somebody.id}) and low objects at {rules.square_name(low)}"
    event = AttackRolled(somebody.id, state.figures[1].id, 5, 4, 9, 16, True, (1, 1), screens, False, False, 0)
    (cover,) = [line for line in trace(event, state) if line.key == "sk.trace_cover"]
    parts = cover.params["screens"].items
    assert parts[-1] == "something else at C1"
    english = ("the", "wall", "closed", "door", "low", "objects", "and", "at", f"({somebody.id})")
    for lang in ("fr", "ru"):
        for part in parts[:-1]:
            text = f" {say(lang, part)} "
            assert not [word for word in english if f" {word} " in text], text
    assert say("en", parts[0]) == f"the closed door {entry.id[4:]} ({screens[0].rsplit(' (', 1)[1]}"
    assert say("fr", parts[3]) == f"{say('fr', rules_name(somebody.name))} en {rules.square_name(somebody.at)}"


def rules_name(name):
    from events.words import Name

    return Name("skirmish", name)
