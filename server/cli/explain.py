"""Explain a logged event: the command that produced it, each rule clause cited, and why.

For event SEQ this shows the seat and the command (type and data) that produced it, then every
event of that command with the clause it cites (ID, title and text from the rule catalogue), what
it says and the decision trace the rules give for it (the path a Mecha took, each Corruption draw
against the level): both from the game's describer (``events/games/<g>/words.py``) in the English
of ``client/i18n/en.json``, the very lines the page's log shows in English. SEQ 1 (GameStarted) shows what the game started from: scenario title, seats, the
commitment to the game's secret (CORE-1) and rules version. Text by default; --json for one JSON object.

An event an undo took back (CORE-4) is still explained, marked ``~`` (struck through) with the
undo that took it back, who asked and who agreed (``undone`` in the JSON; null if in play).
"""

from __future__ import annotations

import argparse
import json

from events.game import GameStarted
from events.log import LogError, Table, command_groups
from server import i18n, logfile
from server.cli.status import BAD_ARGS, SUCCESS, CommandError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", metavar="LOG", help="a log file (JSON Lines)")
    parser.add_argument("seq", type=int, metavar="SEQ", help="the seq of the event to explain")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of text")


def run(args: argparse.Namespace) -> int:
    game, envelopes = logfile.read(args.log)
    if not 1 <= args.seq <= len(envelopes):
        raise CommandError(f"explain: seq {args.seq}: {args.log} holds seq 1 to {len(envelopes)}", BAD_ARGS)
    group = next(group for group in command_groups(envelopes) if group[0].seq <= args.seq <= group[-1].seq)
    head = group[0]
    if isinstance(head.event, GameStarted):
        report = _started(game, head)
        text = _started_text
    else:
        report = _command(game, group, args.seq, _states_before(game, envelopes, group), _undone(game, envelopes))
        text = _command_text
    print(json.dumps(report, ensure_ascii=False) if args.json else text(report))
    return SUCCESS


def _started(game, envelope) -> dict:
    event = envelope.event
    try:
        title = json.loads(event.scenario).get("title")
    except (ValueError, AttributeError):
        title = None
    return {
        "seq": envelope.seq, "type": event.TYPE, "game_id": envelope.game, "game": event.game, "title": title,
        "seats": list(event.seats), "commitment": event.commitment, "rules_version": event.rules_version,
        "todays_rules_version": game.rules_version, "at": envelope.at,
    }


def _started_text(report: dict) -> str:
    rules = report["rules_version"]
    if rules != report["todays_rules_version"]:
        rules += f" (today's rules are {report['todays_rules_version']})"
    return "\n".join([
        f"seq {report['seq']} GameStarted: game {report['game_id']!r} of {report['game']}",
        f"  scenario: {report['title']}",
        f"  seats:    {', '.join(report['seats'])}",
        f"  dice:     committed to {report['commitment']} (CORE-1)",
        f"  rules:    {rules}",
    ])


def _undone(game, envelopes: list) -> dict:
    """seq -> the undo that took it back (CORE-4), from the log folded; {} if it does not fold (audit says why)."""
    try:
        undos = Table.restore(game, envelopes[0].game, envelopes, verify=False).undos
    except LogError:
        return {}
    return {seq: {"request": request.seq, "asked_by": request.seat, "agreed": list(request.agreed)}
            for seq, request in undos.undone.items()}


def _states_before(game, envelopes: list, group: list) -> list:
    """The state before each event of ``group``: the log folded up to it (what the describer reads)."""
    table = Table(game, group[0].game)
    before = []
    for envelope in envelopes[: group[-1].seq]:
        if envelope.seq >= group[0].seq:
            before.append(table.state)
        table.absorb(envelope, verify=False)
    return before


def _command(game, group: list, asked: int, before: list, undone: dict) -> dict:
    head = group[0]
    command = head.to_dict()["command"]
    return {
        "seq": asked, "game_id": head.game, "seat": head.seat, "command_id": head.command_id, "command": command,
        "dice": list(head.dice) if head.dice is not None else None,
        "events": [dict(_event(game, envelope, state), undone=undone.get(envelope.seq))
                   for envelope, state in zip(group, before)],
    }


def _event(game, envelope, before) -> dict:
    clause = None
    if envelope.rule is not None and envelope.rule in game.catalogue:
        found = game.catalogue[envelope.rule]
        clause = {"id": found.id, "title": found.title, "text": found.text}
    return {
        "seq": envelope.seq, "type": envelope.type, "data": envelope.to_dict()["data"], "rule": envelope.rule,
        "clause": clause, "what": i18n.say("en", game.describe(envelope.event, before)),
        "trace": [i18n.say("en", line) for line in game.trace(envelope.event, before)],
    }


def _command_text(report: dict) -> str:
    events = report["events"]
    command = report["command"]
    if command is None:
        lines = [f"seq {report['seq']} was not produced by a command"]
    else:
        lines = [
            f"seq {report['seq']} came from {report['seat']}'s command {command['type']} {_compact(command['data'])}"
            f" (id {report['command_id']}), which produced seq {events[0]['seq']} to {events[-1]['seq']}:"
        ]
    if report["dice"] is not None:
        lines.append(f"  loaded dice used: {', '.join(str(value) for value in report['dice']) or 'none'}")
    for event in events:
        mark = ">" if event["seq"] == report["seq"] else "~" if event["undone"] else " "
        lines.append(f"{mark} seq {event['seq']} {event['type']} {_compact(event['data'])}")
        lines.append(f"      what: {event['what']}")
        undone = event["undone"]
        if undone is not None:
            agreed = f", agreed by {', '.join(undone['agreed'])}" if undone["agreed"] else ""
            lines.append(f"      undone (struck through): taken back by the undo asked at seq {undone['request']} "
                         f"by {undone['asked_by']}{agreed} (CORE-4)")
        clause = event["clause"]
        if clause is not None:
            lines.append(f"      {clause['id']} {clause['title']}: {clause['text']}")
        elif event["rule"] is not None:
            lines.append(f"      {event['rule']}: not in today's rule catalogue")
        else:
            lines.append("      no rule cited")
        lines += [f"      why: {line}" for line in event["trace"]]
    return "\n".join(lines)


def _compact(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(", ", ": "))
