"""Gloomhaven's initiative notes (GH-2, GH-C3) are said in the reader's words (issue 17): InitiativeSet
keeps the English note the rules write (logged games hash it); the trace reads its fixed shape and names
the two tied in the reader's language; a note of another shape is shown as written."""

from __future__ import annotations

from events.games.gloomhaven.model import ChooseOrder, InitiativeSet, SelectCards
from server.i18n import say
from tests.games.gloomhaven.helpers import act, first, mcard, monster_type
from tests.games.gloomhaven.test_rules import IDLE, duo, pick, solo

#: The English words of the four notes (names aside).
ENGLISH = ("and", "both", "have", "initiative", "character", "acts", "first", "tie", "at", "their", "other",
           "cards", "decide", "the", "players", "put", "on", "red", "blue", "Bandit Guard")
GUARD = monster_type("Bandit Guard", [mcard("g-1", 50, {"move": 0})], move=0)


def notes_said(events, before):
    """Each note of the InitiativeSet among ``events``, as the trace says it in en, fr and ru."""
    initiative = first(events, "InitiativeSet")
    lines = [line for line in _trace(initiative, before) if getattr(line, "key", "").startswith("gh.note")]
    assert len(lines) == len(initiative.notes) > 0
    return initiative.notes, [{lang: say(lang, line) for lang in ("en", "fr", "ru")} for line in lines]


def _trace(event, state):
    from events.games import load

    return load("gloomhaven").trace(event, state)


def no_english(text):
    padded = f" {text} ".replace(":", " ").replace(",", " ").replace("(", " ")
    return [word for word in ENGLISH if f" {word} " in padded]


def check(notes, said, french, russian):
    for note, text in zip(notes, said):
        assert text["en"] == note, (text["en"], note)
        assert not no_english(text["fr"]) and not no_english(text["ru"]), (text["fr"], text["ru"])
    assert french in said[0]["fr"] and russian in said[0]["ru"], said


def test_gh_2_a_character_tied_with_a_monster_note_is_said_in_the_readers_words():
    """GH-2: "red and Bandit Guard both have initiative 50: the character acts first (GH-2)"."""
    tab = solo(figures=[("Bandit Guard", "normal", 1, (8, -2))], types=[GUARD])
    before = tab.state
    notes, said = notes_said(pick(tab, cards=("t-50", "t-10"), dice=(50,)), before)
    check(notes, said, "rouge et Garde bandit ont tous deux l’initiative 50 : le personnage agit en premier",
          "красный и Бандит-страж: у обоих инициатива 50, персонаж ходит первым")


def test_gh_2_tied_characters_other_cards_note_is_said_in_the_readers_words():
    """GH-2: "red and blue tie at 10: their other cards (20 < 30) decide (GH-2)"."""
    tab = duo()
    act(tab, "blue", SelectCards(("o-10", "o-30"), "o-10"))
    before = tab.state
    notes, said = notes_said(pick(tab, cards=("t-10", "t-20"), leading="t-10"), before)
    check(notes, said, "rouge et bleu sont à égalité à 10 : leurs autres cartes (20 < 30) décident",
          "красный и синий: равенство на 10, решают их другие карты (20 < 30)")


def test_gh_2_a_full_tie_the_players_settled_note_is_said_in_the_readers_words():
    """GH-2: "blue and red tie at 10 and on their other cards: the players put blue first (GH-2)"."""
    tab = duo()
    act(tab, "blue", SelectCards(("o-10", "o-20"), "o-10"))
    pick(tab, cards=("t-10", "t-20"), leading="t-10")
    act(tab, "blue", ChooseOrder(("blue", "red")))  # gloomhaven-7 (GH-2): red agrees
    before = tab.state
    notes, said = notes_said(act(tab, "red", ChooseOrder(("blue", "red"))), before)
    check(notes, said, "les joueurs placent bleu en premier", "игроки ставят первым: синий")


def test_gh_c3_monster_types_the_players_ordered_note_is_said_in_the_readers_words():
    """GH-C3: "Statue and Dummy tie at 90: the players put Statue first (GH-C3)"."""
    statue = monster_type("Statue", [mcard("st-1", 90, {"move": 0})], move=0)
    tab = solo(figures=[("Dummy", "normal", 1, (8, -2)), ("Statue", "normal", 1, (8, -1))], types=[IDLE, statue])
    pick(tab, dice=(90, 90))
    before = tab.state
    notes, said = notes_said(act(tab, "red", ChooseOrder(("Statue", "Dummy"))), before)
    check(notes, said, "Statue et Dummy sont à égalité à 90 : les joueurs placent Statue en premier (GH-C3)",
          "Statue и Dummy: равенство на 90, игроки ставят первым: Statue (GH-C3)")


def test_gh_2_a_note_of_another_shape_is_shown_as_written():
    """GH-2: a note naming nobody of the state, or an initiative that is no number, is shown as written."""
    tab = solo()
    for note in ("red and Nobody tie at 10: the players put red first (GH-C3)",
                 "red and Dummy tie at ten: the players put red first (GH-C3)",
                 "red and Dummy tie at 10: the players put Dummy first (GH-2)"):
        (line,) = _trace(InitiativeSet((), (note,), "GH-2"), tab.state)
        assert say("fr", line) == note
