"""The pages' stylesheet (server/pages.py): style.css plus every game's own file, each game's rules
under its own prefix (issue 13: mecha's ``.loc`` and ``.token`` were shared names in style.css)."""

from __future__ import annotations

import re

from server import pages
from server.pages import STATIC_DIR

GAMES = STATIC_DIR / "games"


def top_level_parts(selector_list: str) -> list:
    """Split on the commas that are not inside parentheses (``:has(a, b)`` is one selector)."""
    parts, depth, current = [], 0, ""
    for char in selector_list:
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        depth += char == "("
        depth -= char == ")"
        current += char
    return parts + [current.strip()] if current.strip() else parts


def test_every_game_stylesheet_rule_is_under_its_games_prefix():
    files = sorted(GAMES.glob("*.css"))
    assert {path.stem for path in files} == {"mecha", "arkham", "gloomhaven", "echo", "skirmish"}
    for path in files:
        game = path.stem
        text = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.S)
        heads = [head.strip() for head in re.findall(r"([^{}]+)\{", text) if not head.strip().startswith("@")]
        assert heads, path
        for head in heads:
            for selector in top_level_parts(head):
                assert selector.startswith((f".{game}", f'body[data-game="{game}"]')), (path.name, selector)


def test_style_css_is_served_with_every_games_file_appended():
    served = pages.static_files()["style.css"].body.decode("utf-8")
    assert served.startswith((STATIC_DIR / "style.css").read_text(encoding="utf-8"))
    for path in sorted(GAMES.glob("*.css")):
        assert path.read_text(encoding="utf-8") in served, path.name
    # Check: no rule of the shared file names a game's own class (they moved to the game files).
    shared = re.sub(r"/\*.*?\*/", "", (STATIC_DIR / "style.css").read_text(encoding="utf-8"), flags=re.S)
    for name in (".loc", ".token", ".mech", ".camp-", ".echo-", ".hex.", ".area"):
        assert name not in shared, name
