"""Gloomhaven: what a monster does on its turn (focus, destination, targets), and why.

    chronicle ask gloomhaven monster-turn POSITION.json [--monster ID] [--rules gloomhaven|jotl]
    chronicle ask gloomhaven monster-turn --log LOG --seq N [--monster ID]

POSITION is a map with figures (docs/gloomhaven-format.md, "Monster-turn positions"), a file or
a built-in name such as ``gloomhaven/positions/12-ranged-steps-away-from-disadvantage``: the
acting monster carries its move and attack (range, targets, area pattern) and may fly, jump or
be muddled. ``map`` may be inline or name a map file beside the position. The answer is JSON:

  {"monster": ID, "rules": "gloomhaven", "focus": [ids], "options": [{"destination": [q, r],
   "path": [[q, r], ...], "attacks": [ids], ...}], "trace": {"decided_by": ..., "candidates": [...]}}

``focus`` is [] when no enemy can be reached (the monster then neither moves nor attacks);
``options`` is the complete set of equally good moves the rules allow (more than one: the
players choose, GH-C4); ``trace`` lists every enemy considered with the cost of its best path
to an attack hex (negative hexes entered, movement points), its proximity and initiative, and
the rule that broke the tie. ``--rules jotl`` applies the Jaws of the Lion variant: focus ties
skip proximity (GH-V1) and a jump's landing hex does not cost 2 for difficult terrain (GH-V2).

With ``--log LOG --seq N`` the position is the state after event N of a real game: its map,
open doors, traps and figures, the initiative order of that round, and the monster's ability
card drawn for it (default monster: the one whose turn is under way). A logged game is played
under the rules its scenario chose (gloomhaven-4's ``"variant": "jotl"``, else the original
rules), and so is the answer (its ``rules``), so ``--rules jotl`` does not apply there.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from events.games.gloomhaven.board import load_position
from events.games.gloomhaven.focus import Attack, Body, Field, monster_turn, tied_orders
from events.geometry.hexmap import HexMap
from events.validate import ScenarioError
from server import logfile, scenarios
from server.cli.ask_common import add_log, logged_state
from server.cli.status import BAD_ARGS, BAD_INPUT, SUCCESS, CommandError

POSITIONS_DIR = scenarios.GAMES_DIR / "gloomhaven" / "positions"


def add_questions(subparsers: argparse._SubParsersAction) -> None:
    turn = subparsers.add_parser("monster-turn", help="a monster's focus, its equally good moves and the trace")
    turn.add_argument("position", metavar="POSITION", nargs="?",
                      help="a monster-turn position file (JSON) or a built-in one (gloomhaven/positions/NAME); "
                           "or give --log")
    add_log(turn)
    turn.add_argument("--monster", metavar="ID", help="the acting monster (default: the file's 'monster')")
    turn.add_argument("--rules", choices=("gloomhaven", "jotl"), default="gloomhaven",
                      help="gloomhaven (default) or jotl: Jaws of the Lion's focus and jump (GH-V1, GH-V2)")
    turn.set_defaults(func=run_monster_turn)


def builtin_positions() -> list[str]:
    """Every built-in position name, ``gloomhaven/positions/<stem>`` (package data beside the scenarios)."""
    return [f"gloomhaven/positions/{path.stem}" for path in sorted(POSITIONS_DIR.glob("*.json"))]


def resolve_position(name: str) -> Path:
    """A position file, or a built-in name (``gloomhaven/positions/<stem>`` or just ``<stem>``)."""
    path = Path(name)
    if path.is_file():
        return path
    stem = name.removeprefix("gloomhaven/positions/")
    if "/" not in stem and not stem.endswith(".json"):
        candidate = POSITIONS_DIR / f"{stem}.json"
        if candidate.is_file():
            return candidate
    raise CommandError(f"{name}: no such position file or built-in position (built-in: "
                       f"{', '.join(builtin_positions())})", BAD_INPUT)


def read_position(name: str) -> dict:
    """The position file as a dict, its ``map`` inlined when it names a file beside it."""
    path = resolve_position(name)
    data = scenarios.read_json(path)
    if not isinstance(data, dict):
        raise CommandError(f"{name}: a position is a JSON object, got {type(data).__name__}", BAD_INPUT)
    if isinstance(data.get("map"), str):
        ref = path.parent / data["map"]
        if not ref.is_file():
            raise CommandError(f"{name}: $.map names {data['map']!r}, which does not exist", BAD_INPUT)
        data = dict(data, map=scenarios.read_json(ref))
    return data


def answer(data: dict, monster: str | None = None, rules: str = "gloomhaven") -> dict:
    """The monster-turn answer for a position dict (raises ScenarioError, CommandError)."""
    game_map, _level, figures, acting = load_position(data)
    acting = monster or acting
    if acting is None:
        raise CommandError("name the acting monster: --monster ID, or \"monster\" in the file", BAD_ARGS)
    actor = next((figure for figure in figures if figure.id == acting), None)
    if actor is None:
        raise CommandError(f"--monster: no figure {acting!r} (figures: {', '.join(f.id for f in figures)})", BAD_ARGS)
    attack = None if actor.attack is None else Attack(*actor.attack)
    extras = attack is not None and (bool(attack.pattern) or attack.targets > 1)
    field = field_of_position(game_map, figures, extras)
    mode = "fly" if actor.flying else ("jump" if actor.jump else "walk")
    plan = monster_turn(field, actor.id, actor.move, attack, mode, actor.muddled, rules == "jotl")
    return {"monster": actor.id, "rules": rules, **plan.to_data()}


def field_of_position(game_map, figures: tuple, extras: bool = False) -> Field:
    """Teams and initiative order of a position (GH-2, GH-6, GH-C3, GH-C4, GH-C11).

    Characters and summons are one team, monsters the other. Order: initiative (99 for a long
    rest); a character before a monster on the same initiative; characters tied on initiative
    compare their ``secondary`` card, and still tied (or without one) share a place: the players
    choose between them (GH-C11), so the answer gives every focus the tie allows. A summon goes
    just before its summoner (sharing its summoner's place in a tie); monsters elite first, then by
    number; the file's order never breaks a tie. ``extras``: the acting monster's attack has extra
    targets, which the players' order of tied characters ranks (GH-C8 (3), gloomhaven-6).
    """
    by_id = {figure.id: figure for figure in figures}

    def initiative(figure) -> int:
        return 99 if figure.long_rest else figure.initiative

    def key(figure) -> tuple:
        if figure.side == "monster":
            return (initiative(figure), 1, 0, 0 if figure.rank == "elite" else 1, figure.number)
        if figure.side == "summon":
            owner = by_id[figure.summoner]
            return (initiative(owner), 0, owner.secondary or 0, 0, figure.number)
        return (initiative(figure), 0, figure.secondary or 0, 1, 0)

    places = {rank: position + 1 for position, rank in enumerate(sorted({key(figure) for figure in figures}))}
    bodies = []
    for figure in sorted(figures, key=lambda f: (key(f), f.id)):
        team = "monsters" if figure.side == "monster" else "players"
        shown = initiative(by_id[figure.summoner]) if figure.side == "summon" else initiative(figure)
        bodies.append(Body(figure.id, figure.hex, team, places[key(figure)], shown))
    hexmap = HexMap(game_map.hexes, game_map.thin_walls, game_map.doors)  # every door closed (GH-C1)
    return Field(hexmap, frozenset(game_map.obstacles), frozenset(game_map.traps), frozenset(game_map.hazardous),
                 frozenset(game_map.difficult), tuple(bodies), _choosable(figures, initiative, tuple(bodies), extras))


def _choosable(figures: tuple, initiative: object, bodies: tuple, extras: bool = False) -> tuple:
    """Every acting order the players may choose, when shared places cannot say it (GH-C11, gloomhaven-5).

    Characters on one initiative are ordered by the players, except where both give a ``secondary``
    and they differ (GH-2). Shared places say that exactly unless one of them has a summon (it acts
    just before its own summoner, so it ties with the other character) or only some of them give a
    ``secondary`` (a character without one ties with both of two that do): then every order they
    may choose is listed (``focus.tied_orders``). So it is for an attack with extra targets (``extras``,
    gloomhaven-6): the players' order ranks the tied characters as extra targets (GH-C8 (3)).
    """
    characters = [figure for figure in figures if figure.side == "character"]
    summoner = {figure.id: figure.summoner for figure in figures if figure.side == "summon"}
    blocks, before = [], set()
    for value in sorted({initiative(figure) for figure in characters}):
        block = [figure for figure in characters if initiative(figure) == value]
        if len(block) < 2:
            continue
        summoned = any(owner in {figure.id for figure in block} for owner in summoner.values())
        given = {figure.secondary is None for figure in block}
        if not summoned and len(given) == 1 and not extras:
            continue  # shared places (and the secondaries' order) say it exactly
        blocks.append(tuple(figure.id for figure in block))
        before |= {(a.id, b.id) for a in block for b in block
                   if a.secondary is not None and b.secondary is not None and a.secondary < b.secondary}
    if not blocks:
        return ()
    return tied_orders(bodies, tuple(blocks), summoner, frozenset(before))


def logged_answer(path: str, seq: int | None, monster: str | None) -> dict:
    """The monster-turn answer on the state after event ``seq`` of a gloomhaven log (GH-6, GH-7)."""
    from events.games.gloomhaven.questions import monster_plan, monsters

    state, seq = logged_state(path, seq, "gloomhaven")
    acting = monster or state.acting
    plan, problem = monster_plan(state, acting, logfile.read(path)[0].rules_version)  # the game's own rules
    if problem == "not-a-monster":
        given = f"--monster {acting!r}" if monster else f"at seq {seq} no monster's turn is under way"
        raise CommandError(f"{given}: name a monster or summon of the game with --monster (figures: "
                           f"{', '.join(monsters(state)) or 'none'})", BAD_ARGS)
    if problem == "no-card":
        name = next(item.name for item in state.figures if item.id == acting)
        raise CommandError(f"--monster {acting}: at seq {seq} no ability card of {name} is drawn this "
                           "round (GH-C3): its turn cannot be planned yet", BAD_ARGS)
    rules = state.variant or "gloomhaven"  # the scenario's variant (gloomhaven-4, GH-V1, GH-V2) is the game's
    return {"monster": acting, "rules": rules, **plan.to_data(), "log": path, "seq": seq}


def run_monster_turn(args: argparse.Namespace) -> int:
    if args.log is not None or args.seq is not None:
        if args.log is None:
            raise CommandError("--seq: give the log it counts in with --log LOG", BAD_ARGS)
        if args.position is not None:
            raise CommandError(f"give {args.position} or --log {args.log}, not both: a question is asked on one "
                               "position", BAD_ARGS)
        if args.rules != "gloomhaven":
            raise CommandError("--rules jotl: a logged game is played under the rules its scenario chose (its "
                               "\"variant\"), and so is the answer", BAD_ARGS)
        print(json.dumps(logged_answer(args.log, args.seq, args.monster), ensure_ascii=False))
        return SUCCESS
    if args.position is None:
        raise CommandError("give a POSITION file, or --log LOG [--seq N] for a position of a real game", BAD_ARGS)
    data = read_position(args.position)
    try:
        result = answer(data, args.monster, args.rules)
    except ScenarioError as error:
        raise CommandError(f"{args.position}: {error}", BAD_INPUT) from None
    print(json.dumps(result, ensure_ascii=False))
    return SUCCESS
