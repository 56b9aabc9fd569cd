"""Finding and reading scenario files: built-in names (``mecha/sample``) or paths.

A scenario is JSON. A top-level value under one of ``FILE_KEYS`` (``board``, ``bag``, ...) that is a
string names another JSON file relative to the scenario's folder; it is read and inlined here,
so the game's first event records the whole scenario and a log replays without any file.
"""

from __future__ import annotations

import json
from pathlib import Path

import events.games
from events.validate import SHAPE

GAMES_DIR = Path(events.games.__file__).parent
FILE_KEYS = ("board", "bag", "map", "cards", "monsters", "decks")


class ScenarioFileError(ValueError):
    """A scenario that cannot be found or read, with the file named."""


def builtin_scenarios() -> list[str]:
    """Every built-in scenario name, ``game/name``."""
    names = []
    for game in events.games.NAMES:
        for path in sorted((GAMES_DIR / game / "scenarios").glob("*.json")):
            names.append(f"{game}/{path.stem}")
    return names


def resolve(name_or_path: str) -> Path:
    """A built-in name or a file path -> an existing file."""
    path = Path(name_or_path)
    if path.suffix == ".json" and path.is_file():
        return path
    if "/" in name_or_path and not path.suffix:
        game, _, stem = name_or_path.partition("/")
        candidate = GAMES_DIR / game / "scenarios" / f"{stem}.json"
        if game in events.games.NAMES and candidate.is_file():
            return candidate
    if path.is_file():
        return path
    known = ", ".join(builtin_scenarios())
    raise ScenarioFileError(f"no scenario file or built-in scenario {name_or_path!r} (built-in: {known})")


def read_json(path: Path) -> object:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ScenarioFileError(f"{path}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise ScenarioFileError(f"{path}: not UTF-8 text (byte {error.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ScenarioFileError(f"{path}: not valid JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    except RecursionError:  # the decoder's own depth limit: far past any scenario's (SHAPE, issue 12)
        raise ScenarioFileError(f"{path}: JSON nested too deeply to read (a scenario holds at most "
                                f"{SHAPE['depth']} levels)") from None


def load(name_or_path: str) -> tuple[str, dict]:
    """(game name, scenario dict with referenced files inlined)."""
    path = resolve(name_or_path)
    data = read_json(path)
    if not isinstance(data, dict):
        raise ScenarioFileError(f"{path}: a scenario is a JSON object, got {type(data).__name__}")
    game = data.get("game")
    if game not in events.games.NAMES:
        raise ScenarioFileError(f"{path}: $.game must be one of {', '.join(events.games.NAMES)}, got {game!r}")
    inlined = dict(data)
    for key, value in data.items():
        if key in FILE_KEYS and isinstance(value, str):
            ref = (path.parent / value).resolve()
            if not ref.is_file():
                raise ScenarioFileError(f"{path}: $.{key} names {value!r}, which does not exist ({ref})")
            inlined[key] = read_json(ref)
    return game, inlined
