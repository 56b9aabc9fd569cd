"""The players' language (issue 17): catalogues, plural rules, clause texts, the language a request
gets, and a scan of client/ for any text a person reads that bypasses the catalogue."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

import events.games
from client import i18n
from server import i18n as served

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = {lang: json.loads((ROOT / "client" / "i18n" / f"{lang}.json").read_text("utf-8"))
              for lang in i18n.LANGUAGES}
PARAM = re.compile(r"\{([a-z_]+)\}")


def params_of(text: object) -> set:
    forms = text.values() if isinstance(text, dict) else [text]
    return {name for form in forms for name in PARAM.findall(form)}


# --- the catalogues ----------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_every_message_key_is_in_every_catalogue(lang):
    assert sorted(set(CATALOGUES["en"]) - set(CATALOGUES[lang])) == [], f"missing in {lang}.json"
    assert sorted(set(CATALOGUES[lang]) - set(CATALOGUES["en"])) == [], f"only in {lang}.json"


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_every_message_has_the_same_parameters_in_every_catalogue(lang):
    wrong = {key: (sorted(params_of(text)), sorted(params_of(CATALOGUES[lang][key])))
             for key, text in CATALOGUES["en"].items() if params_of(text) != params_of(CATALOGUES[lang][key])}
    assert wrong == {}


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_plural_message_has_exactly_the_forms_its_language_needs(lang):
    """en one/other; fr one/other (0 and 1 singular); ru one/few/many (CLDR, integers)."""
    for key, text in CATALOGUES[lang].items():
        plural_in_english = isinstance(CATALOGUES["en"][key], dict)
        assert isinstance(text, dict) == plural_in_english, f"{lang}: {key} is plural in one language only"
        if isinstance(text, dict):
            assert tuple(sorted(text)) == tuple(sorted(i18n.FORMS[lang])), f"{lang}: {key} has forms {sorted(text)}"
            assert "n" in params_of(text), f"{lang}: {key} counts nothing: its forms must use {{n}}"


def test_french_and_russian_texts_are_not_left_in_english():
    """A copy of the English text is an untranslated message (a few are the same word in French)."""
    same_in_french = {"replay.pause", "mecha.seat_mech", "mecha.col_mech", "mecha.colour_orange",
                      "mecha.colour_turquoise", "echo.who", "echo.sent_away", "echo.enemy_title", "echo.skill_attention",
                      "echo.skill_intuition", "arkham.check_combat", "gh.monster", "gh.terrain_obstacles", "gh.note",
                      "gh.col_initiative", "seat.zombies", "seat.horde",
                      "legend.gloomhaven.obstacle"}
    for lang in ("fr", "ru"):
        copied = sorted(key for key, text in CATALOGUES["en"].items()
                        if CATALOGUES[lang][key] == text and re.search(r"[^\W\d_]{2}", str(text))
                        and not (lang == "fr" and key in same_in_french) and not PARAM.fullmatch(str(text)))
        assert [key for key in copied if not _only_params(CATALOGUES[lang][key])] == [], lang


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_ec_7_ec_13_no_refusal_names_a_command_by_its_type(lang):
    """A refusal is read by a player, who never sees a command's type: "only RollAttack answers it"
    and "(CheckOrder)" (echo, EC-13 and EC-7) named the button by its wire name. A command type of
    two words or more (``RollAttack``, ``PlayCard``; one-word ones are plain words, but not "(Evade)"
    after the words that say it: EC-5) is in no ``reject.*`` message of any game."""
    tags = {tag for name in events.games.NAMES for tag in events.games.load(name).commands.names()}
    types = {tag for tag in tags if re.fullmatch(r"[A-Z][a-z]+[A-Z]\w*", tag)}
    found = sorted((key, tag) for key, text in CATALOGUES[lang].items() if key.startswith("reject.")
                   for form in (text.values() if isinstance(text, dict) else [text])
                   for tag in tags if re.search(rf"\b{tag}\b" if tag in types else rf"\({tag}\)", form))
    assert types and found == []


#: A Russian preposition, then a parameter that is a name (a seat, an investigator, a figure, an enemy).
RU_NAME_AFTER_PREPOSITION = re.compile(
    r"(?<![\w-])(у|против|от|для|без|после|до|из|с|со|к|ко|о|об|при|за|на|в|по)\s+«?\{([a-z_]*(seat|who|name|fighter|"
    r"partner|actor|roller|figure|enemy|investigator|monster|character|hero|tied)[a-z_]*)\}", re.IGNORECASE)


def test_ru_a_name_never_follows_a_preposition_bare():
    """A name comes into a Russian message in the nominative ("красный", "Красный солдат", "сэр Шурф"), and a
    preposition wants another case: "у Красный солдат осталось 3", "против красный". A noun in the right case
    goes between them ("у фигуры «Красный солдат»", "против игрока красный", "у сыщика сэр Шурф")."""
    bare = sorted((key, found.group(0)) for key, text in CATALOGUES["ru"].items()
                  for form in (text.values() if isinstance(text, dict) else [text])
                  for found in [RU_NAME_AFTER_PREPOSITION.search(form)] if found)
    assert bare == []


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_seat_of_every_built_in_scenario_is_named_in_every_language(lang):
    """The lobby, the seat links and every log line name a seat with ``seat.<id>``; skirmish/hangar's
    "rebels" and "troopers" had none and stayed English on French and Russian pages."""
    from events.log import Table
    from server import scenarios

    seats = set()
    for name in scenarios.builtin_scenarios():
        game_name, scenario = scenarios.load(name)
        game = events.games.load(game_name)
        seats.update(game.seats(Table.create(game, "g-seats", scenario, "00" * 32).state))
    assert {"red", "rebels", "troopers"} <= seats
    assert sorted(seat for seat in seats if "seat." + seat not in CATALOGUES[lang]) == []


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_sk_5_the_legend_names_each_terrain_as_the_panel_and_the_refusals_do(lang):
    """SK-3, SK-5: a French reader saw "fosse" in the board's legend and "puits" in the terrain panel, the
    refusals and the clause title: one terrain, one word (the legend's and the panel's, before " (")."""
    terrains = [key[len("sk.terrain_"):] for key in CATALOGUES[lang] if key.startswith("sk.terrain_")]
    words = {terrain: (CATALOGUES[lang]["sk.terrain_" + terrain].split(" (")[0],
                       CATALOGUES[lang].get("legend.skirmish." + terrain, "").split(" (")[0]) for terrain in terrains}
    assert "pit" in words and {terrain: pair for terrain, pair in words.items() if pair[0] != pair[1]} == {}


@pytest.mark.parametrize("lang, words", [("en", "red's turn ends: the last of round 12"),
                                         ("fr", "fin du tour de rouge : le dernier de la manche 12"),
                                         ("ru", "красный: ход окончен, последний в раунде 12")])
def test_mv_c3_the_last_turn_of_the_last_round_names_no_round_after_it(lang, words):
    """MV-C3: the last TurnEnded of a 12-round game records round 13 (the round that would come), and the
    log said "blue plays (round 13)" just before "the game ends after 12 rounds"."""
    from events.games.mecha.model import TurnEnded
    from events.log import Table
    from server import scenarios

    game = events.games.load("mecha")
    state = Table.create(game, "g-last", scenarios.load("mecha/sample")[1], "00" * 32).state
    last = state.but(round=state.rounds)
    said = served.say(lang, game.describe(TurnEnded("red", "blue", state.rounds + 1), last))
    assert said == words and str(state.rounds + 1) not in said
    assert served.say("en", game.describe(TurnEnded("red", "blue", 2), state)) == "red's turn ends; blue plays (round 2)"


@pytest.mark.parametrize("lang, words", [("en", "round 6 ends: the last"), ("fr", "fin de la manche 6 : la dernière"),
                                         ("ru", "раунд 6 окончен: он последний")])
def test_sk_c5_the_last_round_ends_with_no_side_opening_the_next(lang, words):
    """SK-C5: after the last round of skirmish/courtyard (6) the log said "round 6 ends; red opens the next"."""
    from events.games.skirmish.model import RoundEnded
    from events.log import Table
    from server import scenarios

    game = events.games.load("skirmish")
    state = Table.create(game, "g-last", scenarios.load("skirmish/courtyard")[1], "00" * 32).state
    assert state.rounds == 6
    last = state.but(round=state.rounds)
    assert served.say(lang, game.describe(RoundEnded(6, "red"), last)) == words
    assert served.say("en", game.describe(RoundEnded(2, "red"), state.but(round=2))) == "round 2 ends; red opens the next"


@pytest.mark.parametrize("lang, words", [("en", "blue's movement is over: the last of round 3"),
                                         ("fr", "le mouvement de bleu est fini : le dernier de la manche 3"),
                                         ("ru", "синий: движение окончено, последнее в раунде 3")])
def test_ah_1_the_last_movement_of_the_last_phase_names_no_round_after_it(lang, words):
    """AH-1: arkham/crossing has 3 Movement phases; its last TurnEnded records round 4 and the log said
    "blue's movement is over; red moves (round 4)" before "the last Movement phase is over"."""
    from events.games.arkham.model import TurnEnded
    from events.log import Table
    from server import scenarios

    game = events.games.load("arkham")
    state = Table.create(game, "g-last", scenarios.load("arkham/crossing")[1], "00" * 32).state
    last = state.but(round=state.rounds)
    said = served.say(lang, game.describe(TurnEnded("blue", "red", state.rounds + 1), last))
    assert state.rounds == 3 and said == words


def _only_params(text: object) -> bool:
    return not re.search(r"[^\W\d_]{2}", PARAM.sub("", str(text)))


# --- plural rules and rendering ---------------------------------------------------------------------

def test_ru_plural_forms_1_ochko_2_ochka_5_ochkov_21_ochko():
    forms = {"one": "{n} очко", "few": "{n} очка", "many": "{n} очков"}
    said = [i18n.render({"k": forms}, "ru", "k", {"n": n}) for n in (1, 2, 5, 11, 12, 14, 21, 22, 25, 101, 111, 0)]
    assert said == ["1 очко", "2 очка", "5 очков", "11 очков", "12 очков", "14 очков", "21 очко", "22 очка",
                    "25 очков", "101 очко", "111 очков", "0 очков"]


def test_fr_plural_forms_0_and_1_are_singular():
    forms = {"one": "{n} point", "other": "{n} points"}
    assert [i18n.render({"k": forms}, "fr", "k", {"n": n}) for n in (0, 1, 2, 21)] == [
        "0 point", "1 point", "2 points", "21 points"]


def test_en_plural_forms_only_1_is_singular():
    forms = {"one": "{n} movement point", "other": "{n} movement points"}
    assert [i18n.render({"k": forms}, "en", "k", {"n": n}) for n in (0, 1, 2)] == [
        "0 movement points", "1 movement point", "2 movement points"]


def test_render_puts_named_parameters_in_and_shows_a_missing_key_as_itself():
    messages = {"wait": "Waiting for {seat}…", "odd": "{a} and {b}"}
    assert i18n.render(messages, "en", "wait", {"seat": "red"}) == "Waiting for red…"
    assert i18n.render(messages, "en", "odd", {"a": "{b}", "b": 2}) == "{b} and 2"  # values are not re-read
    assert i18n.render(messages, "en", "no.such", {}) == "no.such"


def test_t_marks_its_text_only_when_a_test_asks():
    try:
        i18n.install({"lang": "fr", "messages": CATALOGUES["fr"]}, mark=True)
        assert i18n.t("play.waiting", seat="rouge") == i18n.MARK + "En attente de rouge…"
        i18n.install({"lang": "fr", "messages": CATALOGUES["fr"]})
        assert i18n.t("play.waiting", seat="rouge") == "En attente de rouge…" and i18n.lang() == "fr"
    finally:
        i18n.install({})


# --- clause titles and texts ------------------------------------------------------------------------

@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("name", served.GAMES)
def test_every_clause_has_a_title_and_a_text_in_every_language(name, lang):
    table = served.clauses(lang)[name]
    ids = events.games.load(name).catalogue.ids()
    assert sorted(table) == sorted(ids)
    for cid in ids:
        title, text = table[cid]
        assert title.strip() and text.strip(), f"{name} {cid} {lang}"
    if lang != "en":  # translated, not copied
        english = served.clauses("en")[name]
        assert [cid for cid in ids if table[cid] == english[cid]] == []


def test_echo_titles_are_in_one_language_each():
    """EC-17 in English is "Defeated enemies", in Russian "Побеждённые враги": never both at once."""
    assert served.clauses("en")["echo"]["EC-17"][0] == "Defeated enemies"
    assert served.clauses("ru")["echo"]["EC-17"][0] == "Побеждённые враги"
    assert served.clauses("fr")["echo"]["EC-17"][0] == "Ennemis vaincus"


# --- the language of a request ----------------------------------------------------------------------

@pytest.mark.parametrize("header, cookie, expected", [
    (None, None, "en"),
    ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", None, "fr"),
    ("de-DE,ru;q=0.8,en;q=0.5", None, "ru"),
    ("en;q=0.5, ru;q=0.9", None, "ru"),
    ("ru;q=0, fr;q=0.1", None, "fr"),
    ("fr, ru", None, "fr"),  # equal quality: the first
    ("fr", "ru", "ru"),  # the switcher's cookie wins
    ("fr", "de", "fr"),  # a cookie naming no language of ours is ignored
    ("RU-ru", None, "ru"),
    ("zh-Hant;q=1.0", None, "en"),
])
def test_the_language_is_the_cookie_then_accept_language_then_english(header, cookie, expected):
    assert served.pick(header, cookie) == expected


@pytest.mark.parametrize("header", [
    "fr;q=abc", "fr;q=", "fr;q=2", "fr;q=-1", "fr;q=0.12345", ";;;,,,", "q=0.5", "\x00\xff", "ru;" + "a" * 10_000,
    ",".join(["de"] * 10_000) + ",ru", "fr;q=0.5;q=0.9", "f" * 100_000,
])
def test_a_hostile_accept_language_never_fails_and_picks_one_of_ours(header):
    """Any header is read in bounded time (MAX_ACCEPT_LANGUAGE characters, MAX_RANGES ranges)."""
    assert served.pick(header, None) in i18n.LANGUAGES
    assert served.pick(",".join(["de"] * 10_000) + ",ru", None) == "en"  # past MAX_RANGES: not read


# --- a server's error codes in words ------------------------------------------------------------------

@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_error_code_the_pages_word_has_a_text_and_is_one_the_server_sends(lang):
    """client/pages/errors.py's ERRORS: each with ``error.<code>`` in every catalogue, and each a code
    docs/protocol.md documents (``not-connected`` is the page's own: no socket to send on)."""
    from client.pages.errors import ERRORS
    assert sorted(code for code in ERRORS if "error." + code not in CATALOGUES[lang]) == []
    documented = set(re.findall(r"`([a-z]+(?:-[a-z]+)*)`", (ROOT / "docs" / "protocol.md").read_text("utf-8")))
    assert sorted(ERRORS - documented - {"not-connected"}) == []


# --- gloomhaven's trace (GH-C8, GH-C9): English step names in the event, read in the reader's words ---

def _focus_steps() -> list:
    from events.games.gloomhaven import focus
    return list(focus.C8_STEPS + focus.C9_STEPS + focus.STOP_STEPS) + ["GH-C4 negative hexes"]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_gh_c8_every_step_and_label_focus_writes_has_a_text(lang):
    """A step name or a score label focus.py can write with no catalogue entry would reach the page in English."""
    from events.games.gloomhaven import focus, words
    assert [step for step in _focus_steps() if "gh.step." + step not in CATALOGUES[lang]] == []
    labels = set(focus.LABELS.values()) | {"value"}
    assert sorted(labels - set(words.LABELS)) == []
    assert [label for label in sorted(labels) if "gh.label." + label not in CATALOGUES[lang]] == []


def test_gh_c9_a_weighed_destination_reads_in_french_and_russian():
    """Check: the step (with GH-C10's and GH-C11's suffixes) and the detail focus._detail writes, as the
    describer (events/games/gloomhaven/words.py) words them for the page (client.i18n.say)."""
    from events.games.gloomhaven import focus, words

    def trace_step(step: str) -> str:
        return i18n.say(words.step(step))

    def trace_detail(detail: str) -> str:
        return i18n.say(words.detail(detail))
    step = focus.C8_STEPS[1] + " (area, GH-C10): tied, the players choose (GH-C11)"
    detail = f"{focus._detail((False, -2, 5), focus.C8_STEPS)} (best: {focus._detail((True, -3, 1), focus.C8_STEPS)})"
    assert detail == "disadvantage no; targets 2; group 5 (best: disadvantage yes; targets 3; group 1)"
    try:
        i18n.install({"lang": "fr", "messages": CATALOGUES["fr"]})
        assert trace_step(step) == "GH-C8 (2) le plus de cibles (zone, GH-C10) : égalité, les joueurs choisissent (GH-C11)"
        assert trace_detail(detail) == ("désavantage non; cibles 2; groupe 5 "
                                        "(meilleur : désavantage oui; cibles 3; groupe 1)")
        assert trace_detail("enters 2 negative hex(es); 0 is the fewest") == \
            "entre dans 2 hexagones négatifs ; le minimum est 0"
        i18n.install({"lang": "ru", "messages": CATALOGUES["ru"]})
        assert trace_detail("enters 1 negative hex(es); 0 is the fewest") == \
            "входит в 1 негативный гекс; наименьшее число — 0"
        assert trace_step("a step focus.py does not write") == "a step focus.py does not write"
    finally:
        i18n.install({})


# --- no player-facing literal outside the catalogue -------------------------------------------------

# Calls whose argument at this position is text a person reads.
SINKS = {"el": 1, "set_text": 1, "notice": 0, "message": 0, "fail": 0, "failed": 0, "notice_row": 0}
# Methods of a renderer whose returned strings are read (the log, the prompt, button labels).
READ_RETURNS = {"describe", "trace", "label", "_label", "prompt_text", "_where", "both"}
READ_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}
WORD = re.compile(r"[^\W\d_]{2,}")
# Literals that are not messages: checked here one by one, each with its reason.
ALLOWED = {
    "Chronicle",  # the product's name, in every language
}


def _literals(node: ast.AST) -> list:
    """String constants in an expression that would reach the page, skipping t(...)'s key and format specs."""
    found = []

    def visit(item: ast.AST) -> None:
        if isinstance(item, ast.Call) and getattr(item.func, "id", getattr(item.func, "attr", "")) in (
                "t", "word", "local_name", "seat_name", "getAttribute", "get", "startswith", "join",
                "error_text"):  # error_text(code, ...): a server's error code looked up in the catalogue
            for keyword in item.keywords:
                visit(keyword.value)
            return
        if isinstance(item, ast.Constant) and isinstance(item.value, str):
            found.append((item.lineno, item.value))
            return
        if isinstance(item, ast.FormattedValue):
            visit(item.value)
            return
        if isinstance(item, (ast.Subscript, ast.Attribute, ast.Compare)):
            return  # data read from a record or a dict (names, numbers, ids), or a test on it
        for child in ast.iter_child_nodes(item):
            visit(child)

    visit(node)
    return found


def _read_texts(tree: ast.AST) -> list:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name in SINKS and len(node.args) > SINKS[name]:
                out += _literals(node.args[SINKS[name]])
            if name == "svg" and len(node.args) > 3:
                out += _literals(node.args[3])
            if name == "svg":
                out += [lit for keyword in node.keywords if keyword.arg == "text" for lit in _literals(keyword.value)]
            if name == "setAttribute" and len(node.args) == 2 and getattr(node.args[0], "value", "") in READ_ATTRIBUTES:
                out += _literals(node.args[1])
        if isinstance(node, ast.FunctionDef) and node.name in READ_RETURNS:
            for ret in ast.walk(node):
                if isinstance(ret, ast.Return) and ret.value is not None:
                    out += _literals(ret.value)
        if isinstance(node, ast.FunctionDef) and node.name == "pick_command":
            for ret in ast.walk(node):
                if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Tuple):
                    out += _literals(ret.value.elts[-1])  # (command type, data, label): the label is read
    return out


def client_modules() -> list:
    return sorted(path for path in (ROOT / "client").rglob("*.py"))


@pytest.mark.parametrize("path", client_modules(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_client_module_puts_a_literal_word_on_the_page(path):
    tree = ast.parse(path.read_text("utf-8"))
    words = [(line, text) for line, text in _read_texts(tree) if WORD.search(text) and text not in ALLOWED]
    assert words == [], f"{path.name}: put these through client.i18n.t (and the catalogues)"


def test_every_catalogue_key_the_client_names_exists():
    keys = set()
    for path in client_modules():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "t" and node.args and \
                    isinstance(node.args[0], ast.Constant):
                keys.add(node.args[0].value)
    assert sorted(keys - set(CATALOGUES["en"])) == []
    rendered = set(re.findall(r"\{\{([a-z0-9_]+\.[a-z0-9_.]+)\}\}", (ROOT / "server" / "pages.py").read_text("utf-8")))
    rendered |= {"page.lobby", "page.play", "page.watch", "page.replay", "page.language"}
    assert sorted(rendered - set(CATALOGUES["en"])) == []


def test_the_scan_finds_literal_words_in_every_kind_of_sink():
    """The scan above can fail: each way a word reaches the page is caught, a t() key is not."""
    source = '''
el("p", "Hello there")
set_text(node, f"{seat} moves")
node.setAttribute("title", "a tooltip")
svg("text", "cls", (), "a label")
el("p", t("play.over"))
class View:
    def describe(self, event):
        return "game over" if event.TYPE == "GameEnded" else t("log.started")
    def pick_command(self, state, seat, place):
        return "Move", {"to": place}, f"Move to {place}"
'''
    found = sorted(text for _line, text in _read_texts(ast.parse(source)) if WORD.search(text))
    assert found == [" moves", "Hello there", "Move to ", "a label", "a tooltip", "game over"]
