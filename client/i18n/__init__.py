"""The words a person reads, in their language: ``t(key, **params)`` over one catalogue per language.

The catalogues are data (``client/i18n/en.json``, ``fr.json``, ``ru.json``): a key maps to a text
with named parameters (``"Waiting for {seat}…"``), or, for a text that counts something, to its
plural forms (``{"one": "{n} point", "other": "{n} points"}``), chosen by the parameter ``n`` with
the language's own rule (``plural``). The server sends the page one language's catalogue, with the
clause titles and texts and the names of places, cards and monsters in that language
(``server/i18n.py``); ``install`` takes it. The server renders its HTML shells with the same code.

What an event says comes from the games' describers as data (``events/words.py``: keys, names,
seats, codes); ``say`` renders it in the page's language, ``speak`` in any (``chronicle explain``).

Pure Python importing only ``events.words`` (plain classes), so it costs nothing in Brython
(BRYTHON.md) and runs in the server too.
"""

from __future__ import annotations

from events.words import Join, Msg, Name, Seat, Word

LANGUAGES = ("en", "fr", "ru")
DEFAULT = "en"
# The plural forms each language needs (CLDR, integers only: nothing in the pages counts in fractions).
FORMS = {"en": ("one", "other"), "fr": ("one", "other"), "ru": ("one", "few", "many")}
# Put before every text ``t`` gives when a test asks for it (``window.chronicle_i18n_check``): a test
# then finds any text node of the page that did not come from a catalogue (tests/browser/test_i18n.py).
MARK = "\u2063"

_state = {"lang": DEFAULT, "messages": {}, "clauses": {}, "names": {}, "mark": ""}


def install(payload: dict, mark: bool = False) -> None:
    """Use one language's catalogue (``{"lang", "messages", "clauses", "names"}`` as the server sends it)."""
    _state["lang"] = payload.get("lang") or DEFAULT
    _state["messages"] = payload.get("messages") or {}
    _state["clauses"] = payload.get("clauses") or {}
    _state["names"] = payload.get("names") or {}
    _state["mark"] = MARK if mark else ""


def lang() -> str:
    return _state["lang"]


def plural(language: str, n: int) -> str:
    """The CLDR plural category of the integer ``n``: en one/other; fr one (0 and 1)/other; ru one/few/many."""
    n = abs(n)
    if language == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    if language == "fr":
        return "one" if n < 2 else "other"
    return "one" if n == 1 else "other"


def render(messages: dict, language: str, key: str, params: dict) -> str:
    """``key``'s text in ``messages`` with ``params`` put in; a missing key shows as itself."""
    text = messages.get(key)
    if text is None:
        return key
    if not isinstance(text, str):
        forms = text
        text = forms.get(plural(language, int(params.get("n", 0)))) or forms.get("other") or forms.get("many") or key
    if "{" not in text:
        return text
    out = []
    rest = text
    while True:
        start = rest.find("{")
        if start < 0:
            out.append(rest)
            break
        end = rest.find("}", start)
        if end < 0:
            out.append(rest)
            break
        out.append(rest[:start])
        name = rest[start + 1 : end]
        out.append(str(params[name]) if name in params else "{" + name + "}")
        rest = rest[end + 1 :]
    return "".join(out)


def t(key: str, **params: object) -> str:
    """The text of ``key`` in the page's language, with its named parameters."""
    return _state["mark"] + render(_state["messages"], _state["lang"], key, params)


def speak(messages: dict, names: dict, language: str, part: object) -> str:
    """A describer's part (``events/words.py``) as text in ``language``, over that language's
    ``messages`` and ``names`` (``{game: {key: name}}``); ints and strings stand as they are."""
    if isinstance(part, str):
        return part
    if isinstance(part, Msg):
        params = {}
        for name, value in part.params.items():
            params[name] = value if isinstance(value, (int, str)) else speak(messages, names, language, value)
        return render(messages, language, part.key, params)
    if isinstance(part, Seat):
        if part.seat is None:
            return ""
        found = messages.get("seat." + str(part.seat))
        return found if isinstance(found, str) else str(part.seat)
    if isinstance(part, Name):
        for held_language, held in part.held:
            if held_language == language:
                return held
        found = names.get(part.game, {}).get(part.key)
        return found if found is not None else part.fallback
    if isinstance(part, Word):
        key = part.prefix + str(part.code)
        return render(messages, language, key, {}) if key in messages else str(part.code)
    if isinstance(part, Join):
        separator = speak(messages, names, language, part.separator)
        return separator.join([speak(messages, names, language, item) for item in part.items])
    return "" if part is None else str(part)


def say(part: object) -> str:
    """A describer's part in the page's language (marked once, as one text of ``t``)."""
    return _state["mark"] + speak(_state["messages"], _state["names"], _state["lang"], part)


def event_words(game: object, event: object, before: object = None) -> tuple:
    """``(description, trace lines)`` of an event in the page's language, from the game's describer
    (``game.describe``, ``game.trace``: ``events/games/<g>/words.py``); ``before`` is the state
    before the event."""
    return say(game.describe(event, before)), [say(line) for line in game.trace(event, before)]


def clause(game: str, clause_id: str) -> tuple | None:
    """``(title, text)`` of a clause in the page's language, or None if the catalogue lacks it."""
    found = _state["clauses"].get(game, {}).get(clause_id)
    if found is None:
        return None
    return _state["mark"] + found[0], _state["mark"] + found[1]


def local_name(game: str, key: str, fallback: object) -> str:
    """A place's, card's or monster's name in the page's language, or ``fallback`` (the data's own)."""
    found = _state["names"].get(game, {}).get(key)
    return _state["mark"] + (found if found is not None else str(fallback))



def has(key: object) -> bool:
    """Whether the page's catalogue has the message ``key``."""
    return isinstance(key, str) and key in _state["messages"]


def message(game: str, key: str, params: dict) -> str:
    """A message whose parameters are data, as a rejection frame carries them (docs/protocol.md):
    a seat (a parameter named ``*seat*``) or a place, card or monster id said in the page's
    language, a list joined by commas, a message ``{"key", "params"}`` rendered itself; ``n``, the
    plural's count, stays a number; a thing of the data ``{"id", "name", "own"}`` is its name in the
    page's language (the data's own ``own[lang]``, else the names catalogue's), else ``name``."""
    return _state["mark"] + render(_state["messages"], _state["lang"], key, _named(game, params))


def _named(game: str, params: object) -> dict:
    out = {}
    if isinstance(params, dict):
        for name in params:
            value = params[name]
            out[name] = value if name == "n" and type(value) is int else _named_value(game, name, value)
    return out


def _named_value(game: str, name: str, value: object) -> str:
    if isinstance(value, dict) and "id" in value:  # a thing of the data: its name in this language, else the data's
        own = value.get("own")
        found = own.get(_state["lang"]) if isinstance(own, dict) else None
        if found is None:
            found = _state["names"].get(game, {}).get(str(value.get("id")))
        return found if found is not None else str(value.get("name"))
    if isinstance(value, dict):
        return render(_state["messages"], _state["lang"], str(value.get("key")), _named(game, value.get("params")))
    if isinstance(value, list):
        return ", ".join(_named_value(game, name, item) for item in value)
    if value is None:
        return ""
    if isinstance(value, str):
        if name == "command":  # a command's type (reject.undo.not_own): its words
            return _command_name(game, value)
        if "seat" in name:
            found = _state["messages"].get("seat." + value)
            if isinstance(found, str):
                return found
        found = _state["names"].get(game, {}).get(value)
        return found if found is not None else value
    return str(value)


def seat_name(seat: object) -> str:
    """A seat (``red``, ``blue``…) as the reader's language says it; other seat names as they are."""
    if seat is None:
        return ""
    found = _state["messages"].get("seat." + str(seat))
    return _state["mark"] + (found if isinstance(found, str) else str(seat))


def command_name(game: str, kind: object) -> str:
    """A command's type in the reader's words (``tablefix.cmd.<game>.<Type>``, the engine's own under
    ``core``): what a command no board words is called on the dispute panel, in an undo's refusal and in
    the what-if, never its English type name (``tests/test_i18n.py`` checks every type has them)."""
    return _state["mark"] + _command_name(game, kind)


def _command_name(game: str, kind: object) -> str:
    for key in ("tablefix.cmd." + str(game) + "." + str(kind), "tablefix.cmd.core." + str(kind)):
        if key in _state["messages"]:
            return render(_state["messages"], _state["lang"], key, {})
    return str(kind)


def word(prefix: str, code: object) -> str:
    """A code the rules write into events (``insane``, ``fled``, ``orange``) in the reader's language:
    the message ``prefix + code`` if the catalogue has one, else the code as it is."""
    key = prefix + str(code)
    return t(key) if key in _state["messages"] else str(code)


def again(text: object) -> str:
    """A piece of a text ``t`` gave (a wrapped line of a name), marked as the whole was."""
    return _state["mark"] + str(text).replace(MARK, "")


def seat_initials(seat: object, count: int = 1) -> str:
    """A seat's token label: the first letters of its name in the reader's language (red: R, rouge:
    R, красный: К), unmarked (a token is an abbreviation; its tooltip names the seat)."""
    return seat_name(seat).replace(MARK, "")[:count].upper()


def scenario_title(titles: object, title: str) -> str:
    """A scenario's title in the page's language: ``titles[lang]`` (docs/<game>-format.md), else ``title``.
    ``titles`` translate ``title``: one whose English is not in ``title`` (a copied file whose ``title`` was
    changed, "My own table") is stale, and ``title`` is shown as written."""
    if not isinstance(titles, dict):
        return title
    english = titles.get("en")
    if isinstance(english, str) and isinstance(title, str) and english not in title:
        return title
    found = titles.get(_state["lang"])
    return found if isinstance(found, str) and found else title


def scenario_titles(scenario: object) -> dict:
    """The top-level ``titles`` of a GameStarted's scenario (a JSON text), checked as the games check them
    (``events.validate.titles``: en, fr, ru, each a text of at most 200 characters), else ``{}``.

    Only the scenario's own key counts: the first ``"titles":{`` of the text was read before, and canonical JSON
    sorts ``notes`` (which may hold anything) and ``board`` first, so a nested ``"titles"`` headed the page with
    a title no game checked. The scenario is decoded whole: it is within ``SHAPE`` (the game checked it when it
    built the state this page draws), and Brython's ``json.loads`` decodes arkham's largest (9,875 characters) in
    ~1.7 ms, where a key-by-key walk in Python took ~62 ms (measured in Chromium, this machine). A text that does
    not decode (or nests past the decoder's depth) gives ``{}``."""
    if not isinstance(scenario, str) or '"titles"' not in scenario:
        return {}
    import json  # already loaded by the page: every game's ``initial_state`` decodes its scenario with it

    from events.validate import titles  # loaded by every game's board already

    try:
        data = json.loads(scenario)
        return titles(data["titles"], "$.titles") if isinstance(data, dict) and "titles" in data else {}
    except Exception:  # refused titles (ScenarioError), not JSON, too deep (RecursionError); Brython's decoder
        return {}  # errors are not all ValueErrors
