"""Arkham's refusals name monsters as the log does, never "Ghoul (ghoul)" (issue 17), and count
movement points and Clue tokens in good English: "1 movement point is left", "1 Clue token"."""

from __future__ import annotations

from events.games.arkham.model import Move, Stop, TakeClues
from events.rules import Rejection
from tests.games import tables
from tests.games.arkham.helpers import act, inv, table
from tests.games.arkham.test_rules import scenario, zombie_and_ghoul


def said(lang, found):
    return tables.said("arkham", lang, found)


def test_ah_7_monsters_are_named_in_the_readers_language_never_by_id():
    """AH-7: leaving Rivertown past a Ghoul and a Zombie names them; French says "Goule"."""
    tab = table(zombie_and_ghoul())
    act(tab, "red", Move("rivertown"))
    refused = act(tab, "red", Move("french_hill"))
    assert isinstance(refused, Rejection) and refused.rule == "AH-7"
    assert refused.reason == "Ghoul and Zombie are in Rivertown: fight or evade each before leaving"
    assert "Goule" in said("fr", refused) and "(ghoul)" not in said("fr", refused)


def test_ah_2_one_movement_point_left_is_singular():
    """AH-2: with Speed 3 and 2 points walked, "1 movement point is left of Speed 3"."""
    tab = table(scenario([inv("red", "graveyard", speed=3)]))
    act(tab, "red", Move("french_hill"))
    refused = act(tab, "red", Move("ye_olde_magick_shoppe"))
    assert (refused.rule, refused.reason) == ("AH-2", "Ye Olde Magick Shoppe is 3 points away; 1 movement point is "
                                              "left of Speed 3")
    assert said("ru", refused).endswith("осталось 1 очко движения из Скорости 3")


def test_ah_5_one_clue_token_is_singular():
    """AH-5: "Library holds 1 Clue token: take 0 to 1, got 2"."""
    tab = table(scenario([inv("red", "library")], clues={"library": 1}))
    act(tab, "red", Stop())
    refused = act(tab, "red", TakeClues(2))
    assert (refused.rule, refused.reason) == ("AH-5", "Library holds 1 Clue token: take 0 to 1, got 2")
    assert said("fr", refused) == "Bibliothèque contient 1 Pion Indice : prenez-en de 0 à 1, reçu 2"
