"""The bytes of the hot path, pinned: every frame each client receives and every stored line of
two fixed games, compared with a golden recorded from the server before the hot-path work (issue 16).

A change meant to make a command cheaper (``server/room.py``, ``connection.py``,
``serve_socket.py``, ``frames.py``) must not change what is stored or sent. So a real server
(uvicorn in a subprocess, real SQLite) plays two scripted games over real sockets: mecha (nothing
hidden; it ends, so ``SecretRevealed`` goes out) and gloomhaven (its picks sealed from the other
seat and the spectator: redacted frames). The script also sends a refused command, a repeated
command id, a malformed frame and two late hellos (the whole log; ``since`` mid-game); its
command frames were chosen once (``script_for``) and are kept in the golden, so the test sends
the same frames whatever later changes how random commands are picked. The games
are written into the store with a known secret (``tests.server_fixture.store_log``, as
``seeded_game`` does) and the server's clock is replaced by a counter (``LAUNCHER``), so the
same code gives the same bytes on every run.

``tests/server/golden/hotpath.json`` was recorded from commit 72ddf48 (before this work) with::

    git archive 72ddf48 | (mkdir -p /tmp/base && tar -x -C /tmp/base)
    python -m tests.server.test_hotpath_golden --root /tmp/base --write tests/server/golden/hotpath.json

It was re-recorded from main (``--root .``) when new gloomhaven games became gloomhaven-3 (issue
19: a plan cites GH-C10 where an area attack decides): the version name and those citations are
the only differences. And again when the wire schema (issue 16, ``events/wire.py``: records by
position, times since the start, the hash in base64url, ``welcome.started``) changed every
``events`` and ``welcome`` frame on purpose; every stored line stayed the same. And when new gloomhaven
games became gloomhaven-4 (issue 19: a scenario may choose Jaws of the Lion's rules): the version name
in the gloomhaven GameStarted (one frame, one stored line) is the only difference. And when the
events frame became an array (issue 16, branch ``bytes2``: ``[seq, hash, run, …]``, seats by index,
the hash's first 96 bits, the sender's ack inside its frame, ``welcome.seats``): every ``events``,
``welcome`` and live ``ack`` frame changed on purpose; every stored line stayed the same. And when the
welcome gained ``build`` (a page of another build asks for a reload, docs/protocol.md), pinned as
``"build":"<build>"`` (``_pinned``): every ``welcome`` frame changed on purpose, nothing else did. And when new
gloomhaven games became gloomhaven-5 (a summon of a character tied on initiative ties with the others, GH-C11):
the version name in the gloomhaven GameStarted (one frame, one stored line) is the only difference. And when new
gloomhaven games became gloomhaven-6 (tied characters rank among extra targets as their players order them,
GH-C8 (3)): again the version name in that frame and that stored line only. And when the bundled scenarios
gained ``titles`` in en, fr and ru (branch ``tablefix``): the scenario text inside both GameStarted events (two
frames, two stored lines) is the only difference; no hash changed.
And when new games' GameStarted
began to name their dice key (``"dice_key":"CORE-12"``, branch ``dicekey``): the GameStarted of each game (its
frame and its stored line, two of each) is the only difference. And when new gloomhaven games became
gloomhaven-7 (a move by destination alone between cheapest walks that enter different traps, hazards or doors is
refused, GH-4; branch ``rulesfix3``): the version name in the gloomhaven GameStarted (one frame, one stored line)
is the only difference. And when gloomhaven gained ``OrderProposed`` (gloomhaven-7: the tied seats agree on an
order, GH-2; branch ``gh7fix``), replaying the kept scripts (``record(ROOT, scratch, golden["scripts"])``, then
``packed``): the wire schema sorts event types by name, so in the gloomhaven frames the index of every type after
it moved by one (49 frames); every stored line, every mecha frame and the scripts stayed the same.

A change that means to alter the frames or the stored spelling (a new wire format) re-records it
the same way from its own checkout (``--root .``) and says so in its commit.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from pathlib import Path
from typing import Any

import websockets

import tests.server_fixture as fixture

GOLDEN = Path(__file__).parent / "golden" / "hotpath.json"
TIMEOUT = 10.0

# The server of a checkout, with ``server.room.now`` replaced by a clock that ticks 1 ms per call
# (the envelopes' ``at``); everything else is the real app under the real uvicorn.
LAUNCHER = """
import datetime, itertools, sys
import server.room
_ticks = itertools.count()
_start = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
def _now():
    return (_start + datetime.timedelta(milliseconds=next(_ticks))).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
server.room.now = _now
import uvicorn.main
sys.argv = ["uvicorn"] + sys.argv[1:]
uvicorn.main.main()
"""

GAMES = (  # (game id, scenario, changes, local seed, commands to play)
    ("g-golden-mecha", "mecha/sample", {"rounds": 6}, 7, 40),
    ("g-golden-gloom", "gloomhaven/barrow", {}, 11, 14),
)
FIXED_CREATED = "2025-12-31T23:00:00.000000Z"
# The welcome's build (server/bundle.py ``build_id``) hashes the page's sources, so it changes with every
# edit of the client or the core: pinned to one spelling here, its value checked by tests/server/test_deploy.py.
BUILD = re.compile(r',"build":"[0-9a-f]{12}"')


def _pinned(text: str) -> str:
    return BUILD.sub(',"build":"<build>"', text, count=1) if text.startswith('{"type":"welcome"') else text


class _Server(fixture.ServerProcess):
    """The app of ``root`` under uvicorn, its clock a counter (``LAUNCHER``)."""

    def __init__(self, db_path: Path, root: Path) -> None:
        fixture.ServerProcess.__init__(self, db_path)
        self.root = root

    def _command(self) -> list[str]:
        return [sys.executable, "-c", LAUNCHER, "--factory", "server.app:app_from_env", "--host", "127.0.0.1",
                "--port", str(self.port), "--log-level", "warning", "--no-access-log", *fixture.ws_protocol(self.root)]

    def start(self, timeout: float = 20.0) -> _Server:
        saved = fixture.ROOT
        fixture.ROOT = self.root
        try:
            return fixture.ServerProcess.start(self, timeout)
        finally:
            fixture.ROOT = saved


def _store_games(db_path: Path) -> dict:
    """Write each game's start into the store with a known secret and fixed tokens; game id -> its Table."""
    import events.games
    from events.dice import local_secret
    from events.log import Table
    from server import scenarios
    from server.store import GameMeta
    from server.tokens import token_hash

    tables = {}
    for game_id, scenario, changes, seed, _count in GAMES:
        name, data = scenarios.load(scenario)
        game = events.games.load(name)
        table = Table.create(game, game_id, dict(data, **changes), local_secret(seed), at=FIXED_CREATED)
        seats = tuple(game.seats(table.state))
        tokens = {seat: f"token-{game_id}-{seat}" for seat in seats}
        meta = GameMeta(game_id, name, game_id, seats, {seat: token_hash(token) for seat, token in tokens.items()},
                        FIXED_CREATED)
        fixture.store_log(db_path, meta, table.envelopes, secret=local_secret(seed))
        tables[game_id] = (table, tokens, seed)
    return tables


class _Reader:
    """One socket, every text it receives kept in order; tracks the last seq it was sent."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.texts: list[str] = []
        self.head = 0
        self.answers: asyncio.Queue = asyncio.Queue()

    async def read(self) -> None:
        try:
            async for text in self.socket:
                self.texts.append(_pinned(text))
                frame = json.loads(text)
                if type(frame) is list:  # an events frame; the sender's copy of its command's carries the ack
                    runs = [run for run in frame[2:] if type(run) is list]
                    self.head = frame[0] + sum(len(run) - 4 for run in runs) - 1
                    if len(runs) < len(frame) - 2:
                        self.answers.put_nowait({"type": "ack", "id": runs[0][1], "first": frame[0], "last": self.head})
                elif frame["type"] == "welcome":
                    self.head = max(self.head, 0)
                else:
                    self.answers.put_nowait(frame)
        except websockets.ConnectionClosed:
            pass


async def _join(ws_url: str, game_id: str, token: str | None, since: int = 0) -> tuple[_Reader, asyncio.Task]:
    socket = await websockets.connect(f"{ws_url}/ws/{game_id}", max_size=2**22, compression=None)
    reader = _Reader(socket)
    task = asyncio.create_task(reader.read())
    await socket.send(json.dumps({"type": "hello", "since": since, "token": token}))
    return reader, task


async def _until(readers: list, seq: int) -> None:
    async def wait() -> None:
        while any(reader.head < seq for reader in readers):
            await asyncio.sleep(0.002)

    await asyncio.wait_for(wait(), TIMEOUT)


def script_for(table: Any, seed: int, count: int) -> list:
    """The commands a game's script sends, chosen once (random legal ones, from ``seed``) on a local
    Table with the game's secret, so the server decides them as that Table did; kept in the golden,
    so the test replays the same frames whatever later changes how commands are picked. Each step:
    [seat, the command frame, the seat that then tries the next mover's command (or None) and that frame]."""
    from events.bots import random_step
    from events.rng import Rng

    game = table.game
    picker = Rng(seed)
    steps = []
    for number in range(1, count + 1):
        if game.is_over(table.state):
            break
        step = random_step(game, table.state, picker)
        if step is None:
            break
        seat, command = step
        frame = _command_frame(f"c-{number}", command)
        table.submit(seat, command, f"c-{number}")
        refusal = [None, None]
        movers = game.turn(table.state)
        waiting = [other for other in game.seats(table.state) if other not in movers]
        if number == 5 and movers and waiting:  # a seat not on turn tries the mover's first legal command
            refusal = [waiting[0], _command_frame("r-1", game.legal(table.state, movers[0])[0])]
        steps.append([seat, frame, *refusal])
    return steps


def _command_frame(command_id: str, command: Any) -> str:
    data = command.to_data()
    kind = data.pop("type")
    return json.dumps({"type": "command", "id": command_id, "command": {"type": kind, "data": data}})


async def _answer(reader: _Reader) -> dict:
    return await asyncio.wait_for(reader.answers.get(), TIMEOUT)


async def _play(ws_url: str, game_id: str, tokens: dict, head: int, steps: list) -> dict:
    """One game's script against the server: returns socket name -> the texts that socket received."""
    readers: dict = {}
    tasks = []
    for seat, token in tokens.items():
        readers[seat], task = await _join(ws_url, game_id, token)
        tasks.append(task)
    readers["spectator"], task = await _join(ws_url, game_id, None)
    tasks.append(task)
    await _until(list(readers.values()), head)
    first_seat = next(iter(tokens))
    for number, (seat, frame, refuser, refused) in enumerate(steps, 1):
        sender = readers[seat]
        await sender.socket.send(frame)
        answer = await _answer(sender)
        assert answer["type"] == "ack", answer
        head = answer["last"]
        await _until(list(readers.values()), head)
        if number == 2:  # the same frame again: its earlier ack, applied once
            await sender.socket.send(frame)
            assert (await _answer(sender))["type"] == "ack"
        if number == 3:  # a spectator may not play; a frame that is not JSON; a command of no game
            await readers["spectator"].socket.send(frame.replace(f'"c-{number}"', '"s-1"'))
            assert (await _answer(readers["spectator"]))["code"] == "spectator"
            await readers[first_seat].socket.send("{not json")
            assert (await _answer(readers[first_seat]))["code"] == "bad-frame"
            await readers[first_seat].socket.send(json.dumps(
                {"type": "command", "id": "x-1", "command": {"type": "Fly", "data": {}}}))
            assert (await _answer(readers[first_seat]))["code"] == "unknown-command"
        if number == 4:  # late hellos: the whole log, then from seq 3
            readers["late"], task = await _join(ws_url, game_id, None)
            tasks.append(task)
            readers["late-since"], task = await _join(ws_url, game_id, tokens[first_seat], since=3)
            tasks.append(task)
            await _until([readers["late"], readers["late-since"]], head)
        if refuser is not None:  # refused by the rules: not this seat's turn
            await readers[refuser].socket.send(refused)
            assert (await _answer(readers[refuser]))["type"] == "rejected"
    for reader in readers.values():
        await reader.socket.close()
    await asyncio.gather(*tasks)
    return {name: reader.texts for name, reader in readers.items()}


def _stored(db_path: Path) -> dict:
    from server.store.sqlite import SqliteStore

    async def read() -> dict:
        store = SqliteStore(db_path)
        await store.open()
        try:
            return {game_id: [item.envelope for item in await store.read(game_id)] for game_id, *_ in GAMES}
        finally:
            await store.close()

    return fixture._run_apart(read)


def record(root: Path, scratch: Path, scripts: dict | None = None) -> dict:
    """Both games played against the server of ``root`` (their ``scripts``, or new ones from
    ``script_for``): {"frames": {game: {socket: [texts]}}, "stored": {game: [lines]}, "scripts": ...}."""
    db_path = scratch / "golden.db"
    tables = _store_games(db_path)
    heads = {game_id: table.seq for game_id, (table, _tokens, _seed) in tables.items()}
    if scripts is None:
        scripts = {game_id: script_for(table, seed, count) for (game_id, *_rest, count), (table, _tokens, seed)
                   in zip(GAMES, tables.values())}
    server = _Server(db_path, root.resolve())
    with server.start():
        async def main() -> dict:
            return {game_id: await _play(server.ws_url, game_id, tables[game_id][1], heads[game_id],
                                         scripts[game_id]) for game_id, *_ in GAMES}

        frames = asyncio.run(main())
    return {"frames": frames, "stored": _stored(db_path), "scripts": scripts}


def packed(got: dict) -> dict:
    """The golden's spelling: each distinct text once (``texts``), frames and stored lines as its indexes."""
    texts: dict = {}

    def index(text: str) -> int:
        return texts.setdefault(text, len(texts))

    frames = {game_id: {name: [index(text) for text in got_texts] for name, got_texts in sockets.items()}
              for game_id, sockets in got["frames"].items()}
    stored = {game_id: [index(text) for text in lines] for game_id, lines in got["stored"].items()}
    return {"texts": list(texts), "frames": frames, "stored": stored, "scripts": got["scripts"]}


def unpacked(golden: dict) -> dict:
    texts = golden["texts"]
    return {"frames": {game_id: {name: [texts[i] for i in indexes] for name, indexes in sockets.items()}
                       for game_id, sockets in golden["frames"].items()},
            "stored": {game_id: [texts[i] for i in indexes] for game_id, indexes in golden["stored"].items()},
            "scripts": golden["scripts"]}


def test_core_16_hot_path_sends_and_stores_the_bytes_of_the_golden(tmp_path):
    """Issue 16 (CORE-1, CORE-2 in the games played): what a command stores and sends is byte for byte
    what the server sent and stored before the hot path was made cheaper."""
    golden = unpacked(json.loads(GOLDEN.read_text(encoding="utf-8")))
    got = record(fixture.ROOT, tmp_path, golden["scripts"])
    assert got["stored"] == golden["stored"]
    for game_id, sockets in golden["frames"].items():
        assert sorted(got["frames"][game_id]) == sorted(sockets), game_id
        for name, texts in sockets.items():
            mine = got["frames"][game_id][name]
            for index, (text, expected) in enumerate(zip(mine, texts)):
                assert text == expected, f"{game_id} {name} frame {index}"
            assert len(mine) == len(texts), f"{game_id} {name}: {len(mine)} frames, the golden has {len(texts)}"


def test_core_16_golden_covers_redaction_the_reveal_and_the_refusals():
    """The golden is worth comparing: it holds sealed frames, a SecretRevealed, refusals and catch-ups."""
    golden = unpacked(json.loads(GOLDEN.read_text(encoding="utf-8")))
    mecha, gloom = golden["frames"]["g-golden-mecha"], golden["frames"]["g-golden-gloom"]
    assert any('"SecretRevealed"' in line for line in golden["stored"]["g-golden-mecha"])
    seats = [name for name in gloom if name not in ("spectator", "late", "late-since")]
    assert gloom[seats[0]] != gloom[seats[1]]  # each seat sees its own picks, not the other's
    every = [text for sockets in (mecha, gloom) for texts in sockets.values() for text in texts]
    for kind in ('"type":"welcome"', '"type":"ack"', '"code":"spectator"', '"code":"bad-frame"',
                 '"code":"unknown-command"'):
        assert any(kind in text for text in every), kind
    # events frames (the one array), the sender's copies carrying its ack (a repeated id gets an ack frame)
    assert any(text.startswith("[") and not text.endswith(",1]") for text in every)
    assert any(text.startswith("[") and text.endswith(",1]") for text in every)


def main(argv: list[str] | None = None) -> int:
    import tempfile

    parser = argparse.ArgumentParser(prog="python -m tests.server.test_hotpath_golden",
                                     description="record the hot path's golden from a checkout")
    parser.add_argument("--root", required=True, help="the checkout whose server is recorded")
    parser.add_argument("--write", required=True, help="the golden file to write")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="chronicle-golden-") as scratch:
        got = record(Path(args.root), Path(scratch))
    Path(args.write).parent.mkdir(parents=True, exist_ok=True)
    Path(args.write).write_text(json.dumps(packed(got), indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {args.write}: {sum(len(t) for s in got['frames'].values() for t in s.values())} frames, "
          f"{sum(len(s) for s in got['stored'].values())} stored lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
