"""The HTTP side of docs/protocol.md: scenarios, creating and listing games, a game's log and state.

Every error is JSON ``{"code": "<kebab-case>", "message": "<the fact>"}`` with a 4xx/5xx status,
the same two fields as the WebSocket's error frame.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

import events.games
from events.bots import POLICIES
from events.canonical import state_hash
from events.log import LogError, Table
from events.record import DecodeError, to_data
from events.validate import ScenarioError
from server import frames, scenarios, snapshots
from server.audits import held_until_done
from server.limits import Admission, CreationRate, LimitReached, Limits, client_key
from server.logs import LogCache
from server.room import now
from server.store import GameExists, GameMeta, Store, Stored, StoreError, UnknownGame
from server.tokens import new_game_id, new_token, token_hash
from server.workers import WorkerLost, worker_of

MAX_BODY_BYTES = 256 * 1024  # an inline scenario with its board is a few KB
MAX_SEQ_DIGITS = 10  # a seq is below 2**31 in every store
PAGE_SIZE = 50  # GET /api/games without ?limit=
MAX_PAGE_SIZE = 200
# Seconds: games end on the scale of minutes; one nobody moves stops counting after idle_hours.
OPEN_GAMES_RETRY_AFTER = 60
GAME_ID = re.compile(r"g-[A-Za-z0-9_-]{10}")
SEQ = re.compile(rf"[0-9]{{1,{MAX_SEQ_DIGITS}}}")
JSON_TYPES = ("application/json",)
SECRET_BYTES = 32  # each game's secret (CORE-1): 256 bits from ``secrets``, kept by the store
_encoder = msgspec.json.Encoder()
log = logging.getLogger("chronicle.api")


class CreateGame(msgspec.Struct, forbid_unknown_fields=True):
    scenario: str | dict[str, Any]
    seed: Any = msgspec.UNSET  # refused with its own code: a creator who picks the seed foresees every roll
    bots: Any = msgspec.UNSET  # seat -> policy (issue 18), checked by ``_bot_seats`` with its own codes


_create_decoder = msgspec.json.Decoder(CreateGame)


class HTTPProblem(Exception):
    def __init__(self, status: int, code: str, message: str, headers: dict | None = None) -> None:
        Exception.__init__(self, message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers


NOSNIFF = {"X-Content-Type-Options": "nosniff"}


def json_response(data: Any, status: int = 200, headers: dict | None = None) -> Response:
    return Response(_encoder.encode(data), status_code=status, media_type="application/json",
                    headers={**NOSNIFF, **(headers or {})})


def problem(status: int, code: str, message: str, headers: dict | None = None) -> Response:
    return json_response({"code": code, "message": message}, status, headers)


def _answers(handler):
    """Turn HTTPProblem and store failures into JSON errors, so every handler reads as the happy path."""

    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except HTTPProblem as error:
            return problem(error.status, error.code, error.message, error.headers)
        except UnknownGame as error:
            return problem(404, "no-such-game", f"there is no game {error.game_id!r}")
        except StoreError as error:
            return problem(503, "store-unavailable", str(error))
        except (LogError, DecodeError) as error:  # a log today's rules cannot replay
            return problem(500, "game-unavailable", f"the game cannot be rebuilt from its log: {error}")
        except LimitReached as error:  # too-busy, too-many-reads: whole-log requests at a bound (``_whole_log``)
            status = 429 if error.code == "too-many-reads" else 503  # the asker's own doing, or the server's load
            return problem(status, error.code, error.message, {"Retry-After": str(BUSY_RETRY_AFTER)})
        except WorkerLost as error:  # the worker process died under this request's job: replaced already
            return problem(503, error.code, str(error), {"Retry-After": str(LOST_RETRY_AFTER)})

    endpoint.__name__ = handler.__name__
    endpoint.__doc__ = handler.__doc__
    return endpoint


def _store(request: Request) -> Store:
    return request.app.state.store


def _limits(request: Request) -> Limits:
    return getattr(request.app.state, "limits", None) or Limits()


async def json_body(request: Request, max_bytes: int = MAX_BODY_BYTES) -> bytes:
    """The body of a POST, checked before anything decodes it (issue 12, findings 4 and 6).

    Only ``application/json`` (415 ``unsupported-media-type``): a web page cannot send that
    cross-origin without a preflight, which this server never answers. The bytes are counted as
    they arrive and reading stops at the bound (413 ``body-too-large``), so a 300 MiB chunked
    body costs the server at most ``max_bytes``. Nesting deeper than ``frames.MAX_JSON_DEPTH``
    is 400 ``bad-request`` with its path.
    """
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind not in JSON_TYPES:
        raise HTTPProblem(415, "unsupported-media-type", f"expected Content-Type application/json, got {kind or 'none'!r}")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isascii() and declared.isdigit() and int(declared) > max_bytes:
        raise HTTPProblem(413, "body-too-large", f"a request body may hold at most {max_bytes} bytes, "
                          f"Content-Length says {declared}")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_bytes:
            raise HTTPProblem(413, "body-too-large", f"a request body may hold at most {max_bytes} bytes, "
                              f"got more than that")
        chunks.append(chunk)
    body = b"".join(chunks)
    fault = frames.nesting_fault(body)
    if fault is not None:
        raise HTTPProblem(400, "bad-request", fault)
    return body


BUSY_RETRY_AFTER = 5  # seconds: a whole log is re-decided in well under that, but for the largest
LOST_RETRY_AFTER = 1  # seconds: the worker process is replaced before ``worker-lost`` is answered


def _whole_log(request: Request, what: str):
    """Count this request among those reading a whole log (``Limits.whole_log_reads``, of which
    ``whole_log_reads_per_address`` per client address) while it reads and works, or raise
    ``too-many-reads`` (429) or ``too-busy`` (503) before it reads anything: each holds its log meanwhile."""
    state = request.app.state
    admission = getattr(state, "whole_logs", None)
    if admission is None:
        limits = _limits(request)
        admission = state.whole_logs = Admission(limits.whole_log_reads, limits.whole_log_reads_per_address)
    return admission.admitted(what, _address(request))


def _address(request: Request) -> str:
    """The client's key in the per-address bounds (``server.limits.client_key``: an IPv6 address by its /64)."""
    return client_key(request.client.host) if request.client is not None else "unknown"


def _creations(request: Request) -> CreationRate:
    state = request.app.state
    rate = getattr(state, "creations", None)
    if rate is None:
        rate = state.creations = CreationRate(_limits(request))
    return rate


def _rules(meta: GameMeta):
    """The game's rule system, or a 500 that says it is gone."""
    try:
        return events.games.load(meta.rules)
    except KeyError:
        raise HTTPProblem(500, "game-unavailable", f"game {meta.game_id} was played under rule system "
                          f"{meta.rules!r}, which this server does not have") from None


# --- scenarios ---------------------------------------------------------------------------------


_scenario_list: list[dict] | None = None


@_answers
async def list_scenarios(request: Request) -> Response:
    global _scenario_list
    if _scenario_list is None:
        listing = []
        for name in scenarios.builtin_scenarios():
            try:
                game, data = scenarios.load(name)
            except scenarios.ScenarioFileError as error:  # one broken file must not hide the others
                log.error("built-in scenario %s cannot be read: %s", name, error)
                continue
            listing.append({"name": name, "game": game, "title": str(data.get("title", name)),
                            "titles": dict(data.get("titles") or {}),  # the title in each reader's language
                            "seats": list(_seats_of(game, data))})
        _scenario_list = listing
    return json_response(_scenario_list)


_scenario_bodies: list[dict] | None = None


@_answers
async def full_scenarios(request: Request) -> Response:
    """Every built-in scenario with its files inlined: what the pass-and-play page (``/offline``) fetches
    once, before play starts, so that no scenario needs the server afterwards (docs/offline.md)."""
    global _scenario_bodies
    if _scenario_bodies is None:
        await list_scenarios(request)  # the listing, its broken files logged once
        bodies = []
        for item in _scenario_list or []:
            bodies.append(dict(item, scenario=scenarios.load(item["name"])[1]))
        _scenario_bodies = bodies
    return json_response(_scenario_bodies)


def _seats_of(game_name: str, scenario: dict) -> tuple:
    """A built-in scenario's seats, in order (the lobby offers a person or a bot for each)."""
    game = events.games.load(game_name)
    return tuple(game.seats(Table.create(game, "g-listing00", scenario, "00" * SECRET_BYTES).state))


# --- games -------------------------------------------------------------------------------------


@_answers
async def create_game(request: Request) -> Response:
    """``{"scenario": "mecha/sample" | {...inline scenario...}, "bots": {seat: policy}}`` -> join links.

    A seat in ``bots`` is played by the server (issue 18, ``server/room.py``) and gets no join
    link; ``_bot_seats`` says what may be asked.

    The game's secret (CORE-1) is drawn here from ``secrets`` and goes to the store only; the
    answer, like every other, shows nothing of it. A ``seed`` is refused (``seed-not-allowed``).

    Bounded per client address (``games_per_minute``: 429 ``too-many-creations``; ``open_games_per_address``
    of its games not over: 429 ``too-many-open-games-per-address``) and in total (``open_games`` not over
    in the store: 503 ``too-many-open-games``), each with ``Retry-After``. A game nobody moved for
    ``idle_hours`` counts in neither (``Store.count_open_games``), and the creator's address is kept.
    """
    body = await json_body(request)
    limits = _limits(request)
    address = _address(request)
    wait = _creations(request).take(address)
    if wait:
        raise HTTPProblem(429, "too-many-creations", _creations(request).refusal(wait), {"Retry-After": str(wait)})
    store = _store(request)
    since = int(store.clock()) - limits.idle_hours * 3600
    if await store.count_open_games(moved_since=since, creator=address) >= limits.open_games_per_address:
        raise HTTPProblem(429, "too-many-open-games-per-address", f"this address created "
                          f"{limits.open_games_per_address} games that are not over, the most this server keeps for "
                          f"one: play them to their end, or try again once one has been left alone for "
                          f"{limits.idle_hours} hours", {"Retry-After": str(OPEN_GAMES_RETRY_AFTER)})
    if await store.count_open_games(moved_since=since) >= limits.open_games:
        raise HTTPProblem(503, "too-many-open-games", f"this server holds {limits.open_games} games that are not "
                          f"over, its limit: try again later", {"Retry-After": str(OPEN_GAMES_RETRY_AFTER)})
    try:
        request_ = _create_decoder.decode(body)
    except msgspec.DecodeError as error:
        raise HTTPProblem(400, "bad-request", f"expected {{\"scenario\": name or object}}: {error}") from None
    if request_.seed is not msgspec.UNSET:
        raise HTTPProblem(400, "seed-not-allowed", "$.seed: a game's dice come from a secret the server draws "
                          "and reveals when the game ends (CORE-1); a creator cannot choose them")
    game_name, scenario = _scenario(request_.scenario)
    game = events.games.load(game_name)
    for _attempt in range(3):
        game_id = new_game_id()
        secret = secrets.token_hex(SECRET_BYTES)
        try:
            table = Table.create(game, game_id, scenario, secret, at=now())
        except ScenarioError as error:
            # bad-scenario, or scenario-out-of-bounds past a documented bound (BoundError)
            raise HTTPProblem(400, error.code, f"scenario: {error}") from None
        seats = tuple(game.seats(table.state))
        bots = _bot_seats(request_.bots, seats)
        tokens = {seat: new_token() for seat in seats if seat not in bots}
        title = scenario.get("title") if isinstance(scenario.get("title"), str) else game_id
        meta = GameMeta(game_id, game.name, title, seats, {seat: token_hash(t) for seat, t in tokens.items()}, now())
        first = [Stored(e.seq, e.command_id, frames.encode_envelope(e)) for e in table.envelopes]
        try:
            await store.create_game(meta, first, over=bool(game.is_over(table.state)), secret=secret, bots=bots,
                                    creator=address)
        except GameExists:
            continue  # 60 random bits collided: draw another id
        return json_response({
            "game": game_id,
            "seats": {seat: {"token": token, "link": f"/play/{game_id}#token={token}"} for seat, token in tokens.items()},
            "bots": bots,
            "spectate": f"/watch/{game_id}",
            "replay": f"/replay/{game_id}",
        }, 201)
    raise HTTPProblem(503, "store-unavailable", "could not find a free game id")


def _bot_seats(given: Any, seats: tuple) -> dict:
    """``$.bots``: an object naming some of the scenario's seats, each with a policy of
    ``events.bots.POLICIES``; at least one seat stays a person's (a game of bots only would spend
    the server's time with nobody to play it). Each fault is a 400 with its own code and path."""
    if given is msgspec.UNSET or given is None:
        return {}
    if not isinstance(given, dict):
        raise HTTPProblem(400, "bad-request", f"$.bots: expected an object of seat -> policy, got {type(given).__name__}")
    for seat, policy in given.items():
        if seat not in seats:
            raise HTTPProblem(400, "unknown-bot-seat", f"$.bots.{seat[:40]}: this scenario has no seat {seat[:40]!r} "
                              f"(seats: {', '.join(seats)})")
        if not isinstance(policy, str) or policy not in POLICIES:
            shown = repr(policy[:40]) if isinstance(policy, str) else type(policy).__name__
            raise HTTPProblem(400, "unknown-bot-policy", f"$.bots.{seat}: expected one of {', '.join(POLICIES)}, "
                              f"got {shown}")
    if len(given) == len(seats):
        raise HTTPProblem(400, "no-person-seat", f"$.bots: every seat ({', '.join(seats)}) would be a bot; "
                          "at least one seat must be a person's")
    return {seat: given[seat] for seat in seats if seat in given}


def _scenario(given: str | dict) -> tuple[str, dict]:
    """A built-in name (never a server path) or an inline scenario object with its board and bag."""
    if isinstance(given, str):
        known = scenarios.builtin_scenarios()
        if given not in known:
            raise HTTPProblem(400, "bad-scenario", f"$.scenario: no built-in scenario {given!r} (built-in: {', '.join(known)})")
        return scenarios.load(given)
    game_name = given.get("game")
    if game_name not in events.games.NAMES:
        raise HTTPProblem(400, "bad-scenario",
                          f"$.scenario.game: expected one of {', '.join(events.games.NAMES)}, got {game_name!r}")
    return game_name, given


@_answers
async def list_games(request: Request) -> Response:
    """A page of games, newest first: ``?limit=`` (1 to MAX_PAGE_SIZE, default PAGE_SIZE) and
    ``?cursor=`` (the id of the last game of the previous page). A full page carries a ``Link``
    header with ``rel="next"``; fewer games than the limit means the last page."""
    raw_limit = request.query_params.get("limit")
    limit = PAGE_SIZE
    if raw_limit is not None:
        if not SEQ.fullmatch(raw_limit) or not 1 <= int(raw_limit) <= MAX_PAGE_SIZE:
            raise HTTPProblem(400, "bad-limit", f"$.limit: expected an integer from 1 to {MAX_PAGE_SIZE}, "
                              f"got {raw_limit[:40]!r}")
        limit = int(raw_limit)
    cursor = request.query_params.get("cursor")
    if cursor is not None and not GAME_ID.fullmatch(cursor):
        raise HTTPProblem(400, "bad-cursor", f"$.cursor: expected the id of a listed game (g- and 10 characters), "
                          f"got {cursor[:40]!r}")
    try:
        games = await _store(request).list_games(limit=limit, after=cursor)
    except UnknownGame:
        raise HTTPProblem(400, "bad-cursor", f"$.cursor: there is no game {cursor!r} to continue after") from None
    headers = {}
    if len(games) == limit:
        headers["Link"] = f'</api/games?limit={limit}&cursor={games[-1].game_id}>; rel="next"'
    return json_response([
        {"game": meta.game_id, "rules": meta.rules, "title": meta.title, "seats": list(meta.seats),
         "head": meta.head, "over": meta.over, "created": meta.created}
        for meta in games
    ], headers=headers)


@_answers
async def game_log(request: Request) -> Response:
    """The log as JSON Lines, as a spectator sees it (every envelope through ``visible_to``), each
    line made once and kept for the next request (``server/logs.py``)."""
    game_id = request.path_params["game_id"]
    store = _store(request)
    meta = await store.get_game(game_id)
    chunks = await _logs(request).lines(store, meta, _rules(meta))

    async def body():
        for chunk in chunks:
            yield chunk

    headers = {**NOSNIFF, "Content-Length": str(sum(len(chunk) for chunk in chunks))}
    return StreamingResponse(body(), media_type="application/x-ndjson", headers=headers)


def _logs(request: Request) -> LogCache:
    """The app's log cache (``create_app``), or one of its own for an app built without it."""
    state = request.app.state
    if getattr(state, "logs", None) is None:
        state.logs = LogCache()
    return state.logs


@_answers
async def game_state(request: Request) -> Response:
    """``{"seq", "hash", "state"}``: the spectator's view after ``seq`` (default: the latest)."""
    game_id = request.path_params["game_id"]
    store = _store(request)
    meta = await store.get_game(game_id)
    raw = request.query_params.get("seq")
    seq = meta.head
    if raw is not None:
        # ASCII digits only (str.isdigit also takes "１" and "²"), and few of them: int() of 5,000 digits raises.
        if not SEQ.fullmatch(raw) or not 1 <= int(raw) <= meta.head:
            raise HTTPProblem(400, "bad-seq", f"$.seq: expected an integer from 1 to {meta.head} in ASCII digits, "
                              f"got {raw[:40]!r}{'…' if len(raw) > 40 else ''}")
        seq = int(raw)
    game = _rules(meta)
    # Kept only when folded from seq 1 (a log with an undo, CORE-4): snapshots make every other answer cheap.
    body, _whole = await _kept(request, "state_answers", STATE_CACHE).get(
        (game_id, seq), lambda: _state_body(request, game, seq), keep=lambda made: made[1])
    return Response(body, media_type="application/json", headers=NOSNIFF)


STATE_CACHE = 64  # answers of GET /api/games/{id}/state folded from seq 1 kept (their JSON), keyed by (game, seq)
FOLDS_AT_ONCE = 1  # whole-log folds of /state (a log with an undo, CORE-4) handed to the worker process at once


async def _state_body(request: Request, game: Any, seq: int) -> tuple[bytes, bool]:
    """The JSON of ``/state?seq=``: the newest snapshot at or before seq plus at most SNAPSHOT_EVERY - 1
    folds (issue 12, finding 5) on the loop; a longer fold (a log with an undo folds from seq 1, CORE-4)
    in the worker process (``server/workers.py``, ``snapshots.folded``), one at a time (``FOLDS_AT_ONCE``),
    so that no game waits for it. With it, whether it was folded from seq 1 (then worth keeping)."""
    store, game_id, state_ = _store(request), request.path_params["game_id"], request.app.state
    gate = getattr(state_, "fold_gate", None)
    if gate is None:
        gate = state_.fold_gate = asyncio.Semaphore(FOLDS_AT_ONCE)
    counted, rules = state_.metrics.folds.labels("state").inc, game.name

    async def whole(stored: list) -> _Folded:
        async with gate:  # held until the child is done, even if this request is cancelled meanwhile
            job = worker_of(state_).run(snapshots.folded, rules, game_id, seq, [item.envelope for item in stored])
            body, undone_, kept, folds = await held_until_done(asyncio.ensure_future(job))
        counted(folds)
        await snapshots.save(store, game_id, kept)
        return _Folded(body, undone_)

    undone: list = []
    with _whole_log(request, "/state"):
        state = await snapshots.state_at(store, game, game_id, seq, counted, None, undone, whole)
        if isinstance(state, _Folded):  # ``whole``'s answer: the body made in the worker
            return state.body, state.undone or bool(undone)
        game = await snapshots.game_at(store, game, game_id, seq)  # its view is the version in force at seq (CORE-3)
    body = _encoder.encode({"seq": seq, "hash": state_hash(state), "state": to_data(game.view(state, None))})
    return body, bool(undone)


class _Folded:
    """``/state``'s body as the worker made it, and whether an undo made it fold from seq 1."""

    __slots__ = ("body", "undone")

    def __init__(self, body: bytes, undone: bool) -> None:
        self.body = body
        self.undone = undone


RULES_CACHE = 256  # answers of GET /api/games/{id}/rules kept, keyed by (game, head): a log is re-decided once per head


@_answers
async def game_rules(request: Request) -> Response:
    """Does the game replay unchanged under the newest rules version of its game? (issue 19, CORE-3)

    ``{"game", "rules_version" (the version it is played under), "newest", "unchanged", "divergence"
    (null, or {"seq", "clause", "logged_rule", "produced_rule"}, plus "logged" and "produced" once the
    game is over: while it runs they may tell what a seat may not see), "changes" (what each later
    version changed: [{"version", "clause", "text"}]), "sealed"}``. Without the game's secret: the
    commands of a running game that draw are folded and hashed, not re-decided (``sealed`` of them).

    The re-decide runs in the worker process behind the audits' gate (``server.audits.in_worker``), and
    one (game, head) asked again, or meanwhile, is decided once (``server.answers.Answers``).
    """
    game_id = request.path_params["game_id"]
    store = _store(request)
    meta = await store.get_game(game_id)
    answers = _kept(request, "rules_answers", RULES_CACHE)
    return json_response(await answers.get((game_id, meta.head), lambda: _rules_answer(request, store, meta)))


async def _rules_answer(request: Request, store: Store, meta: GameMeta) -> dict:
    from server import rulescheck
    from server.audits import in_worker

    game_id = meta.game_id
    try:
        newest = events.games.load(meta.rules)
    except KeyError:
        raise HTTPProblem(500, "game-unavailable", f"game {game_id} was played under rule system "
                          f"{meta.rules!r}, which this server does not have") from None
    try:
        with _whole_log(request, "/rules"):
            stored = await store.read(game_id)
            return await in_worker(request.app.state, "rules", rulescheck.answer, game_id, newest.name, meta.over,
                                   [item.envelope for item in stored])
    except KeyError:  # a RulesVersionChanged to a version this code lacks
        raise HTTPProblem(500, "game-unavailable", f"game {game_id} was played under rule system "
                          f"{meta.rules!r}, which this server does not have") from None


def _kept(request: Request, name: str, size: int):
    """The app's ``Answers`` of one route (``server/answers.py``), made on first use."""
    from server.answers import Answers

    found = getattr(request.app.state, name, None)
    if found is None:
        found = Answers(size)
        setattr(request.app.state, name, found)
    return found


AUDIT_CACHE = 256  # answers of GET /api/games/{id}/audit kept, keyed by (game, head): a log is audited once per head


@_answers
async def game_audit(request: Request) -> Response:
    """The server's audit of the public log (issue 18): ``server/audits.py`` says what it holds.

    A game id that cannot be one (``GAME_ID``) is 400 ``bad-game-id`` before the store is asked;
    an unknown one 404 ``no-such-game``. No secret from the store is ever used: a running game's
    draws stay sealed (CORE-1), a finished game's log carries its own (CORE-2).
    """
    from server.audits import audit_answer

    game_id = request.path_params["game_id"]
    if not GAME_ID.fullmatch(game_id):
        raise HTTPProblem(400, "bad-game-id", f"$.game_id: expected g- and 10 letters, digits, _ or -, "
                          f"got {game_id[:40]!r}{'…' if len(game_id) > 40 else ''}")
    store = _store(request)
    meta = await store.get_game(game_id)
    answers = _kept(request, "audit_answers", AUDIT_CACHE)

    async def audited() -> dict:
        with _whole_log(request, "/audit"):
            return await audit_answer(store, meta, _rules(meta), request.app.state)

    return json_response(await answers.get((game_id, meta.head, meta.over), audited))


@_answers
async def import_game(request: Request) -> Response:
    """A finished game's log as JSON Lines -> a stored game anyone can watch (issue 18, ``server/importlog.py``).

    ``{"game", "events", "spectate", "replay"}`` (201); every refusal has its code, and a log that
    does not replay says the ``seq`` and ``clause`` of its first divergence.
    """
    from server import importlog

    try:
        body = await importlog.jsonl_body(request)
        wait = _creations(request).take(_address(request))
        if wait:
            raise HTTPProblem(429, "too-many-creations", _creations(request).refusal(wait), {"Retry-After": str(wait)})
        posted = await importlog.posted(body)
        await _not_stored(_store(request), posted.game_id)  # before the audit: a log posted again costs none
        with _whole_log(request, "an import"):
            imported = await importlog.check(posted, now(), request.app.state)
    except importlog.ImportProblem as refused:
        return json_response(refused.answer(), refused.status)
    meta = imported.meta
    try:
        await _store(request).create_game(meta, imported.stored, over=True, secret=imported.secret, bots={})
    except GameExists:  # posted twice at once: the other one was stored while this one was audited
        raise _exists(meta.game_id) from None
    return json_response({"game": meta.game_id, "events": imported.events, "spectate": f"/watch/{meta.game_id}",
                          "replay": f"/replay/{meta.game_id}"}, 201)


async def _not_stored(store: Store, game_id: str) -> None:
    try:
        await store.get_game(game_id)
    except UnknownGame:
        return
    raise _exists(game_id)


def _exists(game_id: str) -> HTTPProblem:
    return HTTPProblem(409, "game-exists", f"game {game_id} is stored already: a log is imported once")


async def api_not_found(request: Request) -> Response:
    return problem(404, "not-found", f"no API route {request.method} {request.url.path}")


routes = [
    Route("/api/scenarios", list_scenarios, methods=["GET"]),
    Route("/api/scenarios/full", full_scenarios, methods=["GET"]),
    Route("/api/games", create_game, methods=["POST"]),
    Route("/api/games", list_games, methods=["GET"]),
    Route("/api/games/import", import_game, methods=["POST"]),
    Route("/api/games/{game_id}/log", game_log, methods=["GET"]),
    Route("/api/games/{game_id}/state", game_state, methods=["GET"]),
    Route("/api/games/{game_id}/rules", game_rules, methods=["GET"]),
    Route("/api/games/{game_id}/audit", game_audit, methods=["GET"]),
    Route("/api/{rest:path}", api_not_found),
]
