"""Games recorded under the rules versions brought back (issue 19) replay in the browser with every
hash the page folds equal to the logged one: the page decodes with the newest version's registry
and folds under the version the log names (CORE-3), through gloomhaven-1's pending choices (its
frozen Option) and from mecha-1's first event (its start differs from mecha-2's)."""

from __future__ import annotations

import pytest

from server import frames, logfile
from tests.browser.conftest import open_page
from tests.corpus.test_old_versions import CORPUS, MECHA_1_NO_LOCATION_20
from tests.server_fixture import _run_apart

pytestmark = [pytest.mark.browser, pytest.mark.server]

GLOOMHAVEN_1_CHOICES = CORPUS / "gloomhaven" / "gloomhaven-1" / "barrow-random-1.jsonl"


def _stored(server, path) -> list:
    """The corpus log ``path`` written into the server's own store under its own game id (finished)."""
    from server.room import now
    from server.store import GameMeta, Stored
    from server.store.sqlite import SqliteStore

    game, envelopes = logfile.read(path)
    game_id = envelopes[0].game
    seats = game.seats(logfile.restore(game, envelopes, path.name).state)
    meta = GameMeta(game_id, game.name, game_id, tuple(seats), {seat: "x" * 64 for seat in seats}, now())

    async def write() -> None:
        store = SqliteStore(server.db_path)
        await store.open()
        try:
            await store.create_game(meta, [Stored(e.seq, e.command_id, frames.encode_envelope(e)) for e in envelopes],
                                    over=True)
        finally:
            await store.close()

    _run_apart(write)
    return envelopes


@pytest.mark.parametrize("path", [GLOOMHAVEN_1_CHOICES, MECHA_1_NO_LOCATION_20])
def test_core_3_a_restored_version_s_game_replays_in_the_page_with_the_logged_hashes(server, new_context, path):
    envelopes = _stored(server, path)
    game_id = envelopes[0].game
    version = envelopes[0].event.rules_version
    # gloomhaven-1: the first seq whose state waits on the players' choice; mecha-1: its first event.
    waiting = [e.seq for e in envelopes if e.type == "MonsterTurnPlanned" and len(e.event.options) > 1]
    seqs = [waiting[0] if waiting else 1, len(envelopes)]
    context = new_context()
    for seq in seqs:
        page = open_page(context, f"{server.base_url}/replay/{game_id}?seq={seq}")
        assert page.get_attribute("#rules-version", "data-version") == version
        assert page.get_attribute("#hash", "data-seq") == str(seq)
        assert page.text_content("#hash") == f"hash ✓ seq {seq}: {envelopes[seq - 1].hash}"
        assert page.problems == []
