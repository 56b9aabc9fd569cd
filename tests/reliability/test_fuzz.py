"""Fuzzing: random and mutated frames at a live server; broken scenario, board and log files.

Frames (hypothesis): valid hello and command frames of a ``mecha`` game, mutated (a field deleted,
replaced by random JSON, added; the tag changed; the text cut, spliced, inflated past the size
limit), plus random JSON, random text and random bytes, sent on a seat's socket and on one that
has not said hello. Each frame must get exactly one answer, in order: an ``error`` frame with a
kebab-case code (never ``internal-error``), or, for a frame that happens to be a valid command,
``rejected`` (nothing changes) or ``ack``; the server's head moves only by acked events, and it
is still up and serving at the end.

Files: every built-in scenario of every game, its board and a played game's log, broken the same
ways and loaded as ``chronicle`` and the server load them. Each must load or fail with the
loader's own error (ScenarioError, ScenarioFileError, LogFileError, LogError) whose message
names the fault (a ``$`` path or the file and line); no other exception may escape. A sample of
the broken scenarios also goes to ``POST /api/games``: 201 or 400 ``bad-scenario`` (``scenario-out-of-bounds`` past a bound), never 500.
"""

from __future__ import annotations

import asyncio
import copy
import json
import re

import pytest
import websockets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import events.games
from events.bots import playout
from events.log import LogError, Table
from events.rng import Rng
from events.validate import ScenarioError
from events.wire import frame_ack
from server import logfile, scenarios
from tests.reliability import report
from tests.reliability.players import http_json
from tests.server.client import events_in, read_catch_up, run
from tests.server_fixture import create_game

pytestmark = pytest.mark.server

FRAME_EXAMPLES = report.count(25, 1250)  # × 80–100 frames each: ≥2,000 quick, ≥100,000 soak
FILE_EXAMPLES = report.count(400, 5000)
CODE = re.compile(r"^[a-z]+(-[a-z]+)*$")

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, prefix + (index,))


def _set(value, path, new):
    if not path:
        return new
    value = copy.deepcopy(value)
    _get(value, path[:-1])[path[-1]] = new
    return value


def _delete(value, path):
    if not path:
        return value
    value = copy.deepcopy(value)
    del _get(value, path[:-1])[path[-1]]
    return value


@st.composite
def mutated(draw, base):
    """A mutation of a JSON value: a path replaced, deleted or given a sibling."""
    paths = list(_paths(base))
    path = draw(st.sampled_from(paths))
    kind = draw(st.sampled_from(["replace", "delete", "add", "retype"]))
    if kind == "replace":
        return _set(base, path, draw(json_values))
    if kind == "delete":
        return _delete(base, path)
    if kind == "add":
        container_paths = [p for p in paths if isinstance(_get(base, p), dict)]
        where = draw(st.sampled_from(container_paths))
        return _set(base, where + (draw(st.text(min_size=1, max_size=8)),), draw(json_values))
    leaf = _get(base, path)
    swap = {int: "1", str: 1, bool: "true", type(None): 0, list: {}, dict: []}
    return _set(base, path, swap.get(type(leaf), None))


def _get(value, path):
    for step in path:
        value = value[step]
    return value


@st.composite
def text_mutation(draw, text: str):
    kind = draw(st.sampled_from(["cut", "splice", "inflate", "double"]))
    at = draw(st.integers(0, len(text)))
    if kind == "cut":
        return text[:at]
    if kind == "splice":
        return text[:at] + draw(st.text(min_size=1, max_size=5)) + text[at:]
    if kind == "inflate":
        return text[:at] + "x" * draw(st.integers(8 * 1024, 20 * 1024)) + text[at:]
    return text + text


def frame_strategy(bases: list[dict]):
    base = st.sampled_from(bases)
    as_text = st.builds(json.dumps, json_values)
    return st.one_of(
        base.flatmap(mutated).map(json.dumps),
        base.map(json.dumps).flatmap(text_mutation),
        as_text,
        st.text(max_size=60),
        st.binary(max_size=60),
        st.builds(lambda b: json.dumps(b).encode(), base.flatmap(mutated)),
    )


class FrameTally:
    frames = 0
    held = 0
    errors = 0
    acks = 0
    rejected = 0
    welcomes = 0
    codes: dict[str, int] = {}


def _bases(token: str) -> list[dict]:
    game = events.games.load("mecha")
    _, scenario = scenarios.load("mecha/sample")
    table = Table.create(game, "g-fuzz", scenario, 7)
    commands = []
    for seat in game.turn(table.state):
        for command in game.legal(table.state, seat)[:5]:
            data = command.to_data()
            commands.append({"type": "command", "id": "c-1",
                             "command": {"type": data.pop("type"), "data": data}})
    return [{"type": "hello", "since": 0, "token": token}, {"type": "hello", "since": 0, "token": None},
            *commands, {"type": "command", "id": "c-2", "command": {"type": "Pass", "data": {}}}]


@pytest.fixture(scope="module")
def fuzz_game(quiet_server):
    game = create_game(quiet_server.base_url, "mecha/sample")
    return game


def test_random_and_mutated_frames_get_an_error_frame_and_change_nothing(quiet_server, fuzz_game):
    """Every frame: one answer, in order; bad ones an error frame (never internal-error); head moves only on ack."""
    server = quiet_server
    game_id = fuzz_game["game"]
    token = fuzz_game["seats"]["red"]["token"]
    strategy = st.lists(frame_strategy(_bases(token)), min_size=80, max_size=100)

    @settings(max_examples=FRAME_EXAMPLES, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example])
    @given(batch=strategy, greeted=st.booleans())
    def check(batch, greeted):
        run(_send_batch(server, game_id, token, batch, greeted), timeout=120)

    check()
    status, games = http_json(f"{server.base_url}/api/games")  # still up
    assert status == 200
    assert FrameTally.held == FrameTally.frames
    codes = ", ".join(f"{code} {n:,}" for code, n in sorted(FrameTally.codes.items(), key=lambda kv: -kv[1]))
    report.record("fuzzing", "random and mutated client frames (hypothesis) on a seat's socket and before hello",
                  FrameTally.frames, FrameTally.held,
                  f"each answered once, in order; {FrameTally.errors:,} error frames ({codes}); "
                  f"{FrameTally.rejected:,} valid-shaped commands rejected by the rules, {FrameTally.acks} accepted, "
                  f"{FrameTally.welcomes} hellos welcomed; head moved only by acked events; server up after",
                  unit="frames")


async def _send_batch(server, game_id: str, token: str, batch: list, greeted: bool) -> None:
    head_before = (await asyncio.to_thread(http_json, f"{server.base_url}/api/games/{game_id}/state"))[1]["seq"]
    socket = await websockets.connect(f"{server.ws_url}/ws/{game_id}", max_size=2**24)
    acked_events = 0
    try:
        if greeted:
            await socket.send(json.dumps({"type": "hello", "since": head_before, "token": token}))
            welcome = json.loads(await socket.recv())
            assert welcome["type"] == "welcome", welcome
            await read_catch_up(socket, game_id, head_before, welcome)
        for start in range(0, len(batch), 40):
            chunk = batch[start:start + 40]
            for frame in chunk:
                await socket.send(frame)
            for frame in chunk:
                FrameTally.frames += 1
                events_seen = 0
                while True:
                    answer = json.loads(await asyncio.wait_for(socket.recv(), 10))
                    if type(answer) is not list:  # not an events frame
                        break
                    events_seen += events_in(answer)
                    if frame_ack(answer) is not None:  # the sender's copy of its command's frame carries the ack
                        answer = frame_ack(answer)
                        break
                kind = answer["type"]
                if kind == "error":
                    assert CODE.match(answer["code"]) and answer["message"], answer
                    assert answer["code"] != "internal-error", (frame, answer)
                    assert events_seen == 0, (frame, answer)
                    FrameTally.errors += 1
                    FrameTally.codes[answer["code"]] = FrameTally.codes.get(answer["code"], 0) + 1
                elif kind == "rejected":
                    assert events_seen == 0 and answer["rule"] and answer["reason"], answer
                    FrameTally.rejected += 1
                elif kind == "ack":
                    acked_events += events_seen
                    FrameTally.acks += 1
                elif kind == "welcome":
                    await read_catch_up(socket, game_id, 0, answer)
                    FrameTally.welcomes += 1
                else:
                    raise AssertionError(f"unexpected answer {answer} to {frame!r}")
                FrameTally.held += 1
    finally:
        await socket.close()
    head_after = (await asyncio.to_thread(http_json, f"{server.base_url}/api/games/{game_id}/state"))[1]["seq"]
    assert head_after == head_before + acked_events, (head_before, acked_events, head_after)


# --- files --------------------------------------------------------------------------------------------

FILE_ERRORS = (ScenarioError, scenarios.ScenarioFileError, logfile.LogFileError, LogError)


class FileTally:
    tried = 0
    held = 0
    refused = 0
    loaded = 0
    found: list[str] = []


def _clear(error: Exception, path) -> bool:
    message = str(error)
    return bool(message) and ("$" in message or str(path) in message)


def _played_log(tmp_path) -> str:
    game = events.games.load("mecha")
    _, scenario = scenarios.load("mecha/sample")
    table = Table.create(game, "g-log", scenario, 11)
    playout(table, {}, Rng(3), 60)
    path = tmp_path / "played.jsonl"
    logfile.write(path, table.envelopes)
    return path.read_text()


def test_broken_scenario_board_and_log_files_get_a_clear_error(tmp_path, quiet_server):
    """Broken files: load, or the loader's own error naming the fault; no other exception; HTTP never 500."""
    names = scenarios.builtin_scenarios()
    inlined = {name: scenarios.load(name)[1] for name in names}
    board_text = (scenarios.GAMES_DIR / "mecha" / "boards" / "tunguska-sample.json").read_text()
    log_text = _played_log(tmp_path)
    posted = []

    def broken(name: str, text: str):
        path = tmp_path / "broken" / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
        return path

    def start(scenario_path) -> None:
        game_name, data = scenarios.load(str(scenario_path))
        Table.create(events.games.load(game_name), "g-f", data, 1)

    def load_scenario_file(text: str):
        path = broken("scenario.json", text)
        start(path)
        return path

    def load_board_file(text: str):
        path = broken("board.json", text)
        _, sample = scenarios.load("mecha/sample")
        start(broken("scenario.json", json.dumps(dict(sample, board="board.json", bag=sample["bag"]))))
        return path

    def load_log_file(text: str):
        path = broken("log.jsonl", text)
        game, envelopes = logfile.read(path)
        logfile.restore(game, envelopes, str(path))
        return path

    def attempt(kind: str, loader, text: str, path_hint) -> None:
        FileTally.tried += 1
        try:
            loader(text)
            FileTally.loaded += 1
        except FILE_ERRORS as error:
            assert _clear(error, path_hint), f"{kind}: unclear error {error!r}"
            FileTally.refused += 1
        except Exception as error:  # a finding: the loader let something else escape
            FileTally.found.append(f"{kind}: {type(error).__name__}: {error}")
            raise
        FileTally.held += 1

    log_lines = log_text.splitlines()

    @settings(max_examples=FILE_EXAMPLES, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example,
                                     HealthCheck.function_scoped_fixture])
    @given(data=st.data(), which=st.sampled_from(["scenario", "scenario-text", "board", "log-line", "log-text"]))
    def check(data, which):
        broken_dir = tmp_path / "broken"
        if which == "scenario":
            name = data.draw(st.sampled_from(names))
            scenario = data.draw(mutated(inlined[name]))
            text = json.dumps(scenario)
            attempt(f"scenario {name}", load_scenario_file, text, broken_dir)
            if len(posted) < report.count(40, 400) and isinstance(scenario, dict):
                posted.append(scenario)
        elif which == "scenario-text":
            name = data.draw(st.sampled_from(names))
            text = data.draw(text_mutation(json.dumps(inlined[name])))
            attempt(f"scenario text {name}", load_scenario_file, text, broken_dir)
        elif which == "board":
            board = json.loads(board_text)
            text = data.draw(st.one_of(mutated(board).map(json.dumps), text_mutation(board_text)))
            attempt("board", load_board_file, text, broken_dir)
        elif which == "log-line":
            index = data.draw(st.integers(0, len(log_lines) - 1))
            line = data.draw(mutated(json.loads(log_lines[index])))
            lines = log_lines[:index] + [json.dumps(line)] + log_lines[index + 1:]
            attempt("log line", load_log_file, "\n".join(lines) + "\n", broken_dir)
        else:
            kind = data.draw(st.sampled_from(["drop", "swap", "text"]))
            lines = list(log_lines)
            i = data.draw(st.integers(0, len(lines) - 1))
            if kind == "drop":
                del lines[i]
                text = "\n".join(lines)
            elif kind == "swap":
                j = data.draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
                text = "\n".join(lines)
            else:
                text = data.draw(text_mutation(log_text))
            attempt("log file", load_log_file, text, broken_dir)

    check()
    # The same broken scenarios, inline, at the server: 201 or 400 bad-scenario (or scenario-out-of-bounds
    # past a documented bound), never a 500.
    answered = 0
    for scenario in posted:
        status, body = http_json(f"{quiet_server.base_url}/api/games", "POST", {"scenario": scenario})
        assert status in (201, 400), (status, body, scenario)
        if status == 400:
            assert body["code"] in ("bad-scenario", "scenario-out-of-bounds", "bad-request") and body["message"], body
        answered += 1
    assert FileTally.held == FileTally.tried
    report.record("fuzzing", "broken scenario, board and log files (fields replaced, deleted, added, retyped; text cut, "
                  "spliced, inflated; log lines dropped, swapped)", FileTally.tried, FileTally.held,
                  f"{FileTally.refused:,} refused with the loader's error naming a $ path or the file and line, "
                  f"{FileTally.loaded:,} still valid and loaded; {answered} of them POSTed inline: 201 or 400, never 500",
                  unit="files")
