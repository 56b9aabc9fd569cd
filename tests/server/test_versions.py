"""A game stored under an old rules version is played on under it, over a real WebSocket (issue 19)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from urllib.request import urlopen

import events.games
from events.bots import bot, playout
from events.canonical import state_hash
from events.dice import local_secret
from events.log import Table, audit
from events.rng import Rng
from server import logfile, scenarios
from tests.server.client import Client, command_json, run
from tests.server_fixture import get_json, seeded_game

SEED = 1  # echo/novice-duel, greedy bots: the first fight ends at seq 15, where echo-2 ends the round first (EC-15)


def test_ec_15_an_echo_1_game_is_played_on_over_a_websocket_under_echo_1(shared_server):
    echo_1 = events.games.load("echo", "echo-1")
    # The game stored under echo-1 through the real SQLite store, as a game started before echo-2.
    created = seeded_game(shared_server, "echo/novice-duel", SEED, rules_version="echo-1")
    game_id = created["game"]
    # The same game played in process under echo-1: what the server must produce, envelope for envelope.
    expected = Table.create(echo_1, game_id, scenarios.load("echo/novice-duel")[1], local_secret(SEED))
    playout(expected, {seat: bot(echo_1, "greedy") for seat in echo_1.seats(expected.state)}, Rng(1000 + SEED), 12, prefix="c")
    heads = _commands(expected)

    async def main():
        seats = await Client.join_seats(shared_server.ws_url, created)
        for envelope in heads:
            type_, data = command_json(envelope.command)
            answer = await seats[envelope.seat].command(envelope.command_id, type_, data)
            assert answer["type"] == "ack", answer
        red = seats["red"]
        await red.events_until(expected.seq)
        return red.envelopes

    received = run(main())
    # Check every envelope, hash included, is the one echo-1 gives (the fight ends at seq 15, EC-15).
    assert [{k: v for k, v in e.items() if k != "at"} for e in received] == [
        {k: v for k, v in e.to_dict().items() if k != "at"} for e in expected.envelopes]
    assert received[14]["type"] == "CombatEnded" and received[14]["rule"] == "EC-15"
    # Check the stored log names echo-1 and audits under it; echo-2 parts at seq 15 on EC-15 (so this can fail).
    with urlopen(f"{shared_server.base_url}/api/games/{game_id}/log", timeout=10) as response:
        stored, envelopes = logfile.parse(response.read().decode().splitlines(), "api-log")
    assert stored is echo_1 and audit(stored, envelopes, local_secret(SEED)) is None
    divergence = audit(events.games.load("echo"), envelopes, local_secret(SEED))
    assert (divergence.seq, divergence.clause) == (15, "EC-15")


def _commands(table: Table) -> list:
    """The first envelope of each command of the log, in order."""
    seen: set = set()
    heads = []
    for envelope in table.envelopes:
        if envelope.command is not None and envelope.command_id not in seen:
            seen.add(envelope.command_id)
            heads.append(envelope)
    return heads


def test_core_3_a_game_upgraded_while_the_server_runs_is_played_on_under_the_new_version(shared_server, capsys):
    """The Room that has the game open re-reads it on its next append (a seq conflict), then decides
    the command under skirmish-3 (the newest); every client sees RulesVersionChanged first."""
    from server.cli.main import main

    created = seeded_game(shared_server, "skirmish/purge", 1, rules_version="skirmish-1")
    game_id = created["game"]
    skirmish_1 = events.games.load("skirmish", "skirmish-1")
    expected = Table.create(skirmish_1, game_id, scenarios.load("skirmish/purge")[1], local_secret(1))

    async def main_body():
        seats = await Client.join_seats(shared_server.ws_url, created)
        # The operator moves the game while both seats are connected (same SQLite file, WAL mode).
        assert await asyncio.to_thread(main, ["upgrade", "--db", str(shared_server.db_path), game_id]) == 0
        assert f"moved from skirmish-1 to skirmish-3 at seq {expected.seq + 1}" in capsys.readouterr().out
        # Check the next command is decided after the move, under skirmish-3 (no holder has fallen: it is accepted).
        expected.move_to("skirmish-3")
        seat = expected.game.turn(expected.state)[0]
        command = bot(expected.game, "greedy").choose(expected.game, expected.state, seat, Rng(7))
        result = expected.submit(seat, command, "c-1")
        type_, data = command_json(command)
        answer = await seats[seat].command("c-1", type_, data)
        assert answer["type"] == "ack" and answer["first"] == expected.seq - len(result.logged) + 1, answer
        for client in seats.values():
            await client.events_until(expected.seq)
        return seats

    seats = run(main_body())
    for client in seats.values():
        assert [{k: v for k, v in e.items() if k != "at"} for e in client.envelopes] == [
            {k: v for k, v in e.to_dict().items() if k != "at"} for e in expected.envelopes]
        moved = client.envelopes[1]
        assert moved["type"] == "RulesVersionChanged" and moved["rule"] == "CORE-3"
        assert moved["data"] == {"from_version": "skirmish-1", "to_version": "skirmish-3", "since_seq": 3}


def test_core_3_get_rules_says_whether_a_game_replays_unchanged_under_the_newest_version(shared_server):
    """GET /api/games/{id}/rules: an echo-1 game whose fight ended parts at seq 15 on EC-15 under the newest
    version (echo-2 changed EC-15); it is running, so the divergence names seqs and clauses only, and what
    each newer version changed."""
    echo_1 = events.games.load("echo", "echo-1")
    created = seeded_game(shared_server, "echo/novice-duel", SEED, rules_version="echo-1")
    game_id = created["game"]
    expected = Table.create(echo_1, game_id, scenarios.load("echo/novice-duel")[1], local_secret(SEED))
    playout(expected, {seat: bot(echo_1, "greedy") for seat in echo_1.seats(expected.state)}, Rng(1000 + SEED), 12, prefix="c")

    async def main():
        seats = await Client.join_seats(shared_server.ws_url, created)
        for envelope in _commands(expected):
            type_, data = command_json(envelope.command)
            assert (await seats[envelope.seat].command(envelope.command_id, type_, data))["type"] == "ack"

    run(main())
    status, answer = get_json(f"{shared_server.base_url}/api/games/{game_id}/rules")
    assert status == 200
    assert {k: answer[k] for k in ("game", "rules_version", "newest", "unchanged")} == {
        "game": game_id, "rules_version": "echo-1", "newest": "echo-3", "unchanged": False}
    assert answer["divergence"] == {"seq": 15, "clause": "EC-15", "logged_rule": "EC-15", "produced_rule": "EC-15"}
    assert {"version": "echo-2", "clause": "EC-15",
            "text": "the combat round in which a fight ends costs its movement point too"} in answer["changes"]
    # Check a game under the newest version, just started, replays unchanged and names no change.
    fresh = seeded_game(shared_server, "echo/novice-duel", SEED)["game"]
    status, answer = get_json(f"{shared_server.base_url}/api/games/{fresh}/rules")
    assert (status, answer["unchanged"], answer["divergence"], answer["changes"]) == (200, True, None, [])


def test_get_rules_of_an_unknown_game_is_no_such_game(shared_server):
    status, answer = get_json(f"{shared_server.base_url}/api/games/g-nosuchgam3/rules")
    assert (status, answer["code"]) == (404, "no-such-game")


def test_core_3_get_rules_of_a_finished_game_gives_both_outcomes(shared_server):
    """Once a game is over its whole log is public, so the divergence carries both outcomes too."""
    from server.store import GameMeta
    from server.tokens import new_game_id
    from tests.server_fixture import store_log

    echo_1 = events.games.load("echo", "echo-1")
    game_id = new_game_id()
    table = Table.create(echo_1, game_id, scenarios.load("echo/novice-duel")[1], local_secret(SEED))
    playout(table, {seat: bot(echo_1, "greedy") for seat in echo_1.seats(table.state)}, Rng(1000 + SEED), 5000)
    assert echo_1.is_over(table.state)
    seats = echo_1.seats(table.state)
    meta = GameMeta(game_id, "echo", game_id, seats, {seat: "0" * 64 for seat in seats}, "2026-01-01T00:00:00.000000Z")
    store_log(shared_server.db_path, meta, table.envelopes, over=True, secret=table.secret)
    status, answer = get_json(f"{shared_server.base_url}/api/games/{game_id}/rules")
    assert status == 200 and answer["sealed"] == 0  # the log holds SecretRevealed: every die re-derived
    divergence = answer["divergence"]
    assert (divergence["seq"], divergence["clause"]) == (15, "EC-15")
    assert '"type":"CombatEnded"' in divergence["logged"] and '"type":"CombatRoundEnded"' in divergence["produced"]


def test_core_3_every_server_path_reads_a_moved_game_under_the_version_in_force(tmp_path):
    """The corpus game moved from skirmish-1 to skirmish-2 (CORE-3), in a real SQLite store: the version
    at each seq (``snapshots.game_at``), a Room's load from a snapshot taken after the move, and the state."""
    from server import frames, snapshots
    from server.room import Room
    from server.store import GameMeta, Stored
    from server.store.sqlite import SqliteStore

    corpus = Path(__file__).resolve().parents[1] / "corpus" / "skirmish" / "skirmish-1" / "purge-moved-greedy-1.jsonl"
    game, envelopes = logfile.read(corpus)
    game_id = envelopes[0].game
    moved = next(e.seq for e in envelopes if e.type == "RulesVersionChanged")
    skirmish = events.games.load("skirmish")

    async def check():
        store = SqliteStore(tmp_path / "chronicle.db")
        await store.open()
        try:
            seats = game.seats(logfile.restore(game, envelopes).state)
            await store.create_game(GameMeta(game_id, "skirmish", "moved", seats, {s: "0" * 64 for s in seats},
                                             "2026-01-01T00:00:00.000000Z"),
                                    [Stored(e.seq, e.command_id, frames.encode_envelope(e)) for e in envelopes],
                                    over=True)
            # Check the version in force on either side of the move.
            versions = [(await snapshots.game_at(store, skirmish, game_id, seq)).rules_version
                        for seq in (1, moved - 1, moved, len(envelopes))]
            assert versions == ["skirmish-1", "skirmish-1", "skirmish-2", "skirmish-2"]
            # Check a Room loads from a snapshot past the move, under skirmish-2, every hash matching.
            after = logfile.restore(game, envelopes[:moved + 5])
            await store.put_snapshot(game_id, moved + 5, snapshots.encode_state(after.state))
            room = await Room.load(store, game_id)
            assert room.game.rules_version == "skirmish-2" and room.table.seq == len(envelopes)
            state = await snapshots.state_at(store, skirmish, game_id, moved + 7, lambda n: None)
            assert state_hash(state) == envelopes[moved + 6].hash
        finally:
            await store.close()

    asyncio.run(check())
