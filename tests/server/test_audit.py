"""``GET /api/games/{id}/audit`` (server/audits.py, issue 18): the server's audit of the public log,
and never a word of what a running game still hides (CORE-1, CORE-2, GH-C2)."""

from __future__ import annotations

import json

import pytest

import events.games
from events.bots import bot, playout
from events.dice import local_secret
from events.log import Envelope, Table
from events.rng import Rng
from server import scenarios
from server.store import GameMeta
from server.tokens import new_game_id
from tests.server.client import Client, command_json, run
from tests.server_fixture import _request, get_json, seeded_game, store_log

SEED = 11


def stored_game(server, table: Table, over: bool) -> str:
    """Write ``table``'s log into the running server's store, as the server would have."""
    game = table.game
    seats = game.seats(table.state)
    meta = GameMeta(table.game_id, game.name, table.game_id, seats, {seat: "0" * 64 for seat in seats},
                    "2026-01-01T00:00:00.000000Z")
    store_log(server.db_path, meta, table.envelopes, over=over, secret=table.secret)
    return table.game_id


def finished_mecha() -> Table:
    game = events.games.load("mecha")
    table = Table.create(game, new_game_id(), scenarios.load("mecha/sample")[1], local_secret(SEED))
    playout(table, {seat: bot(game, "greedy") for seat in game.seats(table.state)}, Rng(SEED), 500)
    assert game.is_over(table.state)
    return table


def test_core_2_a_finished_game_audits_complete_with_every_die_from_the_revealed_secret(shared_server):
    """CORE-2: the log of a finished game holds SecretRevealed; every command is re-decided."""
    table = finished_mecha()
    game_id = stored_game(shared_server, table, over=True)
    status, answer = get_json(f"{shared_server.base_url}/api/games/{game_id}/audit")
    assert status == 200
    commands = len({e.command_id for e in table.envelopes if e.command_id is not None})
    assert answer == {"game": game_id, "complete": True, "over": True, "revealed": True, "events": len(table.envelopes),
                      "redecided": commands, "with_dice": answer["with_dice"], "loaded": [], "sealed": 0, "withheld": 0,
                      "divergence": None}
    assert answer["with_dice"] > 0


def test_mv_6c_a_tampered_draw_is_the_first_divergence_with_its_seq_clause_and_both_outcomes(shared_server):
    """MV-6c: a CorruptionDrawn whose value was changed in the store diverges at its seq; the game
    is over, so the answer carries what was logged and what the rules produce."""
    table = finished_mecha()
    drawn = next(e for e in table.envelopes if e.type == "CorruptionDrawn")
    raw = drawn.to_dict()
    raw["data"]["value"] = raw["data"]["value"] % 4 + 1 if raw["data"]["value"] != 0 else 1
    table.envelopes[drawn.seq - 1] = Envelope.from_dict(table.game, raw)
    game_id = stored_game(shared_server, table, over=True)
    status, answer = get_json(f"{shared_server.base_url}/api/games/{game_id}/audit")
    assert status == 200 and answer["complete"] is False
    divergence = answer["divergence"]
    assert (divergence["seq"], divergence["clause"], divergence["logged_rule"]) == (drawn.seq, "MV-6c", "MV-6c")
    assert '"type":"CorruptionDrawn"' in divergence["logged"] and '"type":"CorruptionDrawn"' in divergence["produced"]


def test_core_1_a_running_game_is_audited_without_its_secret_and_the_answer_leaks_nothing(shared_server):
    """CORE-1: two Moves that drew Corruption wait for the reveal (sealed); the store's secret,
    which the server holds, appears nowhere in the answer."""
    created = seeded_game(shared_server, "mecha/sample", SEED)
    game_id = created["game"]

    game = events.games.load("mecha")
    expected = Table.create(game, game_id, scenarios.load("mecha/sample")[1], local_secret(SEED))

    async def main():
        seats = await Client.join_seats(shared_server.ws_url, created)
        for seat in ("red", "blue"):
            moves = [c for c in game.legal(expected.state, seat) if getattr(c, "to", None) is not None]
            command = max(moves, key=lambda c: c.to)
            expected.submit(seat, command, f"{seat}-1")
            type_, data = command_json(command)
            assert (await seats[seat].command(f"{seat}-1", type_, data))["type"] == "ack"

    run(main())
    status, body = _request(f"{shared_server.base_url}/api/games/{game_id}/audit")
    answer = json.loads(body)
    assert status == 200
    assert (answer["complete"], answer["over"], answer["revealed"], answer["sealed"], answer["divergence"]) == (
        False, False, False, 2, None)
    assert local_secret(SEED).encode() not in body and local_secret(SEED)[:16].encode() not in body


def test_gh_c2_a_running_games_secret_pick_is_withheld_from_the_audit_too(shared_server):
    """GH-C2: red's cards are secret until both picked; the audit is of the spectator's log, so it
    counts red's pick as withheld and names none of its cards."""
    created = seeded_game(shared_server, "gloomhaven/barrow", SEED)
    game_id = created["game"]

    async def main():
        red = await Client.join(shared_server.ws_url, game_id, created["seats"]["red"]["token"])
        type_, data = command_json(red.legal("red")[0])
        assert (await red.command("r-1", type_, data))["type"] == "ack"
        return data["cards"]

    cards = run(main())
    status, body = _request(f"{shared_server.base_url}/api/games/{game_id}/audit")
    answer = json.loads(body)
    assert status == 200 and answer["withheld"] == 1 and answer["complete"] is False
    for card in cards:
        assert card.encode() not in body


def test_audit_of_an_unknown_game_is_no_such_game(shared_server):
    status, answer = get_json(f"{shared_server.base_url}/api/games/g-nosuchgam3/audit")
    assert (status, answer["code"]) == (404, "no-such-game")


@pytest.mark.parametrize("bad", ["x", "g-short", "g-" + "a" * 300, "g-%C3%A9%C3%A9%C3%A9%C3%A9%C3%A9", "g-abc%00defgh", "g-abc%20defg",
                                 "g-abcdefghij%0A"])
def test_audit_of_a_bad_game_id_is_bad_game_id_with_its_path(shared_server, bad):
    """An id no game can have is refused before the store is asked: 400 with ``$.game_id``, never a 500."""
    status, answer = get_json(f"{shared_server.base_url}/api/games/{bad}/audit")
    assert (status, answer["code"]) == (400, "bad-game-id")
    assert answer["message"].startswith("$.game_id: expected g- and 10") and len(answer["message"]) < 200


def test_audit_of_a_path_that_is_no_game_id_is_not_found(shared_server):
    """An id with a slash in it is another path altogether: the API's 404, never a file."""
    status, answer = get_json(f"{shared_server.base_url}/api/games/%2E%2E%2Fetc%2Fpasswd/audit")
    assert (status, answer["code"]) == (404, "not-found")
