"""The HTTP side of docs/protocol.md: scenarios, creating and listing games, a game's log and state.

Every error is JSON ``{"code": "<kebab-case>", "message": "<the fact>"}`` with a 4xx/5xx status,
the same two fields as the WebSocket's error frame.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

import events.games
from events.canonical import state_hash
from events.log import LogError, Table
from events.record import DecodeError, to_data
from events.validate import ScenarioError
from server import frames, scenarios
from server.room import now, visible_to
from server.store import GameExists, GameMeta, Store, Stored, StoreError, UnknownGame
from server.tokens import new_game_id, new_token, token_hash

MAX_BODY_BYTES = 256 * 1024  # an inline scenario with its board is a few KB
MAX_SEED = 2**53 - 1  # the largest integer a browser's JSON.parse keeps exact
RANDOM_SEED_BITS = 31
_encoder = msgspec.json.Encoder()
log = logging.getLogger("chronicle.api")


class CreateGame(msgspec.Struct, forbid_unknown_fields=True):
    scenario: str | dict[str, Any]
    seed: int | None = None


_create_decoder = msgspec.json.Decoder(CreateGame)


class HTTPProblem(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        Exception.__init__(self, message)
        self.status = status
        self.code = code
        self.message = message


def json_response(data: Any, status: int = 200) -> Response:
    return Response(_encoder.encode(data), status_code=status, media_type="application/json")


def problem(status: int, code: str, message: str) -> Response:
    return json_response({"code": code, "message": message}, status)


def _answers(handler):
    """Turn HTTPProblem and store failures into JSON errors, so every handler reads as the happy path."""

    async def endpoint(request: Request) -> Response:
        try:
            return await handler(request)
        except HTTPProblem as error:
            return problem(error.status, error.code, error.message)
        except UnknownGame as error:
            return problem(404, "no-such-game", f"there is no game {error.game_id!r}")
        except StoreError as error:
            return problem(503, "store-unavailable", str(error))
        except (LogError, DecodeError) as error:  # a log today's rules cannot replay
            return problem(500, "game-unavailable", f"the game cannot be rebuilt from its log: {error}")

    endpoint.__name__ = handler.__name__
    endpoint.__doc__ = handler.__doc__
    return endpoint


def _store(request: Request) -> Store:
    return request.app.state.store


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
            listing.append({"name": name, "game": game, "title": str(data.get("title", name))})
        _scenario_list = listing
    return json_response(_scenario_list)


# --- games -------------------------------------------------------------------------------------


@_answers
async def create_game(request: Request) -> Response:
    """``{"scenario": "mecha/sample" | {...inline scenario...}, "seed": 7?}`` -> join links."""
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        raise HTTPProblem(413, "body-too-large", f"a request body may hold at most {MAX_BODY_BYTES} bytes, got {len(body)}")
    try:
        request_ = _create_decoder.decode(body)
    except msgspec.DecodeError as error:
        raise HTTPProblem(400, "bad-request", f"expected {{\"scenario\": name or object, \"seed\": integer?}}: {error}") from None
    game_name, scenario = _scenario(request_.scenario)
    seed = request_.seed if request_.seed is not None else secrets.randbits(RANDOM_SEED_BITS)
    if not 0 <= seed <= MAX_SEED:
        raise HTTPProblem(400, "bad-request", f"$.seed: expected an integer from 0 to {MAX_SEED}, got {seed}")
    game = events.games.load(game_name)
    store = _store(request)
    for _attempt in range(3):
        game_id = new_game_id()
        try:
            table = Table.create(game, game_id, scenario, seed, at=now())
        except ScenarioError as error:
            # bad-scenario, or scenario-out-of-bounds past a documented bound (BoundError)
            raise HTTPProblem(400, error.code, f"scenario: {error}") from None
        seats = tuple(game.seats(table.state))
        tokens = {seat: new_token() for seat in seats}
        title = scenario.get("title") if isinstance(scenario.get("title"), str) else game_id
        meta = GameMeta(game_id, game.name, title, seats, {seat: token_hash(t) for seat, t in tokens.items()}, now())
        first = [Stored(e.seq, e.command_id, frames.encode_envelope(e)) for e in table.envelopes]
        try:
            await store.create_game(meta, first, over=bool(game.is_over(table.state)))
        except GameExists:
            continue  # 60 random bits collided: draw another id
        return json_response({
            "game": game_id,
            "seats": {seat: {"token": token, "link": f"/play/{game_id}#token={token}"} for seat, token in tokens.items()},
            "spectate": f"/watch/{game_id}",
            "replay": f"/replay/{game_id}",
        }, 201)
    raise HTTPProblem(503, "store-unavailable", "could not find a free game id")


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
    games = await _store(request).list_games()
    return json_response([
        {"game": meta.game_id, "rules": meta.rules, "title": meta.title, "seats": list(meta.seats),
         "head": meta.head, "over": meta.over, "created": meta.created}
        for meta in games
    ])


@_answers
async def game_log(request: Request) -> Response:
    """The log as JSON Lines, as a spectator sees it (every envelope through ``visible_to``)."""
    game_id = request.path_params["game_id"]
    store = _store(request)
    meta = await store.get_game(game_id)
    stored = await store.read(game_id)
    game = _rules(meta)

    def lines():
        for item in stored:
            envelope = frames.decode_envelope(game, item.envelope)
            visible = visible_to(game, envelope, None, meta.over)
            if visible is envelope:
                yield item.envelope + "\n"
            elif visible is not None:
                yield frames.encode_envelope(visible) + "\n"

    return StreamingResponse(lines(), media_type="application/x-ndjson")


@_answers
async def game_state(request: Request) -> Response:
    """``{"seq", "hash", "state"}``: the spectator's view after ``seq`` (default: the latest)."""
    game_id = request.path_params["game_id"]
    store = _store(request)
    meta = await store.get_game(game_id)
    raw = request.query_params.get("seq")
    seq = meta.head
    if raw is not None:
        if not raw.isdigit() or not 1 <= int(raw) <= meta.head:
            raise HTTPProblem(400, "bad-seq", f"seq: expected an integer from 1 to {meta.head}, got {raw!r}")
        seq = int(raw)
    game = _rules(meta)
    stored = await store.read(game_id, 0, seq)
    table = Table.restore(game, game_id, [frames.decode_envelope(game, item.envelope) for item in stored])
    return json_response({"seq": seq, "hash": state_hash(table.state), "state": to_data(game.view(table.state, None))})


async def api_not_found(request: Request) -> Response:
    return problem(404, "not-found", f"no API route {request.method} {request.url.path}")


routes = [
    Route("/api/scenarios", list_scenarios, methods=["GET"]),
    Route("/api/games", create_game, methods=["POST"]),
    Route("/api/games", list_games, methods=["GET"]),
    Route("/api/games/{game_id}/log", game_log, methods=["GET"]),
    Route("/api/games/{game_id}/state", game_state, methods=["GET"]),
    Route("/api/{rest:path}", api_not_found),
]
