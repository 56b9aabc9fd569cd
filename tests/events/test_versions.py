"""Rules versions side by side (issue 19): a revision never replaces the version a log names."""

from __future__ import annotations

import pytest

import events.games
from events.game import RulesVersionChanged
from events.log import Envelope, LogError, Table, audit, audit_log, started_under
from events.rules import Rejection
from events.upgrade import ProposeRulesVersion
from tests.events.toy import GOAL, TOY, Add, decide


def decide_2(state, seat, command, rng):
    """toy-2 changes T-1: adding more than 5 at once is refused."""
    if isinstance(command, Add) and command.k > 5:
        return Rejection("T-1", f"cannot add {command.k}: more than 5 at once (toy-2)")
    return decide(state, seat, command, rng)


TOY_2 = TOY.revised("toy-2", notes=(("T-1", "adding more than 5 at once is refused"),), decide=decide_2)


def _played(game, adds) -> Table:
    table = Table.create(game, "g-1", {"seats": ["a"]}, 1)
    for number, k in enumerate(adds, 1):
        assert not isinstance(table.submit("a", Add(k), f"c-{number}"), Rejection)
    return table


def test_a_revision_keeps_every_released_version_importable():
    assert [g.rules_version for g in TOY_2.versions()] == ["toy-1", "toy-2"]
    assert TOY_2.version("toy-1") is TOY
    assert TOY_2.previous is TOY and TOY.previous is None
    with pytest.raises(KeyError, match="released: toy-1, toy-2"):
        TOY_2.version("toy-9")


def test_a_revision_records_its_own_version_in_new_games_and_leaves_old_ones_alone():
    assert _played(TOY_2, [1]).envelopes[0].event.rules_version == "toy-2"
    assert _played(TOY, [1]).envelopes[0].event.rules_version == "toy-1"


def test_an_old_game_still_plays_and_audits_under_its_own_version():
    table = _played(TOY, [1, 7, 2])
    assert audit(TOY, table.envelopes) is None
    assert audit(TOY_2.version(table.envelopes[0].event.rules_version), table.envelopes) is None


def test_auditing_under_the_new_version_names_the_first_divergent_event_and_its_clause():
    table = _played(TOY, [1, 7, 2])
    divergence = audit(TOY_2, table.envelopes)
    assert divergence is not None and divergence.seq == 3
    assert "T-1" in divergence.produced and "more than 5" in divergence.produced


def test_a_game_that_replays_unchanged_under_the_new_version_is_found_so():
    assert audit(TOY_2, _played(TOY, [1, 2, 3]).envelopes) is None


def test_revising_refuses_a_released_name_and_an_unknown_part():
    with pytest.raises(ValueError, match="released already"):
        TOY_2.revised("toy-1")
    with pytest.raises(TypeError, match="no part 'rules'"):
        TOY.revised("toy-3", rules=None)


def test_every_shipped_game_loads_at_each_of_its_released_versions():
    for name in events.games.NAMES:
        newest = events.games.load(name)
        for game in newest.versions():
            assert events.games.load(name, game.rules_version) is game
        with pytest.raises(KeyError, match="no rules version"):
            events.games.load(name, "no-such-version")


def test_a_revision_says_what_it_changed_since_an_older_version():
    assert TOY_2.changes_since("toy-1") == (("toy-2", "T-1", "adding more than 5 at once is refused"),)
    assert TOY_2.changes_since("toy-2") == ()
    with pytest.raises(ValueError, match="unknown clause 'T-9'"):
        TOY.revised("toy-3", notes=(("T-9", "no such clause"),))


# CORE-3: moving a game to a newer rules version (RulesVersionChanged).


def test_core_3_a_moved_game_records_the_move_and_decides_under_the_new_version_from_then_on():
    table = _played(TOY, [1, 7])
    moved = table.move_to("toy-2")
    # Check the event: from, to, and the seq the new version starts at (the one after it), citing CORE-3.
    assert moved.event == RulesVersionChanged("toy-1", "toy-2", 5) and moved.seq == 4 and moved.rule == "CORE-3"
    assert moved.hash == table.envelopes[2].hash  # it changes rules, not state
    assert table.game is TOY_2
    # Check the new rules decide: 7 at once is refused now (T-1 of toy-2), 2 is taken.
    refused = table.submit("a", Add(7), "c-3")
    assert isinstance(refused, Rejection) and refused.rule == "T-1" and "more than 5" in refused.reason
    assert not isinstance(table.submit("a", Add(2), "c-4"), Rejection)


def test_core_3_replay_and_audit_follow_the_move():
    table = _played(TOY, [1, 7])
    # The 7 diverges under toy-2, so only the seats may move this game: its one seat proposes (CORE-10).
    assert not isinstance(table.submit("a", ProposeRulesVersion("toy-2"), "p-1"), Rejection)
    assert table.envelopes[-1].event == RulesVersionChanged("toy-1", "toy-2", 6, agreed=4)
    table.submit("a", Add(2), "c-3")
    # Check a restore ends under toy-2, every hash checked, given either version (a page knows only the
    # game's name): it starts under the one GameStarted names, toy-1, or the move (from toy-1) would be refused.
    assert Table.restore(TOY, "g-1", table.envelopes).game is TOY_2
    assert Table.restore(TOY_2, "g-1", table.envelopes).game is TOY_2
    assert Table.restore(TOY_2, "g-1", table.envelopes[:3]).game is TOY
    # Check the audit re-decides the 7 under toy-1, the proposal, and the 2 under toy-2, and finds nothing.
    report = audit_log(TOY, table.envelopes)
    assert report.divergence is None and report.redecided == 4
    # Check auditing the whole log under toy-2 (not following the move) still names the 7 (T-1).
    assert audit_log(TOY_2, table.envelopes, follow=False).divergence.produced_rule == "T-1"


def test_core_3_a_move_backwards_sideways_or_after_the_end_is_refused():
    table = _played(TOY_2, [1])
    with pytest.raises(ValueError, match="toy-1 is older than toy-2"):
        table.move_to("toy-1")
    with pytest.raises(ValueError, match="under toy-2 already"):
        table.move_to("toy-2")
    with pytest.raises(KeyError, match="released: toy-1, toy-2"):
        table.move_to("toy-9")
    over = _played(TOY, [GOAL])
    with pytest.raises(ValueError, match="is over: its rules version no longer matters"):
        over.move_to("toy-2")


@pytest.mark.parametrize("event, message", [
    (RulesVersionChanged("toy-2", "toy-2", 5), "from toy-2, but the game is played under toy-1"),
    (RulesVersionChanged("toy-1", "toy-2", 9), "must start at seq 5, not 9"),
    (RulesVersionChanged("toy-1", "toy-9", 5), "to toy has no rules version 'toy-9'"),
])
def test_core_3_a_forged_move_in_a_log_is_refused_naming_its_seq(event, message):
    table = _played(TOY, [1, 2])
    table.move_to("toy-2")
    forged = table.envelopes[:3] + [_but(table.envelopes[3], event)]
    with pytest.raises(LogError, match=f"seq 4: RulesVersionChanged {message}"):
        Table.restore(TOY, "g-1", forged)


def test_core_3_a_version_finds_every_other_older_or_newer():
    assert TOY.version("toy-2") is TOY_2 and TOY.newest() is TOY_2 and TOY_2.newest() is TOY_2
    with pytest.raises(ValueError, match="revised already, as toy-2"):
        TOY.revised("toy-3")


def test_core_3_a_log_starts_under_the_released_version_its_game_started_names():
    old = _played(TOY, [1]).envelopes
    assert started_under(TOY_2, old) is TOY and started_under(TOY, _played(TOY_2, [1]).envelopes) is TOY_2
    # Check a version this code never released, and no log at all, leave the given version.
    unreleased = [_but(old[0], old[0].event.but(rules_version="toy-7"))] + old[1:]
    assert started_under(TOY_2, unreleased) is TOY_2 and started_under(TOY_2, []) is TOY_2


def _but(envelope, event):
    return Envelope(envelope.game, envelope.seq, event, envelope.seat, envelope.command_id, envelope.command,
                    envelope.dice, envelope.rule, envelope.hash, envelope.at)
