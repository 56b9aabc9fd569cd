"""gloomhaven-3 (issue 19): a monster's plan cites the clause that decided it, GH-C11 for a focus tied
between characters tied on initiative, GH-C10 for an area attacker, GH-6 otherwise; everything else,
every state and hash included, is gloomhaven-2's, whose logs replay and audit unchanged under it."""

from __future__ import annotations

from pathlib import Path

import events.games
from events.log import audit, audit_log
from server import logfile

CORPUS = Path(__file__).parent.parent.parent / "corpus" / "gloomhaven"
TIED = CORPUS / "gloomhaven-3" / "tied-initiative-random-1.jsonl"  # every character card at initiative 50


def plans(envelopes: list) -> list:
    return [e for e in envelopes if e.type == "MonsterTurnPlanned"]


def test_gh_c11_gh_c10_a_gloomhaven_3_plan_cites_the_clause_that_decided_it():
    """GH-C11, GH-C10, GH-6: in a corpus game of tied characters each plan cites GH-C11 exactly when its
    trace says the focus was tied on initiative for the players to choose, GH-C10 when the monster's attack
    was an area (its weighed destinations count targets by the pattern), GH-6 otherwise."""
    game, envelopes = logfile.read(TIED)
    assert game.rules_version == "gloomhaven-3" and audit(game, envelopes) is None
    cited = {e.rule for e in plans(envelopes)}
    assert cited == {"GH-6", "GH-C10", "GH-C11"}
    for plan in plans(envelopes):
        tied = plan.event.decided_by == "tied on initiative: the players choose (GH-C11)"
        assert (plan.rule == "GH-C11") == tied
        if "(area, GH-C10)" in " ".join(weighed.step for weighed in plan.event.destinations):
            assert plan.rule in ("GH-C10", "GH-C11")  # the pattern counted targets: an area attacker
    areas = [plan for plan in plans(envelopes) if plan.rule == "GH-C10"]
    assert any("(area, GH-C10)" in weighed.step for plan in areas for weighed in plan.event.destinations)


def test_gh_c11_audit_under_gloomhaven_2_parts_at_the_first_plan_it_cites_otherwise():
    """CORE-3: the same game audited under gloomhaven-2 parts at its first GH-C11 or GH-C10 plan, naming both
    clauses; a gloomhaven-2 corpus game still audits under gloomhaven-2, and its states hash the same under
    gloomhaven-3's fold (the citation is not folded)."""
    game, envelopes = logfile.read(TIED)
    first = next(e for e in plans(envelopes) if e.rule != "GH-6")
    parted = audit_log(events.games.load("gloomhaven", "gloomhaven-2"), envelopes, follow=False).divergence
    assert parted.seq == first.seq and (parted.logged_rule, parted.produced_rule) == (first.rule, "GH-6")
    old, logged = logfile.read(CORPUS / "gloomhaven-2" / "barrow-random-1.jsonl")
    assert old.rules_version == "gloomhaven-2" and audit(old, logged) is None
    assert events.games.load("gloomhaven", "gloomhaven-3").evolve is old.evolve


def test_gh_c11_gloomhaven_5_parts_from_gloomhaven_4_only_at_a_summon_tied_with_a_character():
    """GH-C11, CORE-3: the crafted gloomhaven-5 corpus game (``make.summon_tie``) audits under its own version; its
    round-2 plan offers red's Bot or blue and cites GH-C11, and an audit under gloomhaven-4 parts exactly there
    (gloomhaven-4 focused the Bot, citing GH-6). A gloomhaven-5 game of the bots (no such tie) replays unchanged
    under gloomhaven-4."""
    game, envelopes = logfile.read(CORPUS / "gloomhaven-5" / "summon-tie-crafted-1.jsonl")
    assert game.rules_version == "gloomhaven-5" and audit(game, envelopes) is None
    tied = next(e for e in plans(envelopes) if e.rule == "GH-C11")
    assert set(tied.event.focus) == {"blue", "red-s1"}
    parted = audit_log(events.games.load("gloomhaven", "gloomhaven-4"), envelopes, follow=False).divergence
    assert parted.seq == tied.seq and (parted.logged_rule, parted.produced_rule) == ("GH-C11", "GH-6")
    _game, plain = logfile.read(CORPUS / "gloomhaven-5" / "tied-initiative-random-1.jsonl")
    assert audit_log(events.games.load("gloomhaven", "gloomhaven-4"), plain, follow=False).divergence is None


def test_gh_c8_gloomhaven_6_parts_from_gloomhaven_5_only_where_tied_seats_order_extra_targets():
    """GH-C8 (3), GH-C11, CORE-3: the crafted gloomhaven-6 corpus game (``make.order_tie``) audits under its own
    version; its first plan offers the brute's two hexes to red and blue alone and cites GH-C11, and an audit under
    gloomhaven-5 parts exactly there (GH-6: gloomhaven-5 offered the same hexes to every seat). Every gloomhaven-6
    game of the bots, the tied-initiative ones included, replays unchanged under gloomhaven-5."""
    game, envelopes = logfile.read(CORPUS / "gloomhaven-6" / "order-tie-crafted-1.jsonl")
    assert game.rules_version == "gloomhaven-6" and audit(game, envelopes) is None
    tied = next(e for e in plans(envelopes) if e.rule == "GH-C11")
    assert tied.event.focus == ("green",) and len(tied.event.options) == 2
    released = events.games.load("gloomhaven", "gloomhaven-5")
    parted = audit_log(released, envelopes, follow=False).divergence
    assert parted.seq == tied.seq and (parted.logged_rule, parted.produced_rule) == ("GH-C11", "GH-6")
    for path in sorted((CORPUS / "gloomhaven-6").glob("*-[0-9].jsonl")):
        if "crafted" not in path.name:
            assert audit_log(released, logfile.read(path)[1], follow=False).divergence is None, path.name


def test_gh_4_gloomhaven_7_parts_from_gloomhaven_6_only_at_a_move_by_destination_between_walks_apart():
    """GH-4, GH-C1, CORE-3: a gloomhaven-6 game whose red moves to (1, 3) by its destination alone, hazardous terrain
    on one cheapest walk and a trap on the other, audits under its own version and parts under gloomhaven-7 exactly
    at that move (refused there: the route is the player's). Every gloomhaven-7 corpus game of the bots (their
    moves give paths) replays unchanged under gloomhaven-6."""
    from events.games.gloomhaven.model import PlayCard
    from events.log import Table
    from tests.games.gloomhaven.helpers import open_map, scenario
    from tests.games.gloomhaven.test_rules import FAR, IDLE, OTHER, TESTER, pick

    data = scenario(open_map(hazardous=[[1, 2]], traps=[[0, 3]]), [("red", "Tester", (0, 2))],
                    [("Dummy", "normal", 1, FAR)], classes=[TESTER, OTHER], types=[IDLE])
    old = Table.create(events.games.load("gloomhaven", "gloomhaven-6"), "g-test", data, 1)
    pick(old)
    before = old.seq
    old.submit("red", PlayCard("t-10", "bottom", to=(1, 3)), "c-move")
    assert old.seq > before and audit(old.game, old.envelopes) is None
    parted = audit_log(events.games.load("gloomhaven", "gloomhaven-7"), old.envelopes, follow=False).divergence
    assert parted.seq == before + 1
    released = events.games.load("gloomhaven", "gloomhaven-6")
    for path in sorted((CORPUS / "gloomhaven-7").glob("*-[0-9].jsonl")):
        if "tied" not in path.name:
            assert audit_log(released, logfile.read(path)[1], follow=False).divergence is None, path.name


def test_gh_2_gloomhaven_7_parts_from_gloomhaven_6_only_at_the_first_tied_seat_s_answer():
    """GH-2, CORE-3: in gloomhaven-7 one tied seat's answer is a proposal the other tied seats agree to
    (OrderProposed), where gloomhaven-6 settled the tie on it (OrderChosen). Each gloomhaven-7 tied-initiative corpus
    game of the bots parts from gloomhaven-6 exactly at its first OrderProposed, after a TieOffered, not before."""
    released = events.games.load("gloomhaven", "gloomhaven-6")
    for path in sorted((CORPUS / "gloomhaven-7").glob("tied-initiative-*-[0-9].jsonl")):
        envelopes = logfile.read(path)[1]
        parted = audit_log(released, envelopes, follow=False).divergence
        assert parted is not None, path.name
        proposed = next(e for e in envelopes if e.type == "OrderProposed")
        assert parted.seq == proposed.seq and "TieOffered" in [e.type for e in envelopes if e.seq < parted.seq]
