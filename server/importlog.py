"""``POST /api/games/import``: a finished game's log (JSON Lines), audited, stored as a game anyone can watch.

A pass-and-play game (``/offline``, ``client/pages/offline.py``) is played in one browser with no
server: its secret is drawn there, its commitment is in GameStarted, its dice come from the secret
(CORE-1) and its log ends with SecretRevealed (CORE-2). The server believes none of it until it has
checked everything (issue 18), in this order, each fault answered with its own code:

1. the body: ``Content-Type`` ``application/x-ndjson`` or ``application/jsonl`` (415
   ``unsupported-media-type``), at most ``MAX_IMPORT_BYTES`` (413 ``log-too-large``, counted as the
   bytes arrive), at most ``MAX_IMPORT_EVENTS`` non-blank lines (413 ``log-too-long``), each line a
   JSON object nesting at most ``frames.MAX_JSON_DEPTH`` levels and an envelope of the log's game
   (400 ``bad-log``, with the line and its ``$[i]`` path: ``$[0]`` is the first line);
2. the game: the first line is GameStarted of a rule system this server has (400 ``unknown-rules``,
   ``$[0].data.game``), and every line names the same game id, a server game id
   (``g-`` and 10 characters: 400 ``bad-game-id``, ``$[i].game``);
3. the start: ``start`` of the version GameStarted names, run again on its scenario and its
   commitment, must give the logged first events (the scenario's fault: 422 ``bad-scenario``;
   other events: 422 ``log-diverges`` at that seq), so no log can begin from a position the
   scenario does not make;
4. the audit: ``events.log.audit_log`` re-decides every command with the dice of the revealed
   secret and re-folds every event with its hash; the first divergence is 422 ``log-diverges``
   with its ``seq`` and ``clause`` (a secret that does not open the commitment is one, at the
   SecretRevealed's seq, CORE-2); a game that is not over, or whose secret is not in its log, is
   422 ``game-not-over`` (only finished games are imported: a running game's dice would be
   foreseeable by whoever holds the log); an envelope with loaded dice (``chronicle play --dice``:
   outcomes chosen, not drawn from the secret, CORE-1) is 422 ``loaded-dice`` with its ``seq`` and
   ``$[i].dice``, as its line is read (step 1), before any audit;
5. storing: the game keeps **its own id**, because the commitment binds that id to the secret
   (``events.dice.commitment``) and every envelope names it: another id would leave the log's
   commitment unopenable. A game of that id already stored is 409 ``game-exists`` (importing twice
   is refused, so one id is never two games): asked of the store as soon as the lines are read
   (step 1's JSON) and GameStarted's line names its game and id (step 2's first line), before any
   envelope is decoded and before steps 3 and 4, so a log posted again costs a JSON parse, not an
   audit (and asked again by the store's own insert, for two posts of one log at once). A log of
   a stored game's id is therefore 409 whatever its later lines hold. Every envelope is stored in
   one transaction with the secret, or nothing is; no seat token is issued (the game is over,
   nobody plays it); it is listed and served like any other game (``/watch/<id>``,
   ``/replay/<id>``, its log and state).

Imports count against the same per-address creation bound as ``POST /api/games`` (429
``too-many-creations``); the ``open_games`` bound does not apply, since an imported game is over.
Steps 2-4 run in the server's worker process (``server/workers.py``: the body's bytes cross to it,
the stored envelopes come back) behind the one gate of ``/audit`` and ``/rules``
(``server.audits.AUDITS_AT_ONCE``): imports posted at once are audited one after the other.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

import events.games
from events.game import GameStarted
from events.log import Envelope, Table, audit_log, started_under
from events.record import DecodeError
from events.validate import ScenarioError
from server import frames
from server.store import GameMeta, Stored

# A finished built-in game logs 22-130 KB; its audit took 0.6-4 ms per KiB here (docs/offline.md),
# so a log at the bound costs a few seconds of one worker thread at most.
MAX_IMPORT_BYTES = 1024 * 1024
MAX_IMPORT_EVENTS = 5_000  # a finished Gloomhaven scenario logs ~150 envelopes
MAX_TITLE = 200  # characters of the scenario title kept for the lobby's list
JSON_LINES_TYPES = ("application/x-ndjson", "application/jsonl")


class ImportProblem(Exception):
    """A refusal: HTTP status, code, message, and the ``seq``/``clause`` of a divergence when there is one."""

    def __init__(self, status: int, code: str, message: str, seq: int | None = None, clause: str | None = None) -> None:
        Exception.__init__(self, message)
        self.status = status
        self.code = code
        self.message = message
        self.seq = seq
        self.clause = clause

    def answer(self) -> dict:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.seq is not None:
            body["seq"] = self.seq
            body["clause"] = self.clause
        return body


class Imported:
    """An audited log, ready to store: its game, meta, stored envelopes and revealed secret."""

    __slots__ = ("game", "meta", "stored", "secret", "events")

    def __init__(self, game: Any, meta: GameMeta, stored: list, secret: str, events: int) -> None:
        self.game = game
        self.meta = meta
        self.stored = stored
        self.secret = secret
        self.events = events


async def jsonl_body(request: Request) -> bytes:
    """The body, JSON Lines only and bounded before anything decodes it (as ``api.json_body``)."""
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind not in JSON_LINES_TYPES:
        raise ImportProblem(415, "unsupported-media-type", f"expected Content-Type {' or '.join(JSON_LINES_TYPES)} "
                            f"(a log as JSON Lines), got {kind or 'none'!r}")
    declared = request.headers.get("content-length")
    too_large = f"an imported log may hold at most {MAX_IMPORT_BYTES} bytes"
    if declared is not None and declared.isascii() and declared.isdigit() and int(declared) > MAX_IMPORT_BYTES:
        raise ImportProblem(413, "log-too-large", f"{too_large}, Content-Length says {declared}")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_IMPORT_BYTES:
            raise ImportProblem(413, "log-too-large", f"{too_large}, got more than that")
        chunks.append(chunk)
    return b"".join(chunks)


class Posted:
    """A body read as JSON lines, with the rule system and game id its GameStarted line names (steps 1-2)."""

    __slots__ = ("lines", "game", "game_id", "body")

    def __init__(self, lines: list, game: Any, game_id: str, body: bytes = b"") -> None:
        self.lines = lines
        self.game = game
        self.game_id = game_id
        self.body = body  # what crosses to the worker process: bytes pickle as they are, parsed lines would not


async def posted(body: bytes) -> Posted:
    """The body's lines and its GameStarted's game: a JSON parse (~20 ms at the bounds), in a thread all the same."""
    return await run_in_threadpool(_posted, body)


def _posted(body: bytes) -> Posted:
    lines = _lines(body)
    return Posted(lines, *_game_of(lines), body)


async def check(posted: Posted, created: str, state: Any) -> Imported:
    """Steps 2-4 of the module docstring, in the worker process behind the audits' gate (``state``: the app's,
    ``server.audits.in_worker``): at most one import is audited at a time, and never beside an audit."""
    from server.audits import in_worker

    game_id, rules, title, seats, stored, secret, count = await in_worker(state, "import", imported, posted.body,
                                                                           created)
    meta = GameMeta(game_id, rules, title, seats, {}, created)
    return Imported(events.games.load(rules), meta, [Stored(*row) for row in stored], secret, count)


def imported(body: bytes, created: str) -> tuple:
    """The worker's job: the body read again (steps 1-2, as ``posted`` read it) and audited (``audit_import``),
    as plain data: (game id, rule system, title, seats, [(seq, command_id, envelope JSON)], secret, events)."""
    done = audit_import(_posted(body), created)
    meta = done.meta
    return (meta.game_id, meta.rules, meta.title, meta.seats,
            [(item.seq, item.command_id, item.envelope) for item in done.stored], done.secret, done.events)


def audit_import(posted: Posted, created: str) -> Imported:
    lines, game, game_id = posted.lines, posted.game, posted.game_id
    envelopes = [_envelope(game, raw, index, game_id) for index, raw in enumerate(lines)]
    if not isinstance(envelopes[0].event, GameStarted):
        raise ImportProblem(400, "bad-log", f"$[0].type: a log starts with GameStarted, got {envelopes[0].type}")
    _check_start(game, game_id, envelopes)
    report = audit_log(game, envelopes)
    found = report.divergence
    if found is not None:
        raise ImportProblem(422, "log-diverges", f"the log does not replay: seq {found.seq}"
                            f"{' (' + found.clause + ')' if found.clause else ''}: logged {found.logged[:300]}, "
                            f"produced {found.produced[:300]}", found.seq, found.clause)
    if not report.over or not report.revealed or not report.complete:
        raise ImportProblem(422, "game-not-over", f"only a finished game is imported: after seq {len(envelopes)} the "
                            "game is " + ("over but its secret is not revealed (CORE-2)" if report.over
                                          else "not over (its dice stay secret until it ends, CORE-2)"))
    table = Table.restore(game, game_id, envelopes)  # audited: folds again for the seats, cheap next to the audit
    started = envelopes[0].event
    title = _title(started.scenario) or game_id
    meta = GameMeta(game_id, game.name, title, tuple(game.seats(table.state)), {}, created)
    stored = [Stored(e.seq, e.command_id, frames.encode_envelope(e)) for e in envelopes]
    return Imported(game, meta, stored, table.secret, len(envelopes))


def _lines(body: bytes) -> list:
    """The non-blank lines as JSON values; each fault names its line and ``$[i]``."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ImportProblem(400, "bad-log", f"the log is not UTF-8 text: byte {error.start}") from None
    rows = [(number, line) for number, line in enumerate(text.split("\n"), 1) if line.strip()]
    if not rows:
        raise ImportProblem(400, "bad-log", "$: the log is empty (expected one envelope per line, GameStarted first)")
    if len(rows) > MAX_IMPORT_EVENTS:
        raise ImportProblem(413, "log-too-long", f"an imported log may hold at most {MAX_IMPORT_EVENTS} envelopes, "
                            f"got {len(rows)}")
    out = []
    for index, (number, line) in enumerate(rows):
        where = f"line {number} ($[{index}])"
        fault = frames.nesting_fault(line)
        if fault is not None:
            raise ImportProblem(400, "bad-log", f"{where}: {fault.replace('$', f'$[{index}]', 1)}")
        try:
            out.append(json.loads(line))
        except ValueError as error:
            raise ImportProblem(400, "bad-log", f"{where}: not valid JSON: {error}") from None
        except RecursionError:  # pragma: no cover - nesting_fault refuses far earlier
            raise ImportProblem(400, "bad-log", f"{where}: nested too deeply") from None
        if not isinstance(out[-1], dict):
            raise ImportProblem(400, "bad-log", f"$[{index}]: expected an envelope object, got {type(out[-1]).__name__}")
    return out


def _game_of(lines: list) -> tuple:
    """The rule system GameStarted names, and the game id every line must carry."""
    first = lines[0]
    data = first.get("data")
    name = data.get("game") if isinstance(data, dict) else None
    if first.get("type") != "GameStarted":
        raise ImportProblem(400, "bad-log", f"$[0].type: a log starts with GameStarted, got {str(first.get('type'))[:40]!r}")
    if not isinstance(name, str) or name not in events.games.NAMES:
        raise ImportProblem(400, "unknown-rules", f"$[0].data.game: expected one of {', '.join(events.games.NAMES)}, "
                            f"got {str(name)[:40]!r}")
    game_id = first.get("game")
    from server.api import GAME_ID  # the one spelling of a server game id

    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        raise ImportProblem(400, "bad-game-id", f"$[0].game: expected a game id (g- and 10 letters, digits, - or _), "
                            f"got {str(game_id)[:40]!r}")
    return events.games.load(name), game_id


def _envelope(game: Any, raw: dict, index: int, game_id: str) -> Envelope:
    try:
        envelope = Envelope.from_dict(game, raw, f"$[{index}]")
    except (DecodeError, TypeError, ValueError) as error:
        raise ImportProblem(400, "bad-log", str(error)[:500]) from None
    if envelope.game != game_id:
        raise ImportProblem(400, "bad-game-id", f"$[{index}].game: every line is of game {game_id}, "
                            f"got {envelope.game[:40]!r}")
    if envelope.dice is not None:  # outcomes chosen by whoever made the log (``play --dice``), not drawn (CORE-1)
        raise ImportProblem(422, "loaded-dice", f"$[{index}].dice: seq {envelope.seq} took loaded dice, chosen by "
                            "whoever made the log and not drawn from the game's secret (CORE-1); only a game whose "
                            "every outcome comes from its secret is imported", envelope.seq, "CORE-1")
    return envelope


def _check_start(game: Any, game_id: str, envelopes: list) -> None:
    """``start`` again on GameStarted's scenario and commitment must give the logged first events."""
    started = envelopes[0].event
    rules = started_under(game, envelopes[:1])
    if started.seed is not None or not started.commitment:
        raise ImportProblem(422, "log-diverges", "seq 1 (CORE-1): an imported game commits to its secret; "
                            "this GameStarted names an open seed or no commitment", 1, "CORE-1")
    try:
        scenario = json.loads(started.scenario)
        if not isinstance(scenario, dict):
            raise ScenarioError(f"$: a scenario is an object, got {type(scenario).__name__}")
        expected = list(rules.start(scenario, started.commitment))
        if expected and started.dice_key is not None:  # the engine's marker (CORE-12), not the scenario's
            expected[0] = expected[0].but(dice_key=started.dice_key)
    except ValueError as error:  # ScenarioError is one, and so is JSON that does not parse
        code = getattr(error, "code", "bad-scenario")  # scenario-out-of-bounds past a documented bound
        raise ImportProblem(422, code, f"$[0].data.scenario: {str(error)[:500]}", 1, None) from None
    for offset, event in enumerate(expected):
        if offset >= len(envelopes) or envelopes[offset].event != event:
            raise ImportProblem(422, "log-diverges", f"seq {offset + 1}: the scenario starts the game with "
                                f"{event.TYPE}, which the log does not hold as made", offset + 1, None)


def _title(scenario_text: str) -> str | None:
    try:
        scenario = json.loads(scenario_text)
    except ValueError:
        return None
    title = scenario.get("title") if isinstance(scenario, dict) else None
    return title[:MAX_TITLE] if isinstance(title, str) else None
