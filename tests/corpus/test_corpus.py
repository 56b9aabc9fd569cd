"""The corpus of recorded games (issue 19): every game replays under the rules version it names.

Each log is read as a file, folded with every hash checked, audited (every command re-decided),
and its final hash, length and ending compared with ``manifest.json``. A rules change that
alters any of them fails here, naming the game; the fix is a new rules version
(``Game.revised``), never an edit of the released one. ``make.py`` says how to add a game.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import events.games
from events.log import audit
from events.rules import Rejection
from server import logfile
from tests.corpus.make import EXEMPT, MANIFEST, RECORDED, REFUSALS, WORKED, end_of, exercised_not, refusals, refused

HERE = Path(__file__).parent
ENTRIES = json.loads(MANIFEST.read_text())
UNEXERCISED = HERE / "unexercised.json"

# Every way each game can end, as ``end_of`` names it; the corpus must hold each at least once.
ENDS = {
    "mecha": {"the last round is over"},
    "arkham": {"the last Movement phase is over", "every investigator is devoured"},
    "echo": {"all N rounds are played", "no investigator is alive"},
    "gloomhaven": {"won", "lost", "out of rounds"},
    "skirmish": {"a side has no figure left", "all N rounds are played and both sides still stand"},
}
# Ends the bots have not reached yet, said here rather than left out of ENDS silently.
# (arkham's "every investigator is devoured" is reached by a crafted arkham-2 game: make.py's ``devoured``.)
NOT_YET_REACHED: dict = {}


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_a_recorded_game_replays_and_audits_under_its_own_rules_version(name):
    expected = ENTRIES[name]
    game, envelopes = logfile.read(HERE / name)
    assert game.rules_version == expected["rules_version"] == envelopes[0].event.rules_version
    assert name.startswith(f"{game.name}/{game.rules_version}/")
    table = logfile.restore(game, envelopes, name)  # every logged hash checked
    assert audit(game, envelopes) is None
    assert len(envelopes) == expected["events"]
    assert envelopes[-1].hash == expected["final_hash"]
    assert game.is_over(table.state)
    assert end_of(envelopes) == expected["end"]


def test_every_file_of_the_corpus_is_in_the_manifest_and_each_version_has_twenty():
    files = {path.relative_to(HERE).as_posix() for path in HERE.glob("*/*/*.jsonl") if path.name != REFUSALS}
    assert files == set(ENTRIES)
    for name in events.games.NAMES:  # the newest version of every game, and every older one kept
        for version in {item["rules_version"] for item in ENTRIES.values() if item["game"] == name} | {
            events.games.load(name).rules_version
        }:
            assert sum(1 for item in ENTRIES.values() if item["rules_version"] == version) >= 20, version


def test_the_corpus_ends_in_every_way_each_game_can_end():
    for name, ends in ENDS.items():
        reached = {item["end"] for item in ENTRIES.values() if item["game"] == name}
        assert ends <= reached, f"{name}: the corpus never ends with {sorted(ends - reached)}"
        assert not (NOT_YET_REACHED.get(name, set()) & reached), f"{name}: move the end into ENDS"


NOT_EXERCISED = exercised_not(ENTRIES)  # per game, every clause the corpus does not exercise, exempt ones too


def test_the_clauses_the_corpus_never_exercises_are_listed():
    """A clause counts as exercised when a logged event cites it, a line of the refusals corpus is
    refused citing it (replayed: ``make.refused``), or a corpus game plays its worked example
    (``make.WORKED``) or logs the record it asks for (``make.RECORDED``). The list names every other
    clause but the reasoned exemptions (``make.EXEMPT``), and a change that makes the corpus exercise
    fewer clauses fails here until the list is updated."""
    listed = json.loads(UNEXERCISED.read_text())
    found = {name: sorted(set(missing) - set(EXEMPT.get(name, {}))) for name, missing in NOT_EXERCISED.items()}
    assert found == listed, "update tests/corpus/unexercised.json (python -m tests.corpus.make writes it)"


def test_an_exempt_clause_is_its_game_s_gives_its_reason_and_is_exercised_by_nothing():
    """SK-12, EC-1, GH-V1, GH-V2 (``make.EXEMPT``): each a clause of its game's catalogue, with a reason,
    and still exercised by nothing: one the corpus comes to exercise must leave the exemptions."""
    for name, clauses in EXEMPT.items():
        for clause, reason in clauses.items():
            assert clause in events.games.load(name).catalogue.ids() and len(reason) > 20, clause
            assert clause in NOT_EXERCISED[name], f"{name}: {clause} is exercised now: take it out of EXEMPT"


def test_mv_9_ah_4_mv_c2_mv_c4_the_corpus_plays_the_worked_examples_and_logs_the_records():
    """MV-9 (blue into empty Location 12 through red's Location), AH-4 (Graveyard to Administration for 4
    points), MV-C4 (a move's path), MV-C2 (each drawn token), MV-C1 (the board its scenario logs) are cited by no event; the corpus games named
    here play or log them, and a game that does not (a mecha game for AH-4, its first event alone) does not count."""
    def games(name: str, check) -> list:
        return [path for path, item in ENTRIES.items() if item["game"] == name and check(logfile.read(HERE / path)[1])]

    assert "mecha/mecha-2/sample-random-4.jsonl" in games("mecha", WORKED["mecha"]["MV-9"])
    assert "arkham/arkham-3/crossing-greedy-5.jsonl" in games("arkham", WORKED["arkham"]["AH-4"])
    for clause in ("MV-C1", "MV-C2", "MV-C4"):
        assert "mecha/mecha-2/sample-random-4.jsonl" in games("mecha", RECORDED["mecha"][clause])
    _game, mecha = logfile.read(HERE / "mecha/mecha-2/sample-random-4.jsonl")
    assert not WORKED["arkham"]["AH-4"](mecha) and not WORKED["mecha"]["MV-9"](mecha[:1])
    assert not RECORDED["mecha"]["MV-C4"](mecha[:1])


CATALOGUE = json.loads((HERE.parent.parent / "client" / "i18n" / "en.json").read_text())
REFUSED = refusals()


@pytest.mark.parametrize("where,line", REFUSED, ids=[where for where, _line in REFUSED])
def test_a_refusal_of_the_corpus_is_refused_citing_its_clause_with_a_catalogued_reason(where, line):
    """Each line of a refusals corpus (``<game>/<version>/refusals.jsonl``): its game, in the manifest,
    folded to ``at`` and the command decided under the recorded version, is refused citing ``rule``,
    a clause of that game's catalogue, with a message key the catalogue holds in all three languages."""
    assert line["game"] in ENTRIES and where.startswith(line["game"].rsplit("/", 1)[0] + "/")
    game_name, answer = refused(line)
    assert isinstance(answer, Rejection), f"{where}: accepted"
    assert answer.rule == line["rule"] and answer.rule in events.games.load(game_name).catalogue.ids()
    assert answer.key in CATALOGUE and answer.reason


def test_core_3_the_corpus_holds_a_game_moved_to_a_newer_version_and_replay_follows_it():
    """CORE-3: skirmish/purge moved from skirmish-1 to skirmish-2 after 20 commands (``chronicle upgrade``'s
    event), then played to its end; it is filed under the version it started with."""
    name = "skirmish/skirmish-1/purge-moved-greedy-1.jsonl"
    game, envelopes = logfile.read(HERE / name)
    moves = [envelope for envelope in envelopes if envelope.type == "RulesVersionChanged"]
    assert [(m.event.from_version, m.event.to_version, m.rule) for m in moves] == [("skirmish-1", "skirmish-2",
                                                                                   "CORE-3")]
    assert logfile.restore(game, envelopes, name).game is events.games.load("skirmish", "skirmish-2")


def test_core_11_the_corpus_holds_a_game_its_seats_moved_and_every_reader_checks_their_consent():
    """CORE-10, CORE-11: echo/novice-duel moved from echo-1 to echo-2 by its seats after 12 commands
    (``make.py --crafted``), then played to its end: it replays and audits following the move, though under
    echo-2 throughout it parts at seq 15 (EC-15), which is why only its seats could move it."""
    from tests.corpus.make import AGREED

    game, envelopes = logfile.read(HERE / AGREED)
    consent = [(e.type, e.rule) for e in envelopes if e.rule in ("CORE-10", "CORE-11", "CORE-3")]
    assert consent == [("RulesVersionProposed", "CORE-10"), ("RulesVersionAnswered", "CORE-11"),
                       ("RulesVersionChanged", "CORE-3")]
    moved = next(e for e in envelopes if e.type == "RulesVersionChanged")
    assert moved.event.agreed == moved.seq - 2 and moved.event.to_version == "echo-2"
    assert logfile.restore(game, envelopes, AGREED).game is events.games.load("echo", "echo-2")
    assert game.rules_version == "echo-1" and audit(game, envelopes) is None  # echo-1, then the move to echo-2
    from events.log import audit_log

    assert audit_log(events.games.load("echo"), envelopes, follow=False).divergence.seq == 15


def test_a_browser_game_enters_the_corpus_anonymised_and_only_when_asked(monkeypatch, tmp_path):
    """``save_browser_game``: nothing without CHRONICLE_CORPUS_SAVE=1; with it, a log without times
    (every ``at`` null, the pages' time-stamped command ids renamed), every hash and the audit unchanged."""
    from events.bots import bot, playout
    from events.log import Envelope, Table
    from events.rng import Rng
    from server import scenarios
    from tests.corpus import make

    mecha = events.games.load("mecha")
    table = Table.create(mecha, "g-browser", scenarios.load("mecha/sample")[1], 7, at="2026-12-01T12:00:00.000000Z")
    playout(table, {seat: bot(mecha, "random") for seat in mecha.seats(table.state)}, Rng(7), 5000, prefix="c-1764590400000-1")
    timed = [Envelope(e.game, e.seq, e.event, e.seat, e.command_id, e.command, e.dice, e.rule, e.hash,
                      "2026-12-01T12:00:00.000000Z") for e in table.envelopes]
    lines = [logfile.dumps(e) for e in timed]
    monkeypatch.delenv(make.SAVE, raising=False)
    assert make.save_browser_game(lines, "test") is None
    # Check the anonymised log: no time left, ids renamed per command, the same hashes, and it audits.
    clean = make.anonymised(timed)
    assert {e.at for e in clean} == {None} and [e.hash for e in clean] == [e.hash for e in timed]
    assert not any("1764590400000" in (e.command_id or "") for e in clean)
    assert len({e.command_id for e in clean} - {None}) == len({e.command_id for e in timed} - {None})
    assert audit(mecha, clean) is None
    # Check saving files it under its game and version, in a manifest of its own here (not the repo's).
    monkeypatch.setenv(make.SAVE, "1")
    for name in ("HERE", "MANIFEST", "UNEXERCISED"):
        monkeypatch.setattr(make, name, tmp_path / {"HERE": "", "MANIFEST": "manifest.json",
                                                     "UNEXERCISED": "unexercised.json"}[name])
    (tmp_path / "manifest.json").write_text("{}")
    saved = make.save_browser_game(lines, "test")
    assert saved == tmp_path / "mecha" / mecha.rules_version / "browser-test.jsonl"
    assert "2026-12-01" not in saved.read_text()
    entry = json.loads((tmp_path / "manifest.json").read_text())[f"mecha/{mecha.rules_version}/browser-test.jsonl"]
    assert entry["final_hash"] == table.envelopes[-1].hash and entry["end"] == "the last round is over"
    # Check a game that is not over is refused.
    with pytest.raises(SystemExit, match="not over"):
        make.save_browser_game(lines[:5], "unfinished")
