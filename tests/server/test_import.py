"""POST /api/games/import (issue 18, server/importlog.py) against a real server: hostile logs first."""

from __future__ import annotations

import json
import urllib.request

import events.games
from events.bots import RandomBot
from events.dice import local_secret
from events.log import Table, encode_envelope
from events.rng import LoadedRng, Rng
from server import importlog
from server.scenarios import load
from server.tokens import new_game_id
from tests.server.client import Client, run
from tests.server_fixture import ServerProcess, get_json

JSONL = "application/x-ndjson"


def finished_log(scenario: str = "mecha/sample", seed: int = 7, stop_before_end: bool = False,
                 loaded: tuple = ()) -> list[dict]:
    """A game played to its end in process, as the offline page plays it: its envelopes as dicts.
    ``loaded``: values the first command that draws takes instead of the secret's (``play --dice``)."""
    name, data = load(scenario)
    game = events.games.load(name)
    table = Table.create(game, new_game_id(), data, local_secret(seed), at="2026-12-01T12:00:00.000Z")
    chooser, bot, count = Rng(seed), RandomBot(), 0
    while not game.is_over(table.state):
        seat = game.turn(table.state)[0]
        command = bot.choose(game, game.view(table.state, seat), seat, chooser)
        if stop_before_end and count >= 4:
            break
        rng = LoadedRng(loaded, fallback=table.rng()) if loaded else None
        result = table.submit(seat, command, f"c-{count}", at="2026-12-01T12:00:01.000Z", rng=rng)
        if rng is not None and rng.used:
            loaded = ()
        assert hasattr(result, "envelopes"), result
        count += 1
    return [json.loads(encode_envelope(envelope)) for envelope in table.envelopes]


def body_of(lines: list) -> bytes:
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def post(server: ServerProcess, body: bytes, content_type: str = JSONL) -> tuple[int, dict]:
    request = urllib.request.Request(f"{server.base_url}/api/games/import", data=body, method="POST",
                                     headers={"content-type": content_type})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def rehash(lines: list, game_name: str = "mecha") -> list:
    """The same log with every hash recomputed after an edit: only the audit can catch the edit then."""
    from events.canonical import state_hash
    from events.log import Envelope

    game = events.games.load(game_name)
    table = Table(game, lines[0]["game"])
    out = []
    for raw in lines:
        envelope = Envelope.from_dict(game, raw)
        table.state = game.evolve(table.state, envelope.event)
        out.append(dict(raw, hash=state_hash(table.state)))
    return out


def test_core_2_a_finished_log_is_imported_under_its_own_id_and_replays_with_its_hashes(shared_server):
    lines = finished_log()
    status, answer = post(shared_server, body_of(lines))
    assert status == 201, answer
    game_id = lines[0]["game"]
    assert answer == {"game": game_id, "events": len(lines), "spectate": f"/watch/{game_id}",
                      "replay": f"/replay/{game_id}"}
    # Check the stored log is the imported one, byte for byte as the core spells it, and public.
    with urllib.request.urlopen(f"{shared_server.base_url}/api/games/{game_id}/log", timeout=10) as response:
        served = [json.loads(line) for line in response.read().decode().splitlines()]
    assert served == lines
    assert served[-1]["type"] == "SecretRevealed"
    _, state = get_json(f"{shared_server.base_url}/api/games/{game_id}/state")
    assert state["seq"] == len(lines) and state["hash"] == lines[-1]["hash"]
    # Check it is listed as over, with no seat token anywhere.
    _, games = get_json(f"{shared_server.base_url}/api/games")
    listed = next(item for item in games if item["game"] == game_id)
    assert listed["over"] is True and listed["head"] == len(lines)
    assert "token" not in json.dumps(answer)

    # Check a spectator's socket gets the whole log, each hash folded again, and no seat token works.
    async def watch() -> None:
        watcher = await Client.join(shared_server.ws_url, game_id)
        assert watcher.welcome["seat"] is None and watcher.envelopes == lines
        intruder = await Client.connect(shared_server.ws_url, game_id)
        await intruder.send({"type": "hello", "since": 0, "token": "x" * 43})
        refused = await intruder.recv()
        assert (refused["type"], refused.get("code")) == ("error", "bad-token"), refused

    run(watch())


def test_core_2_a_duplicate_import_is_a_409(shared_server):
    body = body_of(finished_log(seed=8))
    assert post(shared_server, body)[0] == 201
    status, answer = post(shared_server, body)
    assert status == 409 and answer["code"] == "game-exists", answer


def test_core_1_a_tampered_event_is_refused_with_its_seq_and_clause(shared_server):
    lines = finished_log(seed=9)
    index = next(i for i, line in enumerate(lines) if line["type"] == "MechMoved")
    # Check an edited event whose hash no longer matches is refused at that seq.
    tampered = [dict(line) for line in lines]
    tampered[index] = dict(tampered[index], data=dict(tampered[index]["data"], to=tampered[index]["data"]["to"] + 1))
    status, answer = post(shared_server, body_of(tampered))
    assert status == 422 and answer["code"] == "log-diverges", answer
    assert answer["seq"] == lines[index]["seq"] and answer["clause"] == lines[index]["rule"]
    # Check the same edit with every hash recomputed is still refused: the audit re-decides the command.
    status, answer = post(shared_server, body_of(rehash(tampered)))
    assert status == 422 and answer["code"] == "log-diverges" and answer["seq"] == lines[index]["seq"], answer
    assert f"seq {lines[index]['seq']}" in answer["message"]
    # Check nothing of either was stored.
    assert get_json(f"{shared_server.base_url}/api/games/{lines[0]['game']}/log")[0] == 404


def test_core_1_a_tampered_hash_is_refused_at_its_seq(shared_server):
    lines = finished_log(seed=10)
    lines[3] = dict(lines[3], hash="0" * 64)
    status, answer = post(shared_server, body_of(lines))
    assert status == 422 and answer["code"] == "log-diverges" and answer["seq"] == 4, answer
    assert "hash 000000000000" in answer["message"]


def test_core_1_a_wrong_commitment_is_refused_at_the_reveal_it_does_not_open(shared_server):
    lines = finished_log(seed=11)
    lines[0] = dict(lines[0], data=dict(lines[0]["data"], commitment="ab" * 32))
    status, answer = post(shared_server, body_of(rehash(lines)))
    assert status == 422 and answer["code"] == "log-diverges", answer
    assert answer["seq"] == len(lines) and answer["clause"] == "CORE-2", answer
    assert "abababababab" in answer["message"]
    # Check a log that names an open seed instead of a commitment is refused at seq 1 (CORE-1).
    seeded = [dict(lines[0], data={k: v for k, v in lines[0]["data"].items() if k != "commitment"} | {"seed": 3})]
    status, answer = post(shared_server, body_of(rehash(seeded + lines[1:])))
    assert (status, answer["code"], answer.get("seq"), answer.get("clause")) == (422, "log-diverges", 1, "CORE-1"), answer


def test_core_2_a_secret_that_does_not_open_the_commitment_is_refused_at_its_seq(shared_server):
    lines = finished_log(seed=12)
    lines[-1] = dict(lines[-1], data={"secret": local_secret(13)})
    status, answer = post(shared_server, body_of(rehash(lines)))
    assert status == 422 and answer["code"] == "log-diverges", answer
    assert answer["seq"] == len(lines) and answer["clause"] == "CORE-2"
    assert "does not match the commitment" in answer["message"]


def test_core_1_a_log_with_loaded_dice_is_refused_before_any_audit(shared_server):
    """CORE-1: a finished game that replays, hash for hash, but one of whose commands took loaded dice
    (``chronicle play --dice``: outcomes chosen by whoever made the log, not drawn from its secret)."""
    lines = finished_log(seed=16, loaded=(1, 1, 1))
    index = next(i for i, line in enumerate(lines) if line["dice"])
    status, answer = post(shared_server, body_of(lines))
    assert (status, answer["code"], answer["seq"], answer["clause"]) == (422, "loaded-dice", lines[index]["seq"],
                                                                         "CORE-1"), answer
    assert answer["message"].startswith(f"$[{index}].dice: seq {lines[index]['seq']} took loaded dice")
    assert get_json(f"{shared_server.base_url}/api/games/{lines[0]['game']}/log")[0] == 404
    # Check: it is refused as its line is read, before the audit: a later line that would diverge changes nothing.
    broken = lines[:-1] + [dict(lines[-1], hash="0" * 64)]
    assert post(shared_server, body_of(broken))[1]["code"] == "loaded-dice"
    # Check: the same game with its dice drawn from the secret is imported.
    assert post(shared_server, body_of(finished_log(seed=16)))[0] == 201


def test_core_2_an_unfinished_game_is_refused(shared_server):
    lines = finished_log(seed=14, stop_before_end=True)
    status, answer = post(shared_server, body_of(lines))
    assert status == 422 and answer["code"] == "game-not-over", answer
    # Check a finished game without its SecretRevealed is refused too.
    whole = finished_log(seed=15)
    status, answer = post(shared_server, body_of(whole[:-1]))
    assert status == 422 and answer["code"] == "game-not-over" and "not revealed" in answer["message"], answer


def test_an_unknown_game_or_game_id_is_a_400_with_its_path(shared_server):
    lines = finished_log(seed=16)
    unknown = [dict(lines[0], data=dict(lines[0]["data"], game="chess"))] + lines[1:]
    status, answer = post(shared_server, body_of(unknown))
    assert (status, answer["code"]) == (400, "unknown-rules") and "$[0].data.game" in answer["message"], answer
    bad_id = [dict(line, game="offline") for line in lines]
    status, answer = post(shared_server, body_of(bad_id))
    assert (status, answer["code"]) == (400, "bad-game-id") and "$[0].game" in answer["message"], answer
    mixed = lines[:2] + [dict(lines[2], game="g-0123456789")] + lines[3:]
    status, answer = post(shared_server, body_of(mixed))
    assert (status, answer["code"]) == (400, "bad-game-id") and "$[2].game" in answer["message"], answer


def test_garbage_lines_are_a_400_naming_the_line(shared_server):
    lines = finished_log(seed=17)
    good = body_of(lines).decode().splitlines()
    for garbage, path in (("not json", "line 3 ($[2])"), ("[1, 2]", "$[2]"), ('{"seq": 3}', "$[2]")):
        body = "\n".join(good[:2] + [garbage] + good[3:]).encode()
        status, answer = post(shared_server, body)
        assert (status, answer["code"]) == (400, "bad-log") and path in answer["message"], (garbage, answer)
    status, answer = post(shared_server, b"\n\n")
    assert (status, answer["code"]) == (400, "bad-log") and "empty" in answer["message"]
    status, answer = post(shared_server, b"\xff\xfe")
    assert (status, answer["code"]) == (400, "bad-log")
    # Check the first line must be GameStarted.
    status, answer = post(shared_server, body_of(lines[1:]))
    assert (status, answer["code"]) == (400, "bad-log") and "$[0].type" in answer["message"], answer


def test_a_deep_body_is_a_400_with_its_path(shared_server):
    lines = finished_log(seed=18)
    deep = "[" * 2000 + "]" * 2000
    text = body_of(lines).decode().splitlines()
    text[1] = text[1][:-1] + ', "dice": ' + deep + "}"
    status, answer = post(shared_server, "\n".join(text).encode())
    assert (status, answer["code"]) == (400, "bad-log"), answer
    assert "$[1].dice" in answer["message"]


def raw_post(server: ServerProcess, head: dict, body: bytes = b"") -> tuple[int, dict]:
    """An HTTP/1.1 POST written by hand: headers as given (a Content-Length the body does not fill)."""
    import socket

    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        lines = ["POST /api/games/import HTTP/1.1", "Host: 127.0.0.1", "Connection: close",
                 f"Content-Type: {JSONL}", *(f"{k}: {v}" for k, v in head.items())]
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head_part, _, body_part = answer.partition(b"\r\n\r\n")  # Starlette's JSON answer has a Content-Length
    return int(head_part.split(b" ", 2)[1]), json.loads(body_part)


def test_a_huge_body_is_a_413_and_only_json_lines_are_taken(shared_server):
    # Check a declared length past the bound is refused before any byte of the body is read.
    status, answer = raw_post(shared_server, {"Content-Length": str(importlog.MAX_IMPORT_BYTES + 1)})
    assert (status, answer["code"]) == (413, "log-too-large") and "Content-Length says" in answer["message"], answer
    # Check a chunked body is counted as it arrives and refused at the bound.
    size = importlog.MAX_IMPORT_BYTES + 1
    chunk = f"{size:x}\r\n".encode() + b"x" * size + b"\r\n0\r\n\r\n"
    status, answer = raw_post(shared_server, {"Transfer-Encoding": "chunked"}, chunk)
    assert (status, answer["code"]) == (413, "log-too-large") and "more than that" in answer["message"], answer
    status, answer = post(shared_server, b"{}\n" * (importlog.MAX_IMPORT_EVENTS + 1))
    assert (status, answer["code"]) == (413, "log-too-long"), answer
    body = body_of(finished_log(seed=19))
    for kind in ("application/json", "text/plain", "multipart/form-data"):
        status, answer = post(shared_server, body, kind)
        assert (status, answer["code"]) == (415, "unsupported-media-type"), (kind, answer)


def test_imports_count_against_the_creation_rate(chronicle_server_factory):
    server = chronicle_server_factory(env={"CHRONICLE_GAMES_PER_MINUTE": "1"})
    status, _ = post(server, body_of(finished_log(seed=20)))
    assert status == 201
    status, answer = post(server, body_of(finished_log(seed=21)))
    assert (status, answer["code"]) == (429, "too-many-creations"), answer


def test_a_scenario_start_would_refuse_is_refused_with_its_path(shared_server):
    lines = finished_log(seed=22)
    scenario = json.loads(lines[0]["data"]["scenario"])
    broken = dict(lines[0], data=dict(lines[0]["data"], scenario=json.dumps(dict(scenario, rounds=0))))
    status, answer = post(shared_server, body_of([broken] + lines[1:]))
    assert (status, answer["code"]) == (422, "bad-scenario") and "$.rounds" in answer["message"], answer


def test_the_offline_page_gets_every_built_in_scenario_in_one_answer(shared_server):
    """GET /api/scenarios/full: the listing, each with its scenario as the server itself loads it."""
    _, listing = get_json(f"{shared_server.base_url}/api/scenarios")
    _, full = get_json(f"{shared_server.base_url}/api/scenarios/full")
    assert [{k: v for k, v in item.items() if k != "scenario"} for item in full] == listing
    for item in full:
        assert item["scenario"] == load(item["name"])[1]
