"""The players' language: which one a request gets, and the catalogue script each page loads.

The language is the ``chronicle-lang`` cookie if it names one we have (the page's switcher sets it),
else the best of ``Accept-Language`` (RFC 9110 §12.5.4: quality values, then order), else English.
Each language's catalogue (``client/i18n/<lang>.json``), the clause titles and texts of every game
in it (English: the games' own catalogues; French and Russian: ``client/i18n/clauses/``) and the
names of places, cards and monsters (``client/i18n/names/``) go to the browser as one small script,
``/static/i18n/i18n-<lang>.<hash>.js``, that sets a JSON string the page parses once
(``client/main.py``). Its name carries a hash of its content, so it is cached for a year.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib
import json
from pathlib import Path

from client import i18n
from events.games import NAMES

ROOT = Path(__file__).resolve().parent.parent / "client" / "i18n"
COOKIE = "chronicle-lang"
GAMES = NAMES  # every rule system: a new one gets its clauses here, and test_i18n asks for its translations
MAX_ACCEPT_LANGUAGE = 512  # longer headers are read up to here: no browser sends more for three languages
MAX_RANGES = 32


def pick(accept_language: str | None, cookie: str | None) -> str:
    """The language of a request: a valid cookie wins, then Accept-Language, then English."""
    if cookie in i18n.LANGUAGES:
        return cookie
    best, best_q = i18n.DEFAULT, 0
    for item in (accept_language or "")[:MAX_ACCEPT_LANGUAGE].split(",")[:MAX_RANGES]:
        tag, _, params = item.strip().partition(";")
        primary = tag.strip().lower().split("-")[0]
        q = _quality(params)
        if primary in i18n.LANGUAGES and q > best_q:  # strictly better: the earlier of two equals wins
            best, best_q = primary, q
    return best


def _quality(params: str) -> int:
    """``q=0.8`` as thousandths (800); a malformed or missing q counts as 1 (1000), ``q=0`` as refusal."""
    for param in params.split(";"):
        name, _, value = param.strip().partition("=")
        if name.strip().lower() != "q":
            continue
        whole, _, frac = value.strip().partition(".")
        if whole not in ("0", "1") or not (frac + "0").isdigit() or len(frac) > 3:
            return 1000
        return min(1000, int(whole) * 1000 + int((frac + "000")[:3]))
    return 1000


def read_json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def messages(language: str) -> dict:
    return read_json(ROOT / f"{language}.json")


def clauses(language: str) -> dict:
    """``{game: {clause id: [title, text]}}`` in ``language``: English from each game's clauses.py
    (echo's ``ENGLISH``: its ``CATALOGUE`` is bilingual for the CLI), French and Russian from
    ``client/i18n/clauses/<game>.<lang>.json``, or from clauses.py where it holds that language
    already (echo's ``RUSSIAN``)."""
    out = {}
    for name in GAMES:
        module = importlib.import_module(f"events.games.{name}.clauses")
        path = ROOT / "clauses" / f"{name}.{language}.json"
        if language != "en" and path.exists():
            out[name] = read_json(path)
            continue
        held = {"en": "ENGLISH", "ru": "RUSSIAN", "fr": "FRENCH"}[language]
        catalogue = getattr(module, held, None) or module.CATALOGUE
        out[name] = {cid: [clause.title, clause.text] for cid, clause in catalogue.by_id.items()}
    return out


def names(language: str) -> dict:
    """``{game: {id: name}}``: the names the data lacks in ``language``."""
    out = {}
    for name in GAMES:
        path = ROOT / "names" / f"{name}.{language}.json"
        if path.exists():
            out[name] = read_json(path)
    return out


def payload(language: str) -> dict:
    return {"lang": language, "messages": messages(language), "clauses": clauses(language), "names": names(language)}


class Script:
    __slots__ = ("name", "url", "body", "gzipped", "messages", "names")

    def __init__(self, language: str) -> None:
        data = payload(language)
        self.messages = data["messages"]
        self.names = data["names"]
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        self.body = f"window.chronicle_i18n = {json.dumps(text, ensure_ascii=False)};\n".encode()
        self.gzipped = gzip.compress(self.body, 9, mtime=0)
        self.name = f"i18n-{language}.{hashlib.sha256(self.body).hexdigest()[:12]}.js"
        self.url = f"/static/i18n/{self.name}"


_cache: dict = {}


def _stamp() -> tuple:
    """Sizes and mtimes of every catalogue file: a change is seen on the next page, as for the bundle."""
    files = sorted(ROOT.rglob("*.json"))
    return tuple((str(path), path.stat().st_size, path.stat().st_mtime_ns) for path in files)


def script(language: str) -> Script:
    stamp = _stamp()
    key = (language, stamp)
    if key not in _cache:
        if len(_cache) > 12:
            _cache.clear()
        _cache[key] = Script(language)
    return _cache[key]


def script_named(name: str) -> Script | None:
    """A catalogue script by its hashed name: the current ones, or one of the last few builds."""
    for found in list(_cache.values()):
        if found.name == name:
            return found
    for language in i18n.LANGUAGES:
        found = script(language)
        if found.name == name:
            return found
    return None


def t(language: str, key: str, **params: object) -> str:
    """A text for the HTML the server renders, from the same catalogue and code as the page's."""
    return i18n.render(script(language).messages, language, key, params)


def say(language: str, part: object) -> str:
    """A describer's message (``events/words.py``) in ``language``, rendered by the very function the
    page uses (``client.i18n.speak``) over the same catalogue: ``chronicle explain`` says it in English."""
    found = script(language)
    return i18n.speak(found.messages, found.names, language, part)
