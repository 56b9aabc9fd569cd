"""A scenario file the server refuses, said in the reader's words on the lobby (docs/i18n.md, "Our errors in
the reader's words"). A table probe found the reason in English on French and Russian pages: "$.monsters[1]:
Harvey Walters (red) could be locked for ever in a battle with Nightgaunt: …" after a translated "was not
accepted:". Now the path and a translated kind of fault, the server's English only as the tooltip of a mark
marked English."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from client import i18n
from server import scenarios
from tests.browser.conftest import open_page
from tests.browser.test_my_games import errors, upload

pytestmark = [pytest.mark.browser, pytest.mark.server]

ROOT = Path(__file__).resolve().parents[2]


def words(lang: str) -> dict:
    return json.loads((ROOT / "client" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def endless() -> bytes:
    """arkham/other-world with its Nightgaunt no longer Elusive: red could be locked in that battle (AH-C6)."""
    _name, scenario = scenarios.load("arkham/other-world")
    monsters = [dict(monster, elusive=False) if monster.get("id") == "nightgaunt" else monster
                for monster in scenario["monsters"]]
    return json.dumps(dict(scenario, monsters=monsters)).encode()


def too_large() -> bytes:
    _name, scenario = scenarios.load("mecha/sample")
    seats = [dict(seat, range=[1, 30_000_000]) for seat in scenario["seats"]]
    return json.dumps(dict(scenario, seats=seats)).encode()


@pytest.mark.parametrize(("locale", "lang"), [("fr-FR", "fr"), ("ru-RU", "ru")])
def test_ah_c6_a_refused_scenario_file_is_said_in_the_readers_words(server, new_context, locale, lang):
    catalogue = words(lang)
    page = open_page(new_context(locale=locale), f"{server.base_url}/")
    for content, kind in ((endless(), "fault.kind.endless_battle"), (too_large(), "fault.kind.too_large")):
        upload(page, "mine.json", content)
        found = errors(page)
        assert len(found) == 1 and found[0][0].startswith("$."), found
        said = found[0][1].replace(i18n.MARK, "")
        assert catalogue[kind] in said, (kind, said)
        for english in ("could be locked", "expected", "reaches at most", "Location"):
            assert english not in said, said
        detail = page.locator("#scenario-errors li .fault-detail")
        assert detail.get_attribute("lang") == "en" and detail.get_attribute("title")
