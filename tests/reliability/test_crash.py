"""Crash and restart: SIGKILL the server at random moments while clients send commands.

On SQLite and on PostgreSQL (``chronicle serve --db postgresql://…``, the server from
``tests/postgres_fixture.py``): two seats of each of two ``mecha`` games play random legal commands as fast as their answers
come back (a finished game is replaced by a new one). A killer thread sends SIGKILL after a
random delay, restarts the server on the same SQLite file, and does it again. Each seat, whenever
its socket dies, reconnects with the last seq it holds and resends the command whose answer it
never read, with the same id.

Checked after the last restart, from the store's own log (``/api/games/{id}/log``):

- every acknowledged command's events are in the log exactly once, at the seqs its ack named;
- no command left partial events: re-deciding every logged command (``events.log.audit``, with
  each game's secret read from the store, CORE-1) yields exactly the events logged for it, and
  every hash refolds;
- every client, reconnected, holds the server's state hash (``/state``) and the same envelopes.
"""

from __future__ import annotations

import asyncio
import http.client
import random
import time

import pytest

from events.log import Envelope, audit
from tests.reliability import report
from tests.reliability.players import DROPPED, Player, command_json, http_json, server_head
from tests.server.client import run
from tests.server_fixture import ServerProcess, create_game, stored_secrets

pytestmark = pytest.mark.server

KILLS = report.count(8, 50)
GAMES = 2
RULES = "mecha"
SCENARIO = "mecha/sample"
APPLIED_BEFORE = [0]  # resent commands found already applied


class Table:
    """One game's seats, replaced by a fresh game when it ends."""

    def __init__(self, server: ServerProcess, number: int) -> None:
        self.server = server
        self.number = number
        self.played: list[str] = []

    def new_game(self) -> dict[str, Player]:
        game = create_game(self.server.base_url, SCENARIO)
        self.played.append(game["game"])
        return {seat: Player(self.server.ws_url, game["game"], link["token"], seat, RULES)
                for seat, link in game["seats"].items()}


async def seat_loop(player: Player, stop: asyncio.Event, acks: dict, counter: list, rng: random.Random) -> None:
    applied_before = APPLIED_BEFORE
    """Play until ``stop``; survive any number of server deaths."""
    while not stop.is_set():
        try:
            if player.socket is None:
                await player.connect()
                head = player.head
                answer = await player.resend()
                if answer is not None:
                    _note(player, answer, acks)
                    if answer["type"] == "ack" and answer["last"] <= head:
                        applied_before[0] += 1  # stored before the kill, its ack lost: not applied again
            if player.game.is_over(player.state):
                return
            legal = player.legal()
            if not legal:
                await player.wait_events(0.2)  # not our turn: fold the other seat's events
                continue
            counter[0] += 1
            type_, data = command_json(rng.choice(legal))
            answer = await player.send(f"{player.seat}-{player.game_id}-{counter[0]}", type_, data)
            _note(player, answer, acks)
        except DROPPED:
            player.abort()
            await asyncio.sleep(0.05)
        except AssertionError:
            raise
    await player.drop()


def _note(player: Player, answer: dict, acks: dict) -> None:
    if answer["type"] == "ack":
        acks[(player.game_id, answer["id"])] = (answer["first"], answer["last"])
    elif answer["type"] == "error":
        assert answer["code"] in ("store-unavailable",), answer


async def table_loop(table: Table, stop: asyncio.Event, acks: dict, players_out: list, seed: int) -> None:
    rng = random.Random(seed)
    counter = [0]
    while not stop.is_set():
        seats = await asyncio.to_thread(_new_game_when_up, table)
        players_out.extend(seats.values())
        await asyncio.gather(*(seat_loop(p, stop, acks, counter, rng) for p in seats.values()))


def _new_game_when_up(table: Table) -> dict[str, Player]:
    deadline = time.monotonic() + 60
    while True:
        try:
            return table.new_game()
        except (OSError, AssertionError, ConnectionError, http.client.HTTPException):
            # HTTPException: killed while it answered (IncompleteRead): the game may or may not exist, ask again
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@pytest.fixture(params=["sqlite", "postgresql"])
def crashable(request, tmp_path) -> tuple[str, ServerProcess]:
    """A server not yet started: over a SQLite file, or ``chronicle serve --db postgresql://…``."""
    if request.param == "sqlite":
        return "SQLite file", ServerProcess(tmp_path / "crash.db")
    from tests.postgres_fixture import CliServer, shared_server

    url = shared_server().create_database(f"crash_{random.randrange(10**9)}")
    return "PostgreSQL", CliServer(tmp_path, url)


def test_sigkill_at_random_moments_loses_no_acknowledged_command(crashable):
    """SIGKILL × KILLS while two games are played: acked exactly once, nothing partial, hashes converge."""
    store_name, server = crashable
    server.start()
    APPLIED_BEFORE[0] = 0
    rng = random.Random(20261129)
    acks: dict = {}
    players: list[Player] = []
    tables = [Table(server, n) for n in range(GAMES)]
    kills = []

    async def main():
        stop = asyncio.Event()
        loops = [asyncio.ensure_future(table_loop(t, stop, acks, players, rng.randrange(2**31))) for t in tables]
        try:
            for _ in range(KILLS):
                await asyncio.sleep(rng.uniform(0.1, 0.8))
                before = len(acks)
                await asyncio.to_thread(server.restart)
                kills.append(before)
            await asyncio.sleep(0.5)
        finally:
            stop.set()
        await asyncio.gather(*loops)
        # Every seat reconnects once more after the last restart and catches up to the head.
        for player in players:
            await player.connect()
            await player.resend()
            head, _ = await asyncio.to_thread(server_head, server.base_url, player.game_id)
            await player.catch_up(head)
            await player.drop()

    try:
        run(main(), timeout=120 + KILLS * 10)
        games = sorted({p.game_id for p in players})
        # Check: acked exactly once, at its seqs; nothing partial (audit); every client on the server's hash.
        held = 0
        logs = {}
        # The secrets, read from the store as only its operator can: every die of a running game re-derived too.
        secrets = stored_secrets(server.store if hasattr(server, "store") else server.db_path, games)
        for game_id in games:
            status, log = http_json(f"{server.base_url}/api/games/{game_id}/log")
            assert status == 200, log
            logs[game_id] = log
            game = players[0].game
            envelopes = [Envelope.from_dict(game, raw) for raw in log]
            divergence = audit(game, envelopes, secrets[game_id])
            assert divergence is None, f"{game_id}: {divergence}"
            held += 1
        for (game_id, command_id), (first, last) in acks.items():
            seqs = [e["seq"] for e in logs[game_id] if e["command_id"] == command_id]
            # The ack of the command that ended the game also covers the SecretRevealed after it (CORE-2).
            own = [seq for seq in range(first, last + 1) if logs[game_id][seq - 1]["type"] != "SecretRevealed"]
            assert seqs == own == list(range(first, own[-1] + 1)), (game_id, command_id, seqs, first, last)
        for player in players:
            head, hash_ = server_head(server.base_url, player.game_id)
            assert player.head == head and player.hash == hash_, (player.seat, player.game_id, player.head, head)
            assert player.envelopes == logs[player.game_id]
    finally:
        server.stop()
    assert len(kills) == KILLS and len(acks) > KILLS
    report.record("crash", "SIGKILL of the server at a random moment (0.1–0.8 s apart) while 2 games × 2 seats "
                  f"send commands; restart on the same store ({store_name})", KILLS, KILLS,
                  f"{len(acks):,} acknowledged commands, each in the log exactly once; {len(games)} games audited "
                  f"(no partial command); {sum(p.resent for p in players)} commands resent after a kill, "
                  f"{APPLIED_BEFORE[0]} of them already stored and answered with their first ack; "
                  f"{len(players)} clients reconnected onto the server's hash", unit="kills")
