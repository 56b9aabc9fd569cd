"""``chronicle audit --rules``, ``rules-check`` and ``upgrade`` (issue 19) on real corpus logs."""

from __future__ import annotations

from pathlib import Path

from server.cli.status import BAD_ARGS, BAD_INPUT, DIVERGED, SUCCESS, UNREVEALED
from tests.corpus.audits import assert_diverges, audit, run
from tests.postgres_fixture import postgres_database, postgres_server  # noqa: F401

CORPUS = Path(__file__).resolve().parent / "corpus"
ECHO_1_FIGHT_ENDS = CORPUS / "echo" / "echo-1" / "first-case-greedy-1.jsonl"  # a fight that ends at seq 32
ARKHAM_2_EVADE_KNOCKS_OUT = CORPUS / "arkham" / "arkham-2" / "frail-street-greedy-2.jsonl"  # Stamina 0 at seq 20
SKIRMISH_1 = CORPUS / "skirmish" / "skirmish-1" / "purge-greedy-1.jsonl"


def test_ec_15_audit_of_an_echo_1_fight_that_ends_under_echo_2_names_ec_15(capsys):
    # Check both outcomes: echo-1 ended the fight, echo-2 ends the round first (its movement point).
    assert_diverges(capsys, ECHO_1_FIGHT_ENDS, "echo-2", played="echo-1", at="seq 32 (EC-15)",
                    logged='"type":"CombatEnded"', produced='"type":"CombatRoundEnded"',
                    clause="logged EC-15, produced EC-15", changed="EC-15: the combat round in which a fight ends")


def test_ah_c4_audit_of_an_arkham_2_failed_evade_to_stamina_0_under_arkham_3_names_ah_c4(capsys):
    # Check both outcomes: arkham-2 began combat (AH-8), arkham-3 knocks the investigator out (AH-C4).
    assert_diverges(capsys, ARKHAM_2_EVADE_KNOCKS_OUT, "arkham-3", played="arkham-2", at="seq 20 (AH-C4)",
                    logged='"type":"CombatBegan"', produced='"type":"KnockedOut"',
                    clause="logged AH-8, produced AH-C4", changed="AH-C4: a failed Evade that takes Stamina to 0")


def test_sk_7_audit_of_a_skirmish_2_defeated_holder_under_skirmish_3_names_sk_7(capsys):
    """SK-7: in this skirmish-2 game the trooper holding door1 falls at seq 55 and its door is released at
    once (DoorReleased, SK-9); under skirmish-3 its holder only stops holding (DoorHolderDefeated, SK-7)."""
    log = CORPUS / "skirmish" / "skirmish-2" / "hangar-greedy-3.jsonl"
    assert_diverges(capsys, log, "skirmish-3", played="skirmish-2", at="seq 56 (SK-7)",
                    logged='"type":"DoorReleased"', produced='"type":"DoorHolderDefeated"',
                    clause="logged SK-9, produced SK-7", changed="SK-7: a door whose holder is defeated")


def test_audit_under_a_version_the_log_replays_unchanged_under_says_so(capsys):
    status, out = audit(capsys, SKIRMISH_1, "--rules", "skirmish-2")
    assert status == SUCCESS
    assert out.out.splitlines()[:3] == [
        "log played under skirmish-1, audited under skirmish-2", "replays unchanged under skirmish-2",
        "141 events verified",
    ]


def test_audit_under_an_older_version_names_what_the_newer_one_changed(capsys):
    """EC-8: an echo-2 game audited under echo-1 parts where echo-2's failed evasion holds for the round."""
    log = next(iter(sorted((CORPUS / "echo" / "echo-2").glob("bunba-brawl-greedy-1.jsonl"))))
    status, out = audit(capsys, log, "--rules", "echo-1")
    assert status == DIVERGED
    assert "  echo-2 changed EC-8: a failed evasion lets the enemies strike first for the whole round" in out.out


def test_audit_under_an_unreleased_version_is_a_bad_argument_naming_the_released_ones(capsys):
    status, out = audit(capsys, SKIRMISH_1, "--rules", "skirmish-9")
    assert status == BAD_ARGS
    assert "--rules: skirmish has no rules version 'skirmish-9' (released: skirmish-1, skirmish-2, skirmish-3)" in out.err


# --- rules-check and upgrade, on a real SQLite store -------------------------------------------


def _store_games(db, *games):
    """Games played in process (name, rules version, scenario, seed, commands) written into a store
    (a SQLite path or a postgresql:// URL)."""
    import asyncio

    import events.games
    from events.bots import bot, playout
    from events.dice import local_secret
    from events.log import Table
    from events.rng import Rng
    from server import frames, scenarios
    from server.store import GameMeta, Stored, store_for

    tables = {}
    for number, (name, version, scenario, seed, commands) in enumerate(games):
        game = events.games.load(name, version)
        game_id = f"g-test{number:06d}"
        table = Table.create(game, game_id, scenarios.load(scenario)[1], local_secret(seed))
        playout(table, {seat: bot(game, "greedy") for seat in game.seats(table.state)}, Rng(1000 + seed), commands)
        tables[game_id] = table

    async def write():
        store = store_for(str(db))
        await store.open()
        try:
            for number, (game_id, table) in enumerate(tables.items()):
                seats = table.game.seats(table.state)
                meta = GameMeta(game_id, table.game.name, game_id, seats, {seat: "x" * 64 for seat in seats},
                                f"2026-01-01T00:00:0{number}.000000Z")
                stored = [Stored(e.seq, e.command_id, frames.encode_envelope(e)) for e in table.envelopes]
                await store.create_game(meta, stored, secret=table.secret,
                                        over=bool(table.game.is_over(table.state)))
        finally:
            await store.close()

    asyncio.run(write())
    return list(tables)


def test_core_3_rules_check_lists_every_stored_game_and_whether_it_replays_unchanged(tmp_path, capsys):
    db = tmp_path / "chronicle.db"
    fight, doors, fresh = _store_games(db, ("echo", "echo-1", "echo/novice-duel", 1, 12),
                                       ("skirmish", "skirmish-1", "skirmish/purge", 1, 10),
                                       ("echo", "echo-2", "echo/novice-duel", 1, 12))
    status, out = run(capsys, "rules-check", "--db", db)
    assert status == DIVERGED
    # Newest first; the echo-1 fight parts at seq 15 on EC-15, the others replay unchanged.
    assert out.out.splitlines() == [
        f"{fresh}  echo-2  echo-3  unchanged",
        f"{doors}  skirmish-1  skirmish-3  unchanged",
        f"{fight}  echo-1  echo-3  diverges at seq 15 (EC-15)",
    ]


def test_core_3_upgrade_moves_a_game_that_replays_unchanged_and_the_room_decides_under_the_new_version(
        tmp_path, capsys):
    import asyncio

    from server.room import Room
    from server.store.sqlite import SqliteStore

    db = tmp_path / "chronicle.db"
    (doors,) = _store_games(db, ("skirmish", "skirmish-1", "skirmish/purge", 1, 10))
    status, out = run(capsys, "upgrade", "--db", db, doors)
    assert status == SUCCESS
    assert out.out.startswith(f"{doors} moved from skirmish-1 to skirmish-3 at seq ")

    async def load():
        store = SqliteStore(db)
        await store.open()
        try:
            room = await Room.load(store, doors)
            return room.game.rules_version, room.table.envelopes[-1]
        finally:
            await store.close()

    # Check the move is in the log (CORE-3) and the Room rebuilt from the store plays under skirmish-3.
    version, last = asyncio.run(load())
    assert version == "skirmish-3"
    assert last.type == "RulesVersionChanged" and last.rule == "CORE-3"
    assert (last.event.from_version, last.event.to_version, last.event.since_seq) == ("skirmish-1", "skirmish-3",
                                                                                      last.seq + 1)
    # Check rules-check now lists it under skirmish-3, and a second upgrade is refused.
    assert run(capsys, "rules-check", "--db", db)[1].out == f"{doors}  skirmish-3  skirmish-3  unchanged\n"
    status, out = run(capsys, "upgrade", "--db", db, doors)
    assert status == BAD_INPUT and f"game {doors} is played under skirmish-3 already" in out.err


def test_core_3_upgrade_refuses_a_game_that_diverges_naming_the_first_divergence(tmp_path, capsys):
    db = tmp_path / "chronicle.db"
    (fight,) = _store_games(db, ("echo", "echo-1", "echo/novice-duel", 1, 12))
    status, out = run(capsys, "upgrade", "--db", db, fight)
    assert status == DIVERGED
    lines = out.out.splitlines()
    assert lines[0] == f"{fight} stays under echo-1: its log does not replay unchanged under echo-3"
    assert lines[1] == "diverges at seq 15 (EC-15)" and lines[4] == "  clause: logged EC-15, produced EC-15"
    assert lines[-1] == "only its seats may move it now: one proposes echo-3 and every other says yes (CORE-10, CORE-11)"
    # Check the game stays where it is: rules-check still finds it under echo-1.
    assert f"{fight}  echo-1  echo-3  diverges at seq 15 (EC-15)" in run(capsys, "rules-check", "--db", db)[1].out


def test_rules_check_and_upgrade_refuse_a_missing_store_an_unknown_game_and_version(tmp_path, capsys):
    status, out = run(capsys, "rules-check", "--db", tmp_path / "none.db")
    assert status == BAD_INPUT and "--db: no SQLite store at" in out.err and not (tmp_path / "none.db").exists()
    db = tmp_path / "chronicle.db"
    (doors,) = _store_games(db, ("skirmish", "skirmish-1", "skirmish/purge", 1, 2))
    status, out = run(capsys, "upgrade", "--db", db, "g-nosuchgame")
    assert status == BAD_INPUT and "there is no game 'g-nosuchgame'" in out.err
    status, out = run(capsys, "upgrade", "--db", db, doors, "--to", "skirmish-9")
    assert status == BAD_ARGS and "--to: skirmish has no rules version 'skirmish-9'" in out.err


def test_core_3_rules_check_and_upgrade_on_postgresql(postgres_database, capsys):  # noqa: F811
    url = postgres_database()
    fight, doors = _store_games(url, ("echo", "echo-1", "echo/novice-duel", 1, 12),
                                ("skirmish", "skirmish-1", "skirmish/purge", 1, 10))
    status, out = run(capsys, "rules-check", "--db", url)
    assert status == DIVERGED and out.out.splitlines() == [
        f"{doors}  skirmish-1  skirmish-3  unchanged", f"{fight}  echo-1  echo-3  diverges at seq 15 (EC-15)"]
    assert run(capsys, "upgrade", "--db", url, fight)[0] == DIVERGED
    assert run(capsys, "upgrade", "--db", url, doors)[0] == SUCCESS
    assert run(capsys, "rules-check", "--db", url)[1].out.splitlines()[0] == f"{doors}  skirmish-3  skirmish-3  unchanged"


def test_core_3_audit_follows_a_move_in_a_log_and_audit_rules_names_it(tmp_path, capsys):
    import events.games
    from events.bots import bot, playout
    from events.log import Table
    from events.rng import Rng
    from server import logfile, scenarios

    skirmish_1 = events.games.load("skirmish", "skirmish-1")
    table = Table.create(skirmish_1, "g-moved00000", scenarios.load("skirmish/purge")[1], 1)
    playout(table, {seat: bot(skirmish_1, "greedy") for seat in skirmish_1.seats(table.state)}, Rng(1), 5)
    moved = table.move_to("skirmish-2")
    playout(table, {seat: bot(table.game, "greedy") for seat in skirmish_1.seats(table.state)}, Rng(2), 5)
    logfile.write(tmp_path / "moved.jsonl", table.envelopes)
    # Check a plain audit re-decides the commands after the move under skirmish-2 and finds nothing.
    status, out = audit(capsys, tmp_path / "moved.jsonl")
    assert status in (SUCCESS, UNREVEALED) and "diverge" not in out.out and "logged" not in out.out
    # Check --rules says where the game moved.
    status, out = audit(capsys, tmp_path / "moved.jsonl", "--rules", "skirmish-2")
    assert out.out.splitlines()[:2] == [
        f"log played under skirmish-1, moved to skirmish-2 at seq {moved.seq}, audited under skirmish-2",
        "replays unchanged under skirmish-2"]
