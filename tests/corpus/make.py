"""Write the corpus of recorded games: ``python -m tests.corpus.make`` (rewrites tests/corpus/).

Every built-in scenario is played to its end by random and by greedy bots with a few seeds, and
a few harsher variants of them (one-point investigators) are played too, so that the corpus ends
in every way each game can end. Each game is one JSON Lines log under
``tests/corpus/<game>/<rules version>/``; ``manifest.json`` lists every file with what
``test_corpus`` checks against: its rules version, its number of events, the hash of its final
state and how it ended.

Only the folders of each game's newest rules version are written again (their ``browser-*`` games
excepted; ``--only GAME ...`` plays and rewrites those games' alone, e.g. after a new rules version of one
game); the folders of older versions are kept as they are: they prove that games played under a released version still
replay and audit under it.

``python -m tests.corpus.make --crafted [FILE ...]`` writes the games a bot playout of the newest rules cannot
give (``CRAFTED``; only those named, if any): one whose seats agreed to move it to a newer rules version (``agreed``,
CORE-10/CORE-11), the one arkham ending only arkham-2 reaches (``devoured``), and a gloomhaven-5 game
whose archer's focus is a summon's tie with a character (``summon_tie``, GH-C11), and a gloomhaven-6 game whose
brute's extra target is the tied seats' choice (``order_tie``, GH-C8 (3), GH-C11), and an arkham-5 game where a
waiting investigator offers a trade (``waiting_trade``, AH-C10), and a mecha-2 undo across a draw kept under each dice
key: CORE-7's (``undo_core_7``, made by the code before CORE-12) and CORE-12's (``undo_core_12``). Each is filed under
the version it started with, and kept when ``make`` plays that version's bots' games again.

Games played by the browser tests: run them with ``CHRONICLE_CORPUS_SAVE=1`` (e.g.
``CHRONICLE_CORPUS_SAVE=1 pytest tests/browser/test_bots.py``) and each test that plays a game to
its end saves its log through ``save_browser_game``: anonymised (``anonymised``), audited, filed
as ``<game>/<version>/browser-<label>.jsonl`` and entered in the manifest. Without the variable
nothing is written.

Clauses that only ever refuse (a range, a face-down Location, a figure that is not there) are never
cited by a logged event: ``<game>/<version>/refusals.jsonl`` beside the games holds one line per such
clause, ``{"game": <corpus file>, "at": <seq>, "seat": ..., "command": {...}, "rule": <clause>}``, which
``test_corpus`` replays (the game folded to ``at``, the command decided under its recorded version,
refused citing ``rule`` with a catalogued message key); ``unexercised`` counts such a clause only while
its line still refuses so. ``python -m tests.corpus.make --refusals [GAME ...] [--positions N]`` finds them:
at each of the first N commands of the newest version's corpus games, it decides the commands near the
legal ones (``_variants``: a field out of range, swapped with another legal command's, a list shortened or
lengthened) and adds the first refused citing each still-unexercised clause to that game's file.

A clause no event cites and no command is refused by is exercised too by a corpus game that plays its
worked example (``WORKED``: MV-9, AH-4) or logs the record it asks for (``RECORDED``: MV-C4, MV-C2).
``EXEMPT`` names the clauses no corpus game can exercise, each with its reason; ``unexercised.json``
lists every other clause the corpus does not exercise (none, today).

To add a game by hand (a browser game's log from ``/api/games/{id}/log``, a log from a dispute),
run ``python -m tests.corpus.make --add FILE``: it is replayed, audited (a finished game's secret
is in its log) and copied under its game and rules version, and entered in the manifest.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import re
import sys
from pathlib import Path

import events.games
from events.bots import bot, playout
from events.log import Envelope, Table, audit
from events.rng import Rng
from events.rules import Rejection
from events.upgrade import AnswerRulesVersion, ProposeRulesVersion
from server import logfile, scenarios

HERE = Path(__file__).parent
MANIFEST = HERE / "manifest.json"
UNEXERCISED = HERE / "unexercised.json"
REFUSALS = "refusals.jsonl"  # beside the games of a version: commands refused citing a clause no event cites
SEEDS = (1, 2, 3, 4, 5)
POLICIES = ("random", "greedy")
LIMIT = 5000  # commands per game at most; every built-in scenario ends well before


def _frail_investigators(scenario: dict) -> dict:
    """Arkham: every investigator at 1 Stamina and 1 Sanity among the monsters (AH-C4 endings)."""
    harsh = copy.deepcopy(scenario)
    for investigator in harsh["investigators"]:
        investigator["stamina"] = 1
        investigator["sanity"] = 1
    return harsh


def _frail_echo(scenario: dict) -> dict:
    """Echo: investigators at 1 Sanity and 1 Health against enemies that always wound, so that
    fights can end them all (EC-18, EC-C3)."""
    harsh = copy.deepcopy(scenario)
    for investigator in harsh["cards"]["investigators"]:
        investigator["sanity"] = 1
        investigator["health"] = 1
        investigator["stealth"] = 0
    for enemy in harsh["cards"]["enemies"]:
        enemy["fixed"] = {"sanity": 2, "health": 2}
        enemy["evasion"] = 5
    return harsh


def _cut_off_location(scenario: dict) -> dict:
    """Mecha: the sample board with a Location no link reaches, Location 21 far from every other hex, so
    that a Move there is refused as no route on this board (MV-C1: adjacency is the board's data)."""
    cut_off = copy.deepcopy(scenario)
    cut_off["board"]["locations"].append({"number": 21, "name": "Cut-off Outpost", "hex": [8, 8], "level": 0,
                                          "face_up": True})
    return cut_off


def _tied_initiative(scenario: dict) -> dict:
    """Gloomhaven: every character card at initiative 50, so the characters tie on both cards every round
    (GH-2: their seats choose the order) and share one rank when a monster's focus ties on initiative
    (GH-C11: their seats choose the focus)."""
    tied = copy.deepcopy(scenario)
    for character in tied["cards"]["classes"]:
        for card in character["cards"]:
            card["initiative"] = 50
    return tied


VARIANTS = {  # label -> (built-in scenario, what to change)
    "gloomhaven/tied-initiative": ("gloomhaven/barrow", _tied_initiative),
    "mecha/cut-off": ("mecha/sample", _cut_off_location),
    "arkham/frail-street": ("arkham/monster-street", _frail_investigators),
    "arkham/frail-crossing": ("arkham/crossing", _frail_investigators),
    "echo/frail-brawl": ("echo/bunba-brawl", _frail_echo),
    "echo/frail-duel": ("echo/novice-duel", _frail_echo),
}


def end_of(envelopes: list) -> str:
    """How a game ended, as a class of its GameEnded (numbers and side names taken out)."""
    ended = [envelope.event for envelope in envelopes if envelope.type == "GameEnded"]
    if not ended:
        return "not over"
    data = ended[-1].to_data()
    text = str(data.get("reason") or data.get("outcome") or "the last round is over")
    text = re.sub(r"\d+", "N", text)
    return re.sub(r"^\w+ has no figure left", "a side has no figure left", text)


def play(label: str, scenario: dict, game_name: str, policy: str, seed: int) -> Table:
    game = events.games.load(game_name)
    game_id = f"corpus-{label.replace('/', '-')}-{policy}-{seed}"
    table = Table.create(game, game_id, scenario, seed)
    playout(table, {seat: bot(game, policy) for seat in game.seats(table.state)}, Rng(1000 + seed), LIMIT)
    return table


def entry(path: Path, game, envelopes: list) -> dict:
    return {
        "game": game.name,
        "rules_version": envelopes[0].event.rules_version,
        "events": len(envelopes),
        "final_hash": envelopes[-1].hash,
        "end": end_of(envelopes),
    }


def make(games: tuple = ()) -> dict:
    """Every built-in scenario and ``VARIANTS`` played by each policy and seed (of ``games`` only, if named)."""
    manifest: dict = {}
    sources = [(name, name, None) for name in scenarios.builtin_scenarios()]
    sources += [(label, base, change) for label, (base, change) in VARIANTS.items()]
    for label, base, change in sources:
        if games and label.split("/")[0] not in games:
            continue
        game_name, scenario = scenarios.load(base)
        if change is not None:
            scenario = change(scenario)
        for policy in POLICIES:
            for seed in SEEDS if change is None else SEEDS[:2]:
                table = play(label, scenario, game_name, policy, seed)
                if not table.game.is_over(table.state):
                    raise SystemExit(f"{label} {policy} seed {seed}: not over after {LIMIT} commands")
                if audit(table.game, table.envelopes) is not None:
                    raise SystemExit(f"{label} {policy} seed {seed}: does not audit")
                folder = HERE / game_name / table.game.rules_version
                folder.mkdir(parents=True, exist_ok=True)
                path = folder / f"{label.split('/')[1]}-{policy}-{seed}.jsonl"
                logfile.write(path, table.envelopes)
                manifest[path.relative_to(HERE).as_posix()] = entry(path, table.game, table.envelopes)
    return manifest


AGREED = "echo/echo-1/novice-duel-agreed-greedy-1.jsonl"


def agreed() -> Table:
    """An echo-1 novice-duel moved to echo-2 by its seats (CORE-10, CORE-11) after 12 greedy commands,
    then played to its end under echo-2. Its first fight ends at seq 15, where echo-2 parts from it
    (EC-15): ``chronicle upgrade`` would leave it where it is, so only its seats could move it."""
    echo_1 = events.games.load("echo", "echo-1")
    table = Table.create(echo_1, "corpus-echo-novice-duel-agreed-greedy-1", scenarios.load("echo/novice-duel")[1], 1)
    bots = {seat: bot(echo_1, "greedy") for seat in echo_1.seats(table.state)}
    chooser = Rng(1001)
    playout(table, bots, chooser, 12)
    first, *others = echo_1.seats(table.state)
    proposal = table.submit(first, ProposeRulesVersion("echo-2"), f"bot-{table.seq + 1}").envelopes[0].seq
    for seat in others:
        table.submit(seat, AnswerRulesVersion(proposal, True), f"bot-{table.seq + 1}")
    if table.game.rules_version != "echo-2":
        raise SystemExit(f"{AGREED}: the seats' yes did not move the game")
    playout(table, bots, chooser, LIMIT)  # under echo-2 now: playout plays the Table's version
    return table


DEVOURED = "arkham/arkham-2/lone-frail-street-random-5.jsonl"


def devoured() -> Table:
    """AH-C4 "every investigator is devoured": one investigator of monster-street at 1 Stamina and 1
    Sanity, played at random under arkham-2, where a failed Evade takes its Stamina to 0 and the
    Horror check that still follows (AH-C2) its Sanity: both at 0 at once. arkham-3 knocks it out at
    the failed Evade, so no arkham-3 game can end this way."""
    arkham_2 = events.games.load("arkham", "arkham-2")
    scenario = _frail_investigators(scenarios.load("arkham/monster-street")[1])
    scenario["investigators"] = scenario["investigators"][:1]
    table = Table.create(arkham_2, "corpus-arkham-lone-frail-street-random-5", scenario, 5)
    playout(table, {seat: bot(arkham_2, "random") for seat in arkham_2.seats(table.state)}, Rng(1005), LIMIT)
    return table


SUMMON_TIE = "gloomhaven/gloomhaven-5/summon-tie-crafted-1.jsonl"


def summon_tie() -> Table:
    """GH-C11 (gloomhaven-5): red and blue tie on both cards in round 2 and red's Bot, summoned in round 1, is as
    cheap and as near as blue for an archer that does not move: the plan offers the Bot or blue, cites GH-C11
    and waits for red or blue (gloomhaven-4 focused the Bot). The seats pick blue; greedy bots play it out. Bots
    alone never build this position (tests/games/gloomhaven/test_hard_cases.py plays the same opening)."""
    from events.games.gloomhaven.model import ChooseOption, ChooseOrder, PlayCard, SelectCards, ShortRest
    from tests.games.gloomhaven.helpers import mcard, monster_type, open_map, scenario
    from tests.games.gloomhaven.test_rules import OTHER, TESTER

    game = events.games.load("gloomhaven", "gloomhaven-5")  # the version it was crafted under, kept so
    shooter = monster_type("Shooter", [mcard("s-5", 5, {"move": 0}, {"attack": 0})], hp=30, attack=1, range=3,
                           elite_hp=30)
    table = Table.create(game, "corpus-gloomhaven-summon-tie-crafted-1", scenario(
        open_map(), [("red", "Tester", (0, 2)), ("blue", "Other", (6, -1))], [("Shooter", "normal", 1, (3, 1))],
        classes=[TESTER, OTHER], types=[shooter]), 1)
    opening = (("red", SelectCards(("t-50", "t-40"), "t-40")), ("blue", SelectCards(("o-30", "o-35"), "o-30")),
               ("blue", PlayCard("o-30", "top", skip=True)), ("blue", PlayCard("o-35", "bottom", skip=True)),
               ("red", PlayCard("t-50", "top", path=((0, 1),))), ("red", PlayCard("t-40", "bottom", skip=True)),
               ("blue", ShortRest(False)), ("red", SelectCards(("t-10", "t-20"), "t-10")),
               ("blue", SelectCards(("o-10", "o-20"), "o-10")), ("blue", ChooseOrder(("blue", "red"))))
    for seat, command in opening:
        outcome = table.submit(seat, command, f"bot-{table.seq + 1}")
        if isinstance(outcome, Rejection):
            raise SystemExit(f"{SUMMON_TIE}: {seat} {command!r} refused: {outcome.reason}")
    pending = table.state.pending
    if pending is None or pending.kind != "monster" or {o.focus for o in pending.options} != {"blue", "red-s1"}:
        raise SystemExit(f"{SUMMON_TIE}: the archer's focus is not the players' choice of the Bot or blue")
    table.submit("blue", ChooseOption(next(i for i, o in enumerate(pending.options) if o.focus == "blue")),
                 f"bot-{table.seq + 1}")
    playout(table, {seat: bot(game, "greedy") for seat in game.seats(table.state)}, Rng(1001), LIMIT)
    return table


ORDER_TIE = "gloomhaven/gloomhaven-6/order-tie-crafted-1.jsonl"


def order_tie() -> Table:
    """GH-C8 (3), GH-C11 (gloomhaven-6): red and blue tie on both cards (10, 20); a brute (melee, 2 targets) has
    green adjacent as its focus, and can add red from one hex or blue from its mirror image: only the players'
    order of red and blue tells the two apart, so the plan cites GH-C11 and waits for red or blue alone
    (gloomhaven-5 asked every player). red picks the hex with red; greedy bots play it out
    (tests/games/gloomhaven/test_hard_cases.py plays the same opening)."""
    from events.games.gloomhaven.model import ChooseOption, ChooseOrder, SelectCards
    from tests.games.gloomhaven.helpers import card, hero_class, mcard, monster_type, scenario
    from tests.games.gloomhaven.test_rules import OTHER, TESTER

    game = events.games.load("gloomhaven", "gloomhaven-6")
    third = hero_class("Third", 8, [card("h-30", 30, {"attack": 1}, {"move": 1}),
                                    card("h-40", 40, {"attack": 1}, {"move": 1}),
                                    card("h-50", 50, {"attack": 1}, {"move": 1})])
    brute = monster_type("Brute", [mcard("b-5", 5, {"move": 1}, {"attack": 0, "targets": 2})], hp=30, attack=1,
                         elite_hp=30)
    room = {"name": "room", "hexes": [[q, r] for q in range(-3, 10) for r in range(-6, 5)]}
    table = Table.create(game, "corpus-gloomhaven-order-tie-crafted-1", scenario(
        room, [("red", "Tester", (1, -2)), ("blue", "Other", (-1, 2)), ("green", "Third", (1, 0))],
        [("Brute", "normal", 1, (0, 0))], classes=[TESTER, OTHER, third], types=[brute]), 1)
    opening = (("red", SelectCards(("t-10", "t-20"), "t-10")), ("blue", SelectCards(("o-10", "o-20"), "o-10")),
               ("green", SelectCards(("h-30", "h-40"), "h-30")), ("blue", ChooseOrder(("blue", "red"))))
    for seat, command in opening:
        outcome = table.submit(seat, command, f"bot-{table.seq + 1}")
        if isinstance(outcome, Rejection):
            raise SystemExit(f"{ORDER_TIE}: {seat} {command!r} refused: {outcome.reason}")
    pending = table.state.pending
    if pending is None or pending.kind != "monster" or sorted(pending.seats) != ["blue", "red"]:
        raise SystemExit(f"{ORDER_TIE}: the brute's options are not red's and blue's choice")
    table.submit("red", ChooseOption(next(i for i, o in enumerate(pending.options) if "red" in o.attacks)),
                 f"bot-{table.seq + 1}")
    playout(table, {seat: bot(game, "greedy") for seat in game.seats(table.state)}, Rng(1001), LIMIT)
    return table


WAITING_TRADE = "arkham/arkham-5/waiting-trade-crafted-1.jsonl"


def waiting_trade() -> Table:
    """AH-C10 (arkham-5): on crossing, both investigators in the Graveyard; while red moves, blue (waiting) offers red
    its Old Journal, red accepts; greedy bots then play it out. Bots offer trades only on their own turn, so no bot
    playout logs a waiting investigator's offer."""
    from events.games.arkham.model import AnswerTrade, OfferTrade

    game = events.games.load("arkham", "arkham-5")
    scenario = copy.deepcopy(scenarios.load("arkham/crossing")[1])
    for investigator in scenario["investigators"]:
        investigator["at"] = scenario["investigators"][0]["at"]
    table = Table.create(game, "corpus-arkham-waiting-trade-crafted-1", scenario, 1)
    mover, waiting = (item["seat"] for item in scenario["investigators"])
    for seat, command in ((waiting, OfferTrade(mover, ("Old Journal",), ())), (mover, AnswerTrade(True))):
        outcome = table.submit(seat, command, f"bot-{table.seq + 1}")
        if isinstance(outcome, Rejection):
            raise SystemExit(f"{WAITING_TRADE}: {seat} {command!r} refused: {outcome.reason}")
    if game.turn(table.state) != (mover,):
        raise SystemExit(f"{WAITING_TRADE}: the trade did not leave {mover} moving")
    playout(table, {seat: bot(game, "greedy") for seat in game.seats(table.state)}, Rng(1001), LIMIT)
    return table


UNDO_CORE_7 = "mecha/mecha-2/undo-core-7-crafted-1.jsonl"


def _undo_opening(table: Table) -> None:
    """red's Move 7 draws (a face-down Location, MV-6c); red asks to take it back, blue says yes (CORE-5:
    a draw needs every seat), and red moves to Location 8, which draws too."""
    from events.undo import AnswerUndo, AskUndo

    Move = table.game.commands.by_type["Move"]
    for seat, command in (("red", Move(7)), ("red", AskUndo(2)), ("blue", None), ("red", Move(8))):
        if command is None:  # the answer to the request just asked
            command = AnswerUndo(table.undos.open.seq, True)
        outcome = table.submit(seat, command, f"bot-{table.seq + 1}")
        if isinstance(outcome, Rejection):
            raise SystemExit(f"{seat} {command!r} refused: {outcome.reason}")


def undo_core_7() -> Table:
    """CORE-7 (a log whose GameStarted names no dice key, as every game made before CORE-12): red's drawing
    Move 7 taken back with blue's yes, then Move 8 at the same position of the effective history, whose dice
    are those Move 7 had (the steering CORE-12 ends). Made by the code before CORE-12 and kept as it was:
    the old keying must go on replaying and auditing exactly. Greedy bots play it out."""
    game = events.games.load("mecha", "mecha-2")
    table = Table.create(game, "corpus-mecha-undo-core-7-crafted-1", scenarios.load("mecha/sample")[1], 1,
                         dice_key=None)  # no dice key: CORE-7's, as it was made
    _undo_opening(table)
    playout(table, {seat: bot(game, "greedy") for seat in game.seats(table.state)}, Rng(1001), LIMIT)
    return table


UNDO_CORE_12 = "mecha/mecha-2/undo-core-12-crafted-1.jsonl"


def undo_core_12() -> Table:
    """CORE-12 (GameStarted names dice_key CORE-12, as every game made since): the same opening as
    ``undo_core_7``, where blue's yes answers a request that says the draw is drawn anew (UndoAsked.redraw),
    and Move 8 draws with the key of its own seq in the whole log, never one whose outcome was shown. Greedy
    bots play it out; it audits with every die re-derived from the revealed secret."""
    game = events.games.load("mecha", "mecha-2")
    table = Table.create(game, "corpus-mecha-undo-core-12-crafted-1", scenarios.load("mecha/sample")[1], 1)
    _undo_opening(table)
    playout(table, {seat: bot(game, "greedy") for seat in game.seats(table.state)}, Rng(1001), LIMIT)
    return table


CRAFTED = {AGREED: agreed, DEVOURED: devoured, SUMMON_TIE: summon_tie, ORDER_TIE: order_tie,
           WAITING_TRADE: waiting_trade, UNDO_CORE_7: undo_core_7,
           UNDO_CORE_12: undo_core_12}


SAVE = "CHRONICLE_CORPUS_SAVE"  # set to 1: the browser tests save the games they finish (save_browser_game)


def anonymised(envelopes: list) -> list:
    """A log with nothing that tells who played or when: every ``at`` null, and each person's command
    id (the browser's carry the time: ``c-<ms since 1970>-…``) renamed ``c-<its first seq>``; bots' ids
    (``bot-<seq>``) stay. The game id is random and bound by the commitment (CORE-1), so it stays; the
    seats are the scenario's (``red``, ``blue``); hashes do not change (neither field is folded)."""
    renamed: dict = {}
    out = []
    for envelope in envelopes:
        command_id = envelope.command_id
        if command_id is not None and not command_id.startswith("bot-"):
            command_id = renamed.setdefault(command_id, f"c-{envelope.seq}")
        out.append(Envelope(envelope.game, envelope.seq, envelope.event, envelope.seat, command_id, envelope.command,
                            envelope.dice, envelope.rule, envelope.hash, None))
    return out


def save_browser_game(lines: list, label: str) -> Path | None:
    """With ``CHRONICLE_CORPUS_SAVE=1``: the finished game whose log a browser test read from
    ``GET /api/games/{id}/log`` (``lines``, JSON text) enters the corpus as ``browser-<label>``;
    else nothing (None). Refused (SystemExit) unless it is over and audits clean."""
    if os.environ.get(SAVE) != "1":
        return None
    game, envelopes = logfile.parse(lines, f"browser-{label}")
    envelopes = anonymised(envelopes)
    table = logfile.restore(game, envelopes, f"browser-{label}")
    if not table.game.is_over(table.state) or audit(game, envelopes) is not None:
        raise SystemExit(f"browser-{label}: not over, or does not audit")
    target = HERE / game.name / game.rules_version / f"browser-{label}.jsonl"
    target.parent.mkdir(parents=True, exist_ok=True)
    logfile.write(target, envelopes)
    manifest = json.loads(MANIFEST.read_text())
    manifest[target.relative_to(HERE).as_posix()] = entry(target, game, envelopes)
    MANIFEST.write_text(json.dumps(dict(sorted(manifest.items())), indent=1, ensure_ascii=False) + "\n")
    UNEXERCISED.write_text(json.dumps(unexercised(manifest), indent=1) + "\n")
    return target


def _from_browser(name: str) -> bool:
    return name.rsplit("/", 1)[-1].startswith("browser-")


def add(path: Path, manifest: dict) -> None:
    game, envelopes = logfile.read(path)
    logfile.restore(game, envelopes, str(path))
    divergence = audit(game, envelopes)
    if divergence is not None:
        raise SystemExit(f"{path}: does not audit: {divergence}")
    target = HERE / game.name / game.rules_version / path.name
    target.parent.mkdir(parents=True, exist_ok=True)
    logfile.write(target, envelopes)
    manifest[target.relative_to(HERE).as_posix()] = entry(target, game, envelopes)


def refusals() -> list:
    """Every line of every ``<game>/<version>/refusals.jsonl``, with where it is (``file:line``)."""
    return [(f"{path.relative_to(HERE).as_posix()}:{number}", json.loads(text))
            for path in sorted(HERE.glob(f"*/*/{REFUSALS}"))
            for number, text in enumerate(path.read_text().splitlines(), 1)]


def refused(line: dict):
    """Replay one refusal: the corpus game ``line["game"]`` folded to seq ``line["at"]`` (hashes checked),
    then ``line["command"]`` decided for ``line["seat"]`` under the game's recorded version. Its answer
    (a Rejection, if the line still holds) and the game's name."""
    game, envelopes = logfile.read(HERE / line["game"])
    table = logfile.restore(game, envelopes[: line["at"]], line["game"])
    command = table.game.commands.build(line["command"])
    return table.game.name, table.game.decide(table.state, line["seat"], command, table.rng())


def _variants(data: dict, pool: dict):
    """Commands near a legal one: each field changed to a value out of range (ints -1..25, strings no
    game names), to the same field of another legal command, or a list with one item dropped or added."""
    for field, value in data.items():
        if field == "type":
            continue
        others: list = [not value] if isinstance(value, bool) else []
        if isinstance(value, int) and not isinstance(value, bool):
            others += list(range(-1, 26))
        if isinstance(value, str):
            others += ["zz", "q99"]
        others += [other for other in pool.get(field, []) if other != value]
        if isinstance(value, list):
            others += [value[:index] + value[index + 1:] for index in range(len(value))]
            others += [value + other[-1:] for other in pool.get(field, []) if isinstance(other, list)]
        for other in others:
            if other != value:
                yield {**data, field: other}


def find_refusals(names: tuple, positions: int) -> dict:
    """For the newest version of each game in ``names``: at each of the first ``positions`` commands of
    its corpus games, every seat's commands near the legal ones (``_variants``), decided; the first one
    refused citing each clause still unexercised becomes a line of its ``refusals.jsonl``."""
    wanted = json.loads(UNEXERCISED.read_text())
    lines: dict = {}
    manifest = json.loads(MANIFEST.read_text())
    for name in sorted(manifest):
        game, envelopes = logfile.read(HERE / name)
        if game.name not in names or game.rules_version != events.games.load(game.name).rules_version:
            continue
        missing = set(wanted[game.name]) - {line["rule"] for line in lines.get(game.name, [])}
        starts = [e.seq for e in envelopes if e.command_id and (e.seq == 1 or envelopes[e.seq - 2].command_id != e.command_id)]
        for seq in starts[:positions]:
            if not missing:
                break
            table = logfile.restore(game, envelopes[: seq - 1], name)
            for seat in game.seats(table.state):
                legal = [command.to_data() for command in game.legal(table.state, seat)]
                pool: dict = {}
                for data in legal:
                    for field, value in data.items():
                        pool.setdefault(field, []).append(value)
                for data in legal:
                    for changed in _variants(data, pool):
                        try:
                            answer = game.decide(table.state, seat, game.commands.build(changed), table.rng())
                        except Exception:  # not a command (DecodeError), or accepted and it draws (SecretNeeded)
                            continue
                        rule = getattr(answer, "rule", None)
                        if isinstance(answer, Rejection) and rule in missing:
                            missing.discard(rule)
                            lines.setdefault(game.name, []).append(
                                {"game": name, "at": seq - 1, "seat": seat, "command": changed, "rule": rule})
    return lines


def write_refusals(found: dict) -> None:
    """Add the lines ``find_refusals`` found to each game's newest ``refusals.jsonl`` (lines kept, sorted)."""
    for name, new in found.items():
        path = HERE / name / events.games.load(name).rules_version / REFUSALS
        old = [json.loads(text) for text in path.read_text().splitlines()] if path.exists() else []
        rows = sorted({json.dumps(line, sort_keys=True, ensure_ascii=False) for line in old + new})
        path.write_text("".join(row + "\n" for row in rows))


def _mv_9(envelopes: list) -> bool:
    """MV-9: in a game of red and blue, blue moves into (empty) Location 12 through the Location red
    occupies (a MechMoved's ``passed_through`` lists only occupied Locations, MV-4: here red's)."""
    return set(envelopes[0].event.seats) == {"red", "blue"} and any(
        e.type == "MechMoved" and e.event.seat == "blue" and e.event.to == 12 and e.event.passed_through
        for e in envelopes)


def _ah_4(envelopes: list) -> bool:
    """AH-4: a move from the Graveyard to the Administration Building spends 4 movement points (4 lines)."""
    return any(e.type == "InvestigatorMoved" and e.event.start == "graveyard" and e.event.to == "administration"
               and len(e.event.path) == 4 for e in envelopes)


#: Worked examples (a position and its outcome, cited by no event: the events cite the clauses that decide
#: them, MV-1 and MV-4, AH-3): exercised by a corpus game that plays the example.
WORKED = {"mecha": {"MV-9": _mv_9}, "arkham": {"AH-4": _ah_4}}


def _recorded(kind: str, *fields: str):
    """A clause that says what the log records: exercised by a logged ``kind`` event carrying ``fields``."""
    return lambda envelopes: any(e.type == kind and all(getattr(e.event, field, None) not in (None, ())
                                                        for field in fields) for e in envelopes)


#: Clauses that say what an event records, not what happens: the event cites the clause that produced it
#: (MechMoved the move, MV-1; CorruptionDrawn the draw, MV-6c), and its fields are the record these ask for.
RECORDED = {
    "mecha": {
        "MV-C4": _recorded("MechMoved", "path"),  # "a move records the shortest legal path": MechMoved.path
        "MV-C2": _recorded("CorruptionDrawn", "value", "colour"),  # "each drawn token is written into the event"
        "MV-C1": _recorded("GameStarted", "scenario"),  # "the board is a data file": the scenario GameStarted logs
    },
}

#: Clauses no corpus game can exercise, each with the reason; ``unexercised`` leaves them out, and
#: test_corpus fails if one of them is exercised after all (then it leaves this list).
EXEMPT = {
    "skirmish": {
        "SK-12": "flavour: the door rules' story (a survivor holding a door, a Troll holding a passage); it "
                 "states no rule, so nothing can cite it",
    },
    "echo": {
        "EC-1": "the phase's scope: cited only by the guard that refuses a command of another game, and a "
                "refusals line's command is built by echo's own registry, so no line (and no logged event) can "
                "carry a foreign command; tests/games/echo/test_rules.py checks that guard",
    },
}


def unexercised(manifest: dict) -> dict:
    """Per game, the clauses of its catalogue that no logged event of the corpus cites, no line of its
    refusals corpus is refused by (each refusal replayed: one that no longer refuses with its clause
    counts for nothing), no corpus game plays (``WORKED``) or records (``RECORDED``), and ``EXEMPT``
    does not exempt with its reason."""
    return {name: sorted(set(missing) - set(EXEMPT.get(name, {}))) for name, missing in exercised_not(manifest).items()}


def exercised_not(manifest: dict) -> dict:
    """Per game, every clause of its catalogue the corpus does not exercise, the exempt ones included."""
    cited: dict = {name: set() for name in events.games.NAMES}
    for name, item in manifest.items():
        _game, envelopes = logfile.read(HERE / name)
        cited[item["game"]].update(envelope.rule for envelope in envelopes if envelope.rule)
        for kind in (WORKED, RECORDED):
            for clause, plays in kind.get(item["game"], {}).items():
                if clause not in cited[item["game"]] and plays(envelopes):
                    cited[item["game"]].add(clause)
    for _where, line in refusals():
        game_name, answer = refused(line)
        if getattr(answer, "rule", None) == line["rule"]:
            cited[game_name].add(line["rule"])
    return {name: sorted(set(events.games.load(name).catalogue.ids()) - cited[name]) for name in events.games.NAMES}


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--add", metavar="FILE", type=Path, help="enter one log in the manifest instead")
    parser.add_argument("--crafted", nargs="*", metavar="FILE", help="write the crafted games (CRAFTED, or only "
                        "those named by their corpus file) instead")
    parser.add_argument("--refusals", nargs="*", metavar="GAME", help="find refusals for unexercised clauses instead")
    parser.add_argument("--positions", type=int, default=40, help="with --refusals: commands per game tried")
    parser.add_argument("--only", nargs="+", metavar="GAME", default=(), choices=events.games.NAMES,
                        help="play and rewrite the newest version's games of these games only")
    args = parser.parse_args(argv)
    if args.add is not None:
        manifest = json.loads(MANIFEST.read_text())
        add(args.add, manifest)
    elif args.refusals is not None:
        manifest = json.loads(MANIFEST.read_text())
        write_refusals(find_refusals(tuple(args.refusals or events.games.NAMES), args.positions))
    elif args.crafted is not None:
        manifest = json.loads(MANIFEST.read_text())
        unknown = sorted(set(args.crafted) - set(CRAFTED))
        if unknown:
            raise SystemExit(f"--crafted {unknown[0]}: no such crafted game (known: {', '.join(CRAFTED)})")
        for name, craft in CRAFTED.items():
            if args.crafted and name not in args.crafted:
                continue
            table = craft()
            started = events.games.load(table.game.name, table.envelopes[0].event.rules_version)
            if not table.game.is_over(table.state) or audit(started, table.envelopes) is not None:
                raise SystemExit(f"{name}: not over, or does not audit")
            (HERE / name).parent.mkdir(parents=True, exist_ok=True)
            logfile.write(HERE / name, table.envelopes)
            manifest[name] = entry(HERE / name, table.game, table.envelopes)
    else:
        newest = {f"{name}/{events.games.load(name).rules_version}/" for name in args.only or events.games.NAMES}
        # The bots' games of the newest versions are played again; the browser tests' and the crafted are kept.
        manifest = {name: item for name, item in json.loads(MANIFEST.read_text()).items()
                    if not any(name.startswith(folder) for folder in newest) or _from_browser(name)
                    or name in CRAFTED}
        for folder in newest:
            for old in (HERE / folder).glob("*.jsonl"):
                if not _from_browser(old.name) and old.name != REFUSALS and f"{folder}{old.name}" not in CRAFTED:
                    old.unlink()
        manifest.update(make(tuple(args.only)))
    MANIFEST.write_text(json.dumps(dict(sorted(manifest.items())), indent=1, ensure_ascii=False) + "\n")
    UNEXERCISED.write_text(json.dumps(unexercised(manifest), indent=1) + "\n")
    games: dict = {}
    for item in manifest.values():
        games.setdefault(item["game"], set()).add(item["end"])
    for name, ends in sorted(games.items()):
        count = sum(1 for item in manifest.values() if item["game"] == name)
        print(f"{name}: {count} games; ends: {'; '.join(sorted(ends))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
