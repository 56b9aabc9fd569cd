"""Play a game headless and print one JSON line per command.

Start from a scenario (a file, or a built-in name such as mecha/sample) or continue the game a
log holds (--continue LOG, e.g. a branch made by `chronicle fork`). Commands come from a file
(--commands, played first) and/or are chosen at random among the legal ones (--random N, stopping
early when the game is over or nobody can act). Each command prints

  {"seq": 4, "ok": true, "events": [{"type": ..., "data": ..., "rule": ...}, ...]}
  {"seq": null, "ok": false, "rule": "MV-1", "reason": "..."}

Rejected commands are reported and change nothing; the exit status is still 0. With no
commands at all, a new game is only started (a note on stderr says so, and where it was logged);
--continue with nothing to play is refused (exit status 2). A commands file
has one JSON object per line: {"seat": "red", "type": "Move", "data": {"to": 3}} with an optional
"id" (the command id; a repeated id is answered with its earlier events, marked "repeated").

The game's secret (CORE-1) is drawn from ``secrets``, as the server does, unless --seed S makes
it from S (``events.dice.local_secret``): such a game is foreseeable by whoever knows S, which is
what a seed is for (the same seed plays the same game). Either way it ends with SecretRevealed
(CORE-2), and `chronicle audit` checks it like a server's. A drawn secret lives only as long as
the command: to continue an unfinished game later, start it with --seed. --continue takes the
secret from the log's SecretRevealed if it has one, else from --seed (which must open the log's
commitment); without either, a command that draws needs --dice.

--dice 1,2 loads the dice: the values are consumed in order across commands (a draw takes the
token whose value comes next), then the game's own generator takes over. The log records the
values each command used, so `chronicle audit` still reproduces the game.

A what-if branch:  chronicle fork g.jsonl --at 9 --out b.jsonl
                   chronicle play --continue b.jsonl --commands other.jsonl --log b.jsonl
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from datetime import UTC, datetime

import events.games
from events.bots import random_step
from events.dice import SecretNeeded, local_secret
from events.log import LogError, Table
from events.record import DecodeError
from events.rng import LoadedDiceMismatch, LoadedRng, Rng
from events.rules import Rejection
from events.validate import ScenarioError
from server import logfile, scenarios
from server.cli.status import BAD_ARGS, BAD_INPUT, SUCCESS, CommandError

DEFAULT_GAME_ID = "local"
SECRET_BYTES = 32  # as server/api.py: 256 bits from ``secrets`` (CORE-1)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "scenario", nargs="?", metavar="SCENARIO", help="a scenario file, or a built-in scenario such as mecha/sample"
    )
    source.add_argument(
        "--continue",
        dest="continue_log",
        metavar="LOG",
        help="continue the game this log holds instead of starting one",
    )
    parser.add_argument("--commands", metavar="FILE", help="JSON Lines of commands to play, in order")
    parser.add_argument(
        "--random",
        type=_count,
        default=0,
        metavar="N",
        help="then play up to N commands chosen at random among the legal ones",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar="S",
        help="make the game's secret from S (default: drawn at random); also seeds --random's choices (default 0)",
    )
    parser.add_argument(
        "--dice",
        type=_dice,
        default=(),
        metavar="V,V,...",
        help="loaded dice: values that throws and draws take, in order, across commands",
    )
    parser.add_argument("--log", metavar="OUT", help="write the whole log here (JSON Lines)")
    parser.add_argument("--game-id", metavar="ID", help=f"the new game's id (default {DEFAULT_GAME_ID!r})")


def run(args: argparse.Namespace) -> int:
    if args.continue_log is not None and not args.commands and not args.random:
        raise CommandError(
            f"play: --continue {args.continue_log}: nothing to play (give --commands FILE and/or --random N)",
            BAD_ARGS,
        )
    table = _open(args)
    game = table.game
    commands = _read_commands(args.commands, game) if args.commands else []
    if args.continue_log is not None and not commands and not args.random:
        raise CommandError(f"play: --continue {args.continue_log}: {args.commands} holds no command", BAD_ARGS)
    dice = list(args.dice)
    for where, seat, command, command_id in commands:
        _print(_submit(table, seat, command, command_id, dice, where))
    chooser = Rng(args.seed or 0)  # its own stream: the game's draws stay command_rng(secret, seq)
    for number in range(1, args.random + 1):
        if game.is_over(table.state):
            break
        step = random_step(game, table.state, chooser)
        if step is None:
            break
        seat, command = step
        _print(_submit(table, seat, command, None, dice, f"random command {number}"))
    if dice:
        unused = ", ".join(str(value) for value in dice)
        print(f"chronicle: note: {len(dice)} loaded dice value(s) were not used: {unused}", file=sys.stderr)
    if args.log:
        logfile.write(args.log, table.envelopes)
    if not commands and not args.random:  # a new game, started and nothing else: say so
        where = f"written to {args.log}" if args.log else "not written (give --log OUT to keep it)"
        count = f"{table.seq} event" + ("" if table.seq == 1 else "s")
        print(f"chronicle: note: no commands given: the game was started ({count}) and {where}", file=sys.stderr)
    return SUCCESS


def _open(args: argparse.Namespace) -> Table:
    """A new game from the scenario, or the game a log holds (its hashes verified)."""
    if args.continue_log is not None:
        if args.game_id is not None:
            raise CommandError("play: --game-id cannot be used with --continue: the log names its game", BAD_ARGS)
        game, envelopes = logfile.read(args.continue_log)
        table = logfile.restore(game, envelopes, args.continue_log)
        if table.secret is None and args.seed is not None:
            try:
                table.adopt(local_secret(args.seed))
            except LogError:
                raise CommandError(f"play: --seed {args.seed} is not the seed of {args.continue_log}: it does not "
                                   "open the commitment of its GameStarted (CORE-1)", BAD_ARGS) from None
        return table
    if args.game_id is not None and not args.game_id.strip():
        raise CommandError("play: --game-id must not be empty", BAD_ARGS)
    try:
        name, scenario = scenarios.load(args.scenario)
    except UnicodeDecodeError as error:  # read_json lets read_text's decoding error through
        raise CommandError(f"{args.scenario}: not UTF-8 text: {error.reason} at byte {error.start}") from None
    game = events.games.load(name)
    try:
        secret = secrets.token_hex(SECRET_BYTES) if args.seed is None else args.seed
        return Table.create(game, args.game_id or DEFAULT_GAME_ID, scenario, secret, at=_now())
    except ScenarioError as error:
        raise CommandError(f"{args.scenario}: {error}", BAD_INPUT) from None


def _submit(table: Table, seat: str, command, command_id: str | None, dice: list, where: str) -> dict:
    """Hand one command to the table; consume the loaded values it used (only if it was accepted)."""
    rng = None
    if dice:
        # Table.submit records rng.values[:rng.used], so each command gets a generator of its own
        # over what is left, falling back to the very generator audit will rebuild for it.
        rng = LoadedRng(tuple(dice), fallback=table.rng())
    if command_id is None:
        command_id = _fresh_id(table)
    before = table.seq
    try:
        result = table.submit(seat, command, command_id, at=_now(), rng=rng)
    except LoadedDiceMismatch as error:
        raise CommandError(f"--dice: {where} ({seat} {command.TYPE}): {error}", BAD_ARGS) from None
    except SecretNeeded:
        raise CommandError(f"play: {where} ({seat} {command.TYPE}) draws, and this log's secret is not known here: "
                           "give the --seed the local game was started with, or --dice values", BAD_ARGS) from None
    if isinstance(result, Rejection):
        return {"seq": None, "ok": False, "rule": result.rule, "reason": result.reason}
    envelopes = result.envelopes
    fresh = envelopes[0].seq > before
    if fresh and rng is not None:
        del dice[: rng.used]
    line = {"seq": envelopes[0].seq, "ok": True, "events": [_event(envelope) for envelope in envelopes]}
    if not fresh:
        line["repeated"] = True
    if result.revealed is not None:  # the game is over: its secret is public (CORE-2)
        line["secret_revealed"] = result.revealed.event.secret
    return line


def _event(envelope) -> dict:
    data = envelope.to_dict()
    return {"type": data["type"], "data": data["data"], "rule": data["rule"]}


def _fresh_id(table: Table) -> str:
    """``cli-<first seq>``: unique in this log, and readable next to the seq it started at."""
    command_id = f"cli-{table.seq + 1}"
    suffix = 1
    while command_id in table.by_command:  # a continued log may hold ids made elsewhere
        suffix += 1
        command_id = f"cli-{table.seq + 1}-{suffix}"
    return command_id


def _read_commands(path: str, game) -> list[tuple]:
    """Every line checked before anything is played: (where, seat, command, id) each."""
    try:
        with open(path, encoding="utf-8") as stream:
            text = stream.read()
    except OSError as error:
        raise CommandError(f"{path}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path}: not UTF-8 text") from None
    commands = []
    for _number, where, raw in logfile.json_lines(text.split("\n"), path, CommandError):
        commands.append((where, *_command(raw, game, where)))
    return commands


def _command(raw: object, game, where: str) -> tuple:
    """(seat, command record, id or None) from one line of a commands file."""
    if not isinstance(raw, dict):
        raise CommandError(
            f"{where}: expected an object such as "
            '{"seat": "red", "type": "Move", "data": {"to": 3}}, got ' + type(raw).__name__
        )
    unknown = sorted(set(raw) - {"seat", "type", "data", "id"})
    if unknown:
        raise CommandError(f"{where}: $.{unknown[0]}: unknown key (expected seat, type, data and optionally id)")
    for key in ("seat", "type"):
        if not isinstance(raw.get(key), str) or not raw[key]:
            raise CommandError(f"{where}: $.{key}: expected a non-empty string, got {raw.get(key)!r}")
    if raw["type"] not in game.commands:
        known = ", ".join(game.commands.names())
        raise CommandError(f"{where}: $.type: unknown {game.name} command {raw['type']!r} (known: {known})")
    data = raw.get("data", {})
    if not isinstance(data, dict):
        raise CommandError(f"{where}: $.data: expected an object, got {data!r}")
    if "type" in data:
        raise CommandError(f"{where}: $.data.type: the command's type goes beside data, not inside it")
    command_id = raw.get("id")
    if command_id is not None and (not isinstance(command_id, str) or not command_id):
        raise CommandError(f"{where}: $.id: expected a non-empty string, got {command_id!r}")
    try:
        command = game.commands.build(dict(data, type=raw["type"]), "$.data")
    except DecodeError as error:
        raise CommandError(f"{where}: {error}") from None
    return raw["seat"], command, command_id


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {value}")
    return value


def _dice(text: str) -> tuple:
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected integers separated by commas, such as 5,2,6, got {text!r}"
        ) from None


def _now() -> str:
    """Informative only: no reducer reads ``at``."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _print(line: dict) -> None:
    print(json.dumps(line, ensure_ascii=False), flush=True)
