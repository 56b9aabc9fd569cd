"""The catalogue's words on a phone and in Russian (the tableux pass, after tableqa): one term per thing,
no "click" on a touch screen, a figure's name in the case its sentence needs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from events.games.skirmish.words import screen
from server.i18n import say
from tests.games.skirmish.helpers import builtin, table

CATALOGUES = Path(__file__).resolve().parents[1] / "client" / "i18n"


def texts(language: str) -> dict:
    """Every text of a catalogue: key -> the text (a plural message's forms joined)."""
    data = json.loads((CATALOGUES / f"{language}.json").read_text(encoding="utf-8"))
    return {key: " | ".join(value.values()) if isinstance(value, dict) else value for key, value in data.items()}


@pytest.mark.parametrize("language, pattern", [("en", r"\bclick"), ("fr", r"cliqu|\bclic\b"), ("ru", r"щёлк|щелк|щелч|клик")])
def test_no_text_tells_a_phones_reader_to_click(language, pattern):
    """A phone is tapped, a desktop clicked: the prompts say "choose" ("choisissez", "выберите")."""
    found = {key: text for key, text in texts(language).items() if re.search(pattern, text, re.IGNORECASE)}
    assert found == {}


def test_ru_a_played_game_is_a_partiya_everywhere():
    """"Партия окончена" and "Игра окончена" both stood for a game that is over: a played game is
    "партия"; "игра" stays where it means the game itself (its scripts, its cards, its commands)."""
    words = texts("ru")
    found = {key: text for key, text in words.items()
             if re.search(r"[Ии]гра (окончена|ещё не началась|идёт|продолжается)|в этой игре нет|в конце игры", text)}
    assert found == {}
    assert words["play.over"] == "Партия окончена." and words["sk.over_drawn"].startswith("Партия окончена")


def test_ru_dice_are_kubiki_and_a_figure_is_a_figurka():
    words = texts("ru")
    assert {key for key, text in words.items() if re.search(r"\b[Кк]ост(и|ями|ей)\b", text)} == set()
    assert {key for key, text in words.items() if re.search(r"\bфигур(а|ы|у|е|ой)?\b", text)} == set()


def test_sk_c3_ru_a_figure_that_screens_a_line_is_named_in_the_accusative():
    """SK-C3: "the line passes through Red trooper at C3" said "через Красный солдат на C3" (the
    nominative after "через"); the name now follows its noun, "через фигурку «Красный солдат» на C3"."""
    state = table(builtin("courtyard")).state
    item = state.figures[0]
    part = screen(state, f"{item.name} ({item.id}) at C3")
    local = json.loads((CATALOGUES / "names" / "skirmish.ru.json").read_text(encoding="utf-8")).get(item.name, item.name)
    assert say("ru", part) == f"фигурку «{local}» на C3"
    assert say("ru", part).join(("проходит через ", "")) == f"проходит через фигурку «{local}» на C3"


def test_fr_a_round_is_a_manche_in_the_games_that_say_so():
    """French said "manche" and "round" for the same round of mecha, arkham, echo and skirmish (the
    skirmish panel "Manche 1 / 6" beside "quand les rounds sont épuisés"); gloomhaven keeps "round"."""
    found = {key: text for key, text in texts("fr").items()
             if "gloomhaven" not in key and not key.startswith(("gh.", "ask.gh")) and re.search(r"(?<!{)\brounds?\b(?!})", text)}
    assert found == {}


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_an_event_is_numbered_not_a_seq_in_french_and_russian(language):
    """"Спор: seq 3", "Litige : seq 3": the protocol's word on the dispute panel; an event has a number
    ("№ 3", "n° 3") as the hash badge and the undo box already said. A ``?seq=`` in a URL stays."""
    found = {key: text for key, text in texts(language).items() if re.search(r"(?<![?{])\bseq\b(?!=)", text)}
    assert found == {}


def test_fr_gh_a_round_is_a_round_and_a_turn_a_tour():
    """Gloomhaven's French said "Tour 1 sur 8" for a round and "à son tour" for a figure's turn (the
    French edition: "round" and "tour"); its refusals already said "round"."""
    found = {key: text for key, text in texts("fr").items()
             if key.startswith("gh.") and re.search(r"\b[Tt]our \{round\}", text) or key == "gh.col_round" and "tour" in text}
    assert found == {}


def clause_texts(game: str, language: str) -> dict:
    """A game's clause ID -> its title and text in ``language`` ("en": the digest in clauses.py), as the
    log's clause badges and the dispute panel show them."""
    module = __import__(f"events.games.{game}.clauses", fromlist=["CATALOGUE"])
    if language == "en" or (game == "echo" and language == "ru"):  # echo's Russian is its clauses.py's own
        catalogue = {"en": module.ENGLISH, "ru": module.RUSSIAN}[language] if game == "echo" else module.CATALOGUE
        return {clause.id: f"{clause.title} | {clause.text}" for clause in catalogue.by_id.values()}
    data = json.loads((CATALOGUES / "clauses" / f"{game}.{language}.json").read_text(encoding="utf-8"))
    return {cid: " | ".join(pair) for cid, pair in data.items()}


ROUND_WORDS = {("fr", "gloomhaven"): r"\brounds?\b", ("fr", "other"): r"\bmanches?\b", ("ru", "any"): r"раунд"}


@pytest.mark.parametrize("game", ["mecha", "arkham", "echo", "skirmish", "gloomhaven"])
@pytest.mark.parametrize("language", ["fr", "ru"])
def test_a_clause_says_round_where_the_digest_does_in_the_catalogue_s_word(game, language):
    """Gloomhaven's French clauses said "au début d'un tour", "le tour se termine" for a round (GH-1, GH-8,
    GH-C2, GH-C5, GH-C6) where its messages say "round" and "tour" is a figure's turn; arkham's and echo's
    said "round" (AH-C3, EC-5, EC-6, EC-15, EC-C3) where their messages say "manche". Each clause names a
    round as often as the English digest does, in the word of that language's catalogue for that game."""
    if language == "fr":
        pattern = ROUND_WORDS[("fr", "gloomhaven" if game == "gloomhaven" else "other")]
    else:
        pattern = ROUND_WORDS[("ru", "any")]
    english = clause_texts(game, "en")
    local = clause_texts(game, language)
    wrong = {}
    for cid, text in english.items():
        expected = len(re.findall(r"\brounds?\b(?! down)", text, re.IGNORECASE))
        found = len(re.findall(pattern, local.get(cid, ""), re.IGNORECASE))
        if found != expected:
            wrong[cid] = (expected, found, local.get(cid, ""))
    if language == "fr" and game != "gloomhaven":
        wrong.update({cid: ("no 'round'", text) for cid, text in local.items() if re.search(r"\brounds?\b", text, re.I)})
    assert wrong == {}


def test_fr_a_seat_is_a_place_never_a_siege():
    """The French catalogue calls a seat "place" ("Chaque lien de place", "la place à la gauche de…"); the
    rules-version consent said "sièges" (consent.how, consent.log_agreed, CORE-3, CORE-10, CORE-11)."""
    found = {key: text for key, text in texts("fr").items() if re.search(r"si[èe]ges?\b", text)}
    assert found == {}
