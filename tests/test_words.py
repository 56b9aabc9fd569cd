"""One describer per event (issues 13, 17): every event of random games of every game is described,
with a trace, in messages whose keys are in all three catalogues with the parameters they use; and
``chronicle explain`` says, line for line, what the English page log shows for the same events."""

from __future__ import annotations

import json
import re

import pytest

import events.games
from client import i18n
from events.bots import bot, playout
from events.log import Table, command_groups
from events.rng import Rng
from events.words import Join, Msg, messages_in, words_in
from server import i18n as served
from server import logfile, scenarios
from server.cli.main import main

CATALOGUES = {lang: served.messages(lang) for lang in i18n.LANGUAGES}
PARAM = re.compile(r"\{([a-z_]+)\}")
BUILTIN = scenarios.builtin_scenarios()
LIMIT = 150  # commands per game: enough to reach every kind of event of a short scenario


ID = re.compile(r"^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+$")  # bandit-guard-1, br-01, merchant_district, novice-1


def ids_in(value: object) -> set:
    """The ids an event's data holds (lowercase words joined by - or _), anywhere in it."""
    if isinstance(value, str):
        return {value} if ID.match(value) else set()
    if isinstance(value, dict):
        return set().union(*[ids_in(item) for item in value.values()]) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*[ids_in(item) for item in value]) if value else set()
    return set()


def params_of(text: object) -> set:
    forms = text.values() if isinstance(text, dict) else [text]
    return {name for form in forms for name in PARAM.findall(form)}


def played(name: str, policy: str, seed: int) -> Table:
    game_name, scenario = scenarios.load(name)
    game = events.games.load(game_name)
    table = Table.create(game, f"words-{seed}", scenario, seed)
    playout(table, {seat: bot(game, policy) for seat in game.seats(table.state)}, Rng(500 + seed), LIMIT)
    return table


def problems(part: object) -> list:
    """What is wrong with a describer's message: a key some catalogue lacks, parameters that differ."""
    found = []
    for message in messages_in(part):
        for lang, catalogue in CATALOGUES.items():
            if message.key not in catalogue:
                found.append(f"{message.key}: not in {lang}.json")
                continue
            text = catalogue[message.key]
            if params_of(text) != set(message.params):
                found.append(f"{message.key} ({lang}): the text uses {sorted(params_of(text))}, "
                             f"the describer gives {sorted(message.params)}")
            if isinstance(text, dict) and not isinstance(message.params.get("n"), int):
                found.append(f"{message.key}: a plural message counts with an integer n")
    for word in words_in(part):
        key = word.prefix + str(word.code)
        held = [lang for lang, catalogue in CATALOGUES.items() if key in catalogue]
        if held and len(held) != len(CATALOGUES):
            found.append(f"{key}: only in {', '.join(held)}")
    return found


@pytest.mark.parametrize("name", BUILTIN)
def test_every_logged_event_is_described_in_messages_every_catalogue_holds(name):
    """Every event of a random and a greedy game of each built-in scenario: a Msg (not the event's
    type name), a trace of Msgs, each key in en, fr and ru with exactly the parameters given, and
    names, never the ids the event holds (issue 17), in what the English says."""
    wrong: dict = {}
    kinds = set()
    for policy, seed in (("random", 1), ("greedy", 2)):
        table = played(name, policy, seed)
        before = None
        for envelope in table.envelopes:
            game = table.game
            what = game.describe(envelope.event, before)
            trace = game.trace(envelope.event, before)
            kinds.add(envelope.type)
            if not isinstance(what, Msg):
                wrong.setdefault(envelope.type, set()).add(f"described as {what!r}")
            for part in [what] + trace:
                if not messages_in(part) or not (isinstance(part, Msg) or isinstance(part, Join) and all(
                        isinstance(item, Msg) for item in part.items)):  # a line, or lines' pieces run together
                    wrong.setdefault(envelope.type, set()).add(f"a trace line {part!r} is no message")
                wrong.setdefault(envelope.type, set()).update(problems(part))
            said = " | ".join(served.say("en", part) for part in [what] + trace)
            data = envelope.to_dict()["data"]
            data.pop("rules_version", None)  # GameStarted's version is shown as it is: it names the rules
            for found in sorted(ids_in(data)):
                if re.search(rf"(?<![\w-]){re.escape(found)}(?![\w-])", said):
                    wrong.setdefault(envelope.type, set()).add(f"says the id {found!r}, not a name: {said}")
            before = game.evolve(before, envelope.event)
    assert {kind: sorted(found) for kind, found in wrong.items() if found} == {}
    assert len(kinds) > 3  # the games went somewhere


def page_lines(game, envelopes: list) -> dict:
    """seq -> (what, trace) as the English page log words them (client.i18n.event_words over the
    catalogue script the server sends), each event after the page's own fold of the ones before."""
    i18n.install(served.payload("en"))
    table = Table(game, envelopes[0].game)
    out = {}
    for envelope in envelopes:
        before = table.state
        table.absorb(envelope, verify=False)
        out[envelope.seq] = i18n.event_words(table.game, envelope.event, before)
    return out


@pytest.mark.parametrize("name", ["mecha/sample", "arkham/monster-street", "echo/novice-duel", "gloomhaven/barrow",
                                  "skirmish/courtyard"])
def test_explain_says_what_the_english_page_log_shows(name, tmp_path, capsys):
    """One game per rule system: for each command, ``chronicle explain --json`` of its first seq gives
    every event of the command the same description and trace lines as the English page log."""
    path = tmp_path / "g.jsonl"
    assert main(["play", name, "--random", "40", "--seed", "3", "--log", str(path)]) == 0
    capsys.readouterr()
    game, envelopes = logfile.read(path)
    page = page_lines(game, envelopes)
    compared = 0
    for group in command_groups(envelopes)[1:]:
        assert main(["explain", str(path), str(group[0].seq), "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        for event in report["events"]:
            assert (event["what"], event["trace"]) == page[event["seq"]], f"seq {event['seq']} {event['type']}"
            compared += 1 + len(event["trace"])
    assert compared > 20
