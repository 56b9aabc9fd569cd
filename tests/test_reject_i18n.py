"""Every refusal in the player's language (issue 17): each ``Rejection`` the rules can return is a
message of the catalogue (``reject.<game>.*``, ``reject.core.*``) whose English text is the very
template the rules word ``reason`` from, so the page's words and the CLI's cannot drift.

Statically, an AST scan of each game's ``rules.py`` and of ``events/game.py`` (every ``refuse`` and
``phrase`` call, every ``Guards``); at run time, ``tests/games/conftest.py`` renders the English
catalogue with the params of every Rejection the games' own tests produce and compares it with
``reason`` (``check_rejection``, here, is what it runs).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from client import i18n
from events.game import CORE_REASONS, Guards
from events.rules import MAX_QUOTED, Named, Phrase, Rejection, phrase, refuse
from tests.games.tables import said

ROOT = Path(__file__).resolve().parent.parent
CATALOGUES = {lang: json.loads((ROOT / "client" / "i18n" / f"{lang}.json").read_text("utf-8"))
              for lang in i18n.LANGUAGES}
#: The games whose refusals are all messages (issue 17 converts them game by game).
CONVERTED = ("arkham", "echo", "gloomhaven", "mecha", "skirmish")


def names_of(template: object) -> set:
    forms = template.values() if isinstance(template, dict) else [template]
    return {part.split("}", 1)[0] for form in forms for part in form.split("{")[1:]}


def english_params(params: tuple) -> dict:
    """A Rejection's params as the English page puts them in (ids as they are, lists joined)."""
    return {name: (value if name == "n" else english_value(value)) for name, value in params}


def english_value(value: object) -> str:
    if isinstance(value, Phrase):
        return i18n.render(CATALOGUES["en"], "en", value.key, english_params(value.params))
    if isinstance(value, Named):
        return value.text
    if isinstance(value, tuple):
        return ", ".join(english_value(item) for item in value)
    return "" if value is None else str(value)


def check_rejection(rejection: Rejection) -> None:
    """The English catalogue's text of the rejection's key, with its params, is its reason; the
    key and every nested phrase's key is in all three catalogues with the params it is given."""
    assert rejection.key, f"{rejection}: no message key"
    for lang in i18n.LANGUAGES:
        for key, params in _messages(rejection.key, rejection.params):
            assert key in CATALOGUES[lang], f"{key} is missing in {lang}.json"
            assert names_of(CATALOGUES[lang][key]) <= {name for name, _value in params}, (lang, key, params)
    shown = i18n.render(CATALOGUES["en"], "en", rejection.key, english_params(rejection.params))
    assert shown == rejection.reason


def _messages(key: str, params: tuple) -> list:
    found = [(key, params)]
    for _name, value in params:
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, Phrase):
                found += _messages(item.key, item.params)
    return found


#: The games whose refusals name things (issue 17: names, never ids), checked by ``check_names``.
NAMED = ("arkham", "echo", "gloomhaven", "mecha", "skirmish")
#: An id as the data writes them: lowercase words joined by - or _ (bandit-guard-1, br-01, novice-1, red-t).
ID = re.compile(r"(?<![\w'-])[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+(?![\w'-])")
QUOTED = re.compile(r"'[^']*'")


def check_names(rejection: Rejection) -> None:
    """A reason of a game in ``NAMED`` puts in no id: no parameter (nor a phrase's) is a text holding
    one, outside what the client sent (quoted, as ``repr`` puts it: an id that names nothing is said
    as it was sent); names are ``Named`` things (a test's card may be named like an id)."""
    game = rejection.key.split(".")[1]
    if game not in NAMED:
        return
    found = sorted(_ids(rejection.key, rejection.params))
    assert not found, f"{rejection}: says the id {found}, not a name"


def _ids(key: str, params: tuple) -> set:
    template = CATALOGUES["en"][key]
    forms = template.values() if isinstance(template, dict) else [template]
    sent = {name for name, _value in params if any(f"'{{{name}}}'" in form for form in forms)}  # '{id}': as sent
    found: set = set()
    for name, value in params:
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, Phrase):
                found |= _ids(item.key, item.params)
            elif isinstance(item, str) and name not in sent:
                found |= set(ID.findall(QUOTED.sub("", item)))
    return found


def test_an_id_in_a_reason_is_found_but_a_name_or_what_the_client_sent_is_not():
    """The check of ``tests/games/conftest.py``: it can fail."""
    from events.rules import named

    with pytest.raises(AssertionError, match="bandit-guard-1"):
        check_names(refuse("GH-C5", "reject.gloomhaven.not_adjacent", "{figure} is not adjacent (a melee attack)",
                           figure="bandit-guard-1"))
    check_names(refuse("GH-C5", "reject.gloomhaven.not_a_monster", "{figure} is not a monster on the map",
                       figure=repr("bandit-guard-9")))
    check_names(refuse("GH-3", "reject.gloomhaven.card_used", "{card} was already used this turn: play the other card",
                       card=named("t-10", "t-10")))


# --- the scan ----------------------------------------------------------------------------------------

def _constant(node: ast.AST, module: dict) -> object:
    """A template as written: a string, plural forms, or a module-level name for one of them."""
    if isinstance(node, ast.Name):
        assert node.id in module, f"template {node.id} is not a module-level constant"
        return module[node.id]
    return ast.literal_eval(node)


def scan(path: Path) -> tuple:
    """(messages, bare): every ``refuse``/``phrase`` call as (line, key, template, parameter names),
    and the lines of every ``Rejection(...)`` built without a message."""
    tree = ast.parse(path.read_text("utf-8"))
    module = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                module[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                pass
    messages, bare = [], []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        if node.func.id == "Rejection":
            bare.append(node.lineno)
        elif node.func.id == "phrase" and isinstance(node.args[0], ast.Starred):  # phrase(*TABLE[clause])
            table = node.args[0].value
            assert isinstance(table, ast.Subscript) and isinstance(table.value, ast.Name), node.lineno
            for key, template in module[table.value.id].values():
                messages.append((node.lineno, key, template, set()))
        elif node.func.id in ("refuse", "phrase"):
            first = 1 if node.func.id == "refuse" else 0
            key, template = node.args[first : first + 2]
            messages.append((node.lineno, ast.literal_eval(key), _constant(template, module),
                             {keyword.arg for keyword in node.keywords}))
    return messages, bare


def _rules(name: str) -> Path:
    return ROOT / "events" / "games" / name / "rules.py"


@pytest.mark.parametrize("name", CONVERTED)
def test_every_refusal_of_the_rules_is_a_message_whose_english_text_is_its_template(name):
    messages, bare = scan(_rules(name))
    assert bare == [], f"{name}/rules.py builds a Rejection without a message at lines {bare}"
    assert messages, "the scan found no refusal"
    for line, key, template, params in messages:
        assert key.startswith(f"reject.{name}."), f"line {line}: {key} is not under reject.{name}."
        assert CATALOGUES["en"].get(key) == template, f"line {line}: en.json's {key} is not the template"
        assert names_of(template) == params, f"line {line}: {key} puts in {names_of(template)}, is given {params}"


@pytest.mark.parametrize("name", CONVERTED)
def test_every_reject_message_of_a_game_is_one_its_rules_give(name):
    """No stale message: each ``reject.<game>.*`` key is a refusal, a phrase or a guard of the game's."""
    given = {key for _line, key, _template, _params in scan(_rules(name))[0]}
    guards = _guards(name)
    given |= {key for key, _template in (guards.over, guards.no_seat, guards.not_started, guards.foreign)}
    given |= set(guards.word_keys())
    assert sorted(key for key in CATALOGUES["en"] if key.startswith(f"reject.{name}.")) == sorted(
        key for key in given if key.startswith(f"reject.{name}."))


def _guards(name: str) -> Guards:
    import events.games

    return events.games.load(name).guards


@pytest.mark.parametrize("name", ["arkham", "echo", "gloomhaven", "mecha", "skirmish"])
def test_each_games_guards_are_messages_of_the_catalogue(name):
    guards = _guards(name)
    for key, template in (guards.over, guards.no_seat, guards.not_started, guards.foreign):
        assert CATALOGUES["en"].get(key) == template, key
        assert key.startswith((f"reject.{name}.", "reject.core.")), key
    for key, code in guards.word_keys().items():
        assert CATALOGUES["en"].get(key) == code, key


#: The engine's own commands (undo with consent, CORE-4…CORE-7; a rules-version move, CORE-10/11):
#: their refusals are ``reject.undo.*`` / ``reject.consent.*`` messages, or a core guard's (``reject.core.*``).
CORE_MODULES = {"undo": ROOT / "events" / "undo.py", "consent": ROOT / "events" / "upgrade.py",
                "bots": ROOT / "events" / "bots.py"}  # a bot's no to an undo that draws anew (CORE-12)


def test_no_module_of_events_builds_a_rejection_without_a_message():
    """Every ``Rejection(...)`` under ``events/`` is built by ``refuse`` (``events/rules.py``, the one
    place that may call the constructor): a new module that refuses is found here, not on a page.

    A frozen old rules version (``events/games/gloomhaven/v1/``, ``events/games/mecha/v1.py``) is
    left as released, never edited (issue 19): its refusals stay the English facts it gave then,
    and the page marks them as English (``client/eventlog.reason_span``)."""
    found = {}
    frozen = (ROOT / "events" / "games" / "gloomhaven" / "v1", ROOT / "events" / "games" / "mecha" / "v1.py")
    for path in sorted((ROOT / "events").rglob("*.py")):
        if path == ROOT / "events" / "rules.py" or any(path == old or old in path.parents for old in frozen):
            continue
        bare = [node.lineno for node in ast.walk(ast.parse(path.read_text("utf-8")))
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Rejection"]
        if bare:
            found[str(path.relative_to(ROOT))] = bare
    assert found == {}


@pytest.mark.parametrize("area", sorted(CORE_MODULES))
def test_core_4_to_core_11_the_engines_refusals_are_messages_whose_english_text_is_their_template(area):
    messages, bare = scan(CORE_MODULES[area])
    assert bare == [] and messages
    for line, key, template, params in messages:
        assert key.startswith((f"reject.{area}.", "reject.core.")), f"line {line}: {key}"
        assert CATALOGUES["en"].get(key) == template, f"line {line}: en.json's {key} is not the template"
        assert names_of(template) == params, f"line {line}: {key} puts in {names_of(template)}, is given {params}"
    given = {key for _line, key, _template, _params in messages}
    assert sorted(key for key in CATALOGUES["en"] if key.startswith(f"reject.{area}.")) == sorted(
        key for key in given if key.startswith(f"reject.{area}."))


def test_the_faults_of_dice_typed_for_a_what_if_are_messages_whose_english_text_is_their_template():
    """``events/rng.py``'s loaded-dice faults and ``events/whatif.py``'s ``parse_dice`` faults, which
    the dispute page says, are ``dice.*`` messages (every one used), worded as the English text."""
    messages = scan(ROOT / "events" / "rng.py")[0] + scan(ROOT / "events" / "whatif.py")[0]
    for line, key, template, params in messages:
        assert key.startswith("dice."), f"line {line}: {key}"
        assert CATALOGUES["en"].get(key) == template, f"line {line}: en.json's {key} is not the template"
        assert names_of(template) == params, f"line {line}: {key} puts in {names_of(template)}, is given {params}"
    assert sorted({key for _line, key, _template, _params in messages}) == sorted(
        key for key in CATALOGUES["en"] if key.startswith("dice."))


def test_a_what_if_dice_fault_is_said_in_the_readers_language():
    from events.rng import LoadedDiceExhausted, LoadedRng

    with pytest.raises(LoadedDiceExhausted) as raised:
        LoadedRng(()).roll(8)
    fault = raised.value.fault
    assert str(raised.value) == fault.text == "no loaded value left for a d8 (given 0)"
    assert said("mecha", "ru", fault) == "не осталось значения для броска «к8» (задано 0 значений)"


def test_core_6_an_undo_refusal_names_seats_and_outcomes_in_the_readers_language():
    """CORE-6 (and CORE-11): the frame's params render with seat names and the closed request's
    outcome translated, the Russian putting a seat in the nominative after «место»."""
    from events.undo import OUTCOMES

    waits = refuse("CORE-6", "reject.undo.not_needed", CATALOGUES["en"]["reject.undo.not_needed"], seq=6,
                   seats=("blue", "green"), seat="red")
    closed = refuse("CORE-6", "reject.undo.closed", CATALOGUES["en"]["reject.undo.closed"], request=6,
                    outcome=phrase(*OUTCOMES["withdrawn"]), closed_at=9)
    own = refuse("CORE-11", "reject.consent.own_proposal", CATALOGUES["en"]["reject.consent.own_proposal"],
                 seat="red", seq=4)
    for rejection in (waits, closed, own):
        check_rejection(rejection)
    assert waits.reason == "the undo asked at seq 6 waits for blue, green, not red"
    assert said("mecha", "ru", waits) == ("отмена, запрошенная в № 6, ждёт ответа: синий, зелёный; место «красный» "
                                          "не отвечает")
    assert said("mecha", "fr", waits) == "l’annulation demandée au n° 6 attend la réponse de bleu, vert, pas de rouge"
    assert said("mecha", "fr", closed) == ("l’annulation demandée au n° 6 est retirée (n° 9) : elle n’accepte plus "
                                           "de réponse")
    assert said("mecha", "ru", own).startswith("предложение в № 4 сделало место «красный»")


def test_the_cores_guard_reasons_are_the_catalogues():
    assert {f"reject.core.{check}": text for check, text in CORE_REASONS.items()} == {
        key: text for key, text in CATALOGUES["en"].items() if key.startswith("reject.core.")}


def test_a_guard_worded_by_the_game_needs_its_prefix():
    with pytest.raises(ValueError, match="needs keys="):
        Guards("T-1", over="over at {round}")


# --- refuse and phrase -------------------------------------------------------------------------------

def test_refuse_words_the_reason_from_the_template_and_keeps_the_params_as_data():
    steps = phrase("reject.mecha.steps", {"one": "{n} step", "other": "{n} steps"}, n=1)
    rejection = refuse("MV-3", "reject.x", "Location {to} is {steps} away; free: {free}", to=4, steps=steps,
                       free=(1, 2))
    assert rejection.reason == "Location 4 is 1 step away; free: 1, 2"
    assert rejection.params == (("free", (1, 2)), ("steps", steps), ("to", 4))
    assert rejection.to_data()["params"][1][1] == {"type": "Phrase", "key": "reject.mecha.steps",
                                                   "params": [["n", 1]], "text": "1 step"}
    with pytest.raises(KeyError, match="not a parameter"):
        refuse("MV-3", "reject.x", "Location {to}")


def test_the_page_renders_a_rejection_frames_params_in_its_language():
    """What the page does with a frame's params (client/i18n ``message``): seats and ids named in
    the reader's language, a nested message rendered, ``n`` choosing the plural form."""
    from events.rules import message_data
    from server.i18n import payload

    steps = phrase("reject.mecha.steps", {"one": "{n} step", "other": "{n} steps"}, n=2)
    rejection = refuse("MV-3", "reject.mecha.range", CATALOGUES["en"]["reject.mecha.range"], to=9, mech="Mecha",
                       here=phrase("reject.mecha.from_camp", "the Camp"), low=1, high=3, steps=steps)
    params = {name: message_data(value) for name, value in rejection.params}
    try:
        i18n.install(payload("en"))
        assert i18n.message("mecha", rejection.key, params) == rejection.reason
        i18n.install(payload("ru"))
        assert i18n.message("mecha", rejection.key, params) == "локация 9 в 2 шагах от Лагеря; дальность Mecha: 1–3"
        i18n.install(payload("fr"))
        turn = refuse("MV-C3", "reject.mecha.turn", CATALOGUES["en"]["reject.mecha.turn"], seat="red",
                      other_seat="blue")
        assert i18n.message("mecha", turn.key, dict(turn.params)) == "c’est au tour de rouge, pas de bleu"
    finally:
        i18n.install(payload("en"))


def test_a_hostile_parameter_is_put_in_as_it_is_never_read_as_a_template():
    """A value a client sent (a destination named ``{n}<b>``) is text in the reason and on the page:
    its braces are not parameters, and nothing of it is markup (the page sets text, not HTML)."""
    from server.i18n import payload

    hostile = "{n}{to}<b>x</b>" + "é" * 300
    rejection = refuse("MV-1", "reject.mecha.not_a_number", CATALOGUES["en"]["reject.mecha.not_a_number"], to=hostile)
    # Check: quoted, and cut to MAX_QUOTED characters (the refusal frame stays small: issue 16).
    quoted = hostile[:MAX_QUOTED] + "…"
    assert rejection.reason == f"a Move goes to a Location number, got '{quoted}'"
    assert dict(rejection.params)["to"] == quoted
    check_rejection(rejection)
    try:
        i18n.install(payload("ru"))
        assert i18n.message("mecha", rejection.key, dict(rejection.params)).endswith(f"«{quoted}»")
    finally:
        i18n.install(payload("en"))


def test_gh_c2_the_outcome_of_a_scenario_over_is_said_in_the_readers_language():
    """GH-C2: the guards' "the scenario is over (won)" names the outcome as a message (Guards.words)."""
    import events.games
    from events.log import Table
    from server.scenarios import builtin_scenarios, load

    game = events.games.load("gloomhaven")
    scenario = load(next(item for item in builtin_scenarios() if item.startswith("gloomhaven/")))[1]
    state = Table.create(game, "g", scenario, 3).state
    seat = game.turn(state)[0]
    refused = game.decide(state.but(phase="over", outcome="out of rounds"), seat, game.legal(state, seat)[0], None)
    assert refused.reason == "the scenario is over (out of rounds)"
    check_rejection(refused)
    assert said("gloomhaven", "fr", refused) == "le scénario est terminé (plus de tours)"
