"""Rules versions side by side (issue 19): a revision never replaces the version a log names."""

from __future__ import annotations

import pytest

import events.games
from events.log import Table, audit
from events.rules import Rejection
from tests.events.toy import TOY, Add, decide


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
