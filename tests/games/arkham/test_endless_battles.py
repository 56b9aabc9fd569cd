"""arkham-6: battles that could never end (the probe of arkham/other-world: Harvey Walters against the Nightgaunt).

AH-C3: "flee (an Evade check: pass ends the battle; fail costs its combat damage and the battle goes on)";
AH-C6: "Elusive: evaded automatically; Ambush: no fleeing". The original text (shared/seeds, "Phase de
Mouvement") says only that an investigator "doit Combattre ou Echapper à chaque Monstre" and says nothing of
Elusive or of fleeing: the digest's reading stands. A flee is an Evade check, and an Elusive monster is evaded
automatically: fleeing it needs no roll. arkham-5 rolled it (Sneak + Awareness), so with no die it always
failed, and with no Combat die and combat damage 0 the battle never ended. Where the rules leave a battle
truly endless (Ambush, or no Evade die against a monster that is not Elusive, fewer Combat dice than its
toughness, combat damage 0), arkham-6 refuses the scenario (``rules.endless_battles``).
"""

from __future__ import annotations

import pytest

import events.games
from events.bots import bot, playout
from events.games import load
from events.games.arkham import model, rules
from events.log import Table, audit
from events.rng import Rng
from events.upgrade import AnswerRulesVersion, ProposeRulesVersion
from events.validate import ScenarioError
from server.scenarios import load as load_scenario
from tests.games.arkham.helpers import act, inv, mon, scenario, types
from tests.games.tables import rejected


def nightgaunt(**changes) -> dict:
    """The Nightgaunt of arkham/other-world: combat -2, awareness -2, combat damage 0, toughness 2, Elusive."""
    data = mon("nightgaunt", "woods", awareness=-2, horror_rating=-1, horror_damage=1, combat_rating=-2,
               combat_damage=0, toughness=2, elusive=True)
    data.update(changes)
    return data


def harvey(version: str) -> Table:
    """Red, Harvey Walters' Fight 1 and Sneak 1 (Will 4), in the Woods with the Nightgaunt."""
    data = scenario([inv("red", "woods", speed=2, sneak=1, fight=1, will=4, stamina=5, sanity=7),
                     inv("blue", "northside")], [nightgaunt()])
    return Table.create(load("arkham", version), "g-test", data, 1)


def in_battle(version: str) -> Table:
    """red fights the Nightgaunt: the Horror check (Will 4 - 1 = 3 dice) passes on 5, 5, 5; the battle is on."""
    tab = harvey(version)
    assert types(act(tab, "red", model.Fight("nightgaunt"), dice=(5, 5, 5))) == ["CombatBegan", "CheckRolled"]
    assert tab.state.combat == "nightgaunt"
    return tab


def test_ah_c6_ah_c3_fleeing_an_elusive_monster_ends_the_battle_without_a_roll():
    """AH-C3, AH-C6: in the battle, red's Flee is an Evade check and the Nightgaunt is Elusive, so it is evaded
    automatically: no die is rolled (none is loaded: a roll would raise), the battle ends as a passed flee ends
    it (CombatEnded "fled"), the Nightgaunt is got past (AH-C8), and red's movement is over (AH-8): it stops
    and blue moves."""
    tab = in_battle("arkham-6")
    assert act(tab, "red", model.Flee()) == [model.MonsterEvaded("red", "nightgaunt", "AH-C6"),
                                              model.CombatEnded("red", "nightgaunt", "fled")]
    assert tab.state.combat == "" and tab.state.dealt == ("nightgaunt",) and tab.state.halt == "AH-8"
    assert tab.game.legal(tab.state, "red") == [model.Stop()]
    assert types(act(tab, "red", model.Stop()))[:2] == ["MovementEnded", "TurnEnded"]
    assert tab.game.turn(tab.state) == ("blue",)
    assert audit(tab.game, tab.envelopes) is None


def test_ah_c6_arkham_5_keeps_rolling_the_flee_and_the_battle_never_ends():
    """AH-C6, AH-C1, AH-C3 (arkham-5 as released, though AH-C6 evades an Elusive monster): the flee is rolled with Sneak 1 - 2 = -1 dice, so it fails without a
    roll, costs combat damage 0, and the battle goes on: 200 Flee and Fight commands later red is still in it and
    its only commands are still Fight and Flee (the probe's soft lock, kept so its logs replay)."""
    tab = in_battle("arkham-5")
    flee = act(tab, "red", model.Flee())
    assert flee == [model.CheckRolled("red", "flee", "nightgaunt", 1, -2, -1, (), 5, 0, 1, False)]
    for number in range(200):
        act(tab, "red", model.Fight("nightgaunt") if number % 2 else model.Flee())
    assert tab.state.combat == "nightgaunt" and tab.game.turn(tab.state) == ("red",)
    assert tab.game.legal(tab.state, "red") == [model.Fight("nightgaunt"), model.Flee()]
    assert tab.game.legal(tab.state, "blue") == []


def test_ah_c6_ambush_still_forbids_the_flee_of_an_elusive_monster():
    """AH-C6: a monster both Elusive and Ambush: "no fleeing" still holds once the battle began (refused, as in
    arkham-5); its Fight is winnable here (Fight 3 + 0 >= toughness 1), so the scenario is accepted."""
    data = scenario([inv("red", "woods", fight=3)], [mon("gaunt", "woods", elusive=True, ambush=True,
                                                           combat_damage=0)])
    tab = Table.create(load("arkham"), "g-test", data, 1)
    act(tab, "red", model.Fight("gaunt"), dice=(5, 5, 5))
    rejected(act(tab, "red", model.Flee()), "AH-C6", "has Ambush: once combat began, no fleeing")
    assert tab.game.legal(tab.state, "red") == [model.Fight("gaunt")]


def _locked_in_other_world(version: str) -> Table:
    """The probe (/tmp/tableprobe/arkham_softlock.py): arkham/other-world played at random, red steered into a
    Fight whenever it may fight, until red is in combat with the Nightgaunt (the first seed of 0..199 that gets
    there)."""
    import random

    _, data = load_scenario("arkham/other-world")
    game = load("arkham", version)
    for seed in range(200):
        rng = random.Random(seed)
        tab = Table.create(game, "g-softlock01", data, seed)
        for number in range(400):
            state = tab.state
            if game.is_over(state):
                break
            seat = game.turn(state)[0]
            if state.combat == "nightgaunt" and seat == "red":
                return tab
            legal = game.legal(state, seat)
            fights = [command for command in legal if isinstance(command, model.Fight) and seat == "red"]
            tab.submit(seat, fights[0] if fights else rng.choice(legal), f"c-{number}")
    raise AssertionError("red never fought the Nightgaunt")  # pragma: no cover


@pytest.mark.parametrize("version", ["arkham-5", "arkham-6"])
def test_ah_c6_the_probe_of_other_world_ends_the_battle_under_arkham_6_only(version):
    """AH-C3, AH-C6: the probe's case through ``decide``: red in combat with the Nightgaunt on the bundled
    scenario, then 100 of red's legal commands chosen at random. arkham-6: the first Flee ends the battle
    (MonsterEvaded AH-C6, then CombatEnded "fled") and the game goes on. arkham-5: red is still in the battle."""
    import random

    tab = _locked_in_other_world(version)
    chooser = random.Random(7)
    for number in range(100):
        if tab.state.combat != "nightgaunt":
            break
        tab.submit("red", chooser.choice(tab.game.legal(tab.state, "red")), f"x-{number}")
    if version == "arkham-5":
        assert tab.state.combat == "nightgaunt" and tab.game.turn(tab.state) == ("red",)
        return
    assert tab.state.combat == ""
    fled = [envelope for envelope in tab.envelopes if envelope.type == "CombatEnded"][-1]
    assert (fled.event.monster, fled.event.outcome) == ("nightgaunt", "fled")
    assert tab.envelopes[fled.seq - 2].event == model.MonsterEvaded("red", "nightgaunt", "AH-C6")


@pytest.mark.parametrize("seed", [5, 12])
def test_ah_c6_random_bots_play_other_world_to_its_end_under_arkham_6(seed):
    """AH-C3, AH-C6, AH-1: random bots for every seat play arkham/other-world, at most 2000 commands. With seeds 5
    and 12 an arkham-5 game is still in combat with the Nightgaunt after 2000 commands; the arkham-6 game ends
    (all its Movement phases played) in far fewer, and audits."""
    _, data = load_scenario("arkham/other-world")
    ends = {}
    for version in ("arkham-5", "arkham-6"):
        game = load("arkham", version)
        tab = Table.create(game, "g-playout01", data, seed)
        made = playout(tab, {seat: bot(game, "random") for seat in game.seats(tab.state)}, Rng(seed), 2000)
        ends[version] = (made, game.is_over(tab.state), tab.state.combat)
        if version == "arkham-6":
            assert audit(game, tab.envelopes) is None
    assert ends["arkham-5"] == (2000, False, "nightgaunt")
    made, over, combat = ends["arkham-6"]
    assert over and combat == "" and made < 200, ends


def test_core_10_core_11_an_arkham_5_game_in_the_battle_moves_to_arkham_6_and_its_flee_ends_it():
    """CORE-10, CORE-11, AH-C6: red, locked with the Nightgaunt under arkham-5, proposes arkham-6; blue's yes moves
    the game; red's next Flee ends the battle with no roll. The change its players read is arkham-6's note, AH-C6."""
    tab = in_battle("arkham-5")
    proposed = tab.seq + 1
    assert types(act(tab, "red", ProposeRulesVersion("arkham-6"))) == ["RulesVersionProposed"]
    assert types(act(tab, "blue", AnswerRulesVersion(proposed, True)))[-1] == "RulesVersionChanged"
    assert tab.game.rules_version == "arkham-6"
    assert act(tab, "red", model.Flee())[-1] == model.CombatEnded("red", "nightgaunt", "fled")
    [(version, clause, text)] = events.games.load("arkham").changes_since("arkham-5")
    assert (version, clause) == ("arkham-6", "AH-C6")
    assert text.startswith("fleeing an Elusive monster always works, with no roll")
    assert audit(tab.game.version("arkham-5"), tab.envelopes) is None


def test_ah_c6_the_versions_list_ends_with_arkham_6_and_the_older_ones_start_as_released():
    """AH-C6: the released versions, oldest first; arkham-6 (AH-C6's flee) is the default; an older version's game still starts (and
    records) under its own name; rules.edition reads 6."""
    assert [g.rules_version for g in load("arkham").versions()] == [f"arkham-{n}" for n in range(1, 7)]
    assert load("arkham").rules_version == rules.RULES_VERSION == "arkham-6" and rules.edition("arkham-6") == 6
    _, data = load_scenario("arkham/other-world")
    for number in range(1, 7):
        tab = Table.create(load("arkham", f"arkham-{number}"), "g-test", data, 1)
        assert tab.envelopes[0].event.rules_version == f"arkham-{number}"


# --- where the rules leave a battle endless: arkham-6 refuses the scenario ---------------------------------------


def _locking(**monster) -> dict:
    """red (Fight 1, Sneak 1) and a monster of combat damage 0, toughness 2 in Rivertown."""
    gug = mon("gug", "rivertown", awareness=-1, combat_rating=0, combat_damage=0, toughness=2)
    gug.update(monster)
    return scenario([inv("red", "northside", sneak=1, fight=1), inv("blue", "northside", sneak=3, fight=5)],
                    [mon("zombie", "downtown"), gug])


@pytest.mark.parametrize(("monster", "why"), [
    ({"ambush": True}, "it has Ambush: no fleeing"),
    ({"ambush": True, "elusive": True}, "it has Ambush: no fleeing"),
    ({}, "a flee rolls Sneak 1 -1 = 0 dice and it is not Elusive"),
    # The Horror check of no die costs 4 Sanity of red's 5: red lives through it, and the battle goes on for ever.
    ({"horror_rating": -3, "horror_damage": 4}, "a flee rolls Sneak 1 -1 = 0 dice and it is not Elusive"),
    # 2 Horror dice may pass, and a pass costs only Nightmarish 4.
    ({"horror_rating": -1, "horror_damage": 5, "nightmarish": 4}, "a flee rolls Sneak 1 -1 = 0 dice and it is not "
                                                                  "Elusive"),
])
def test_ah_c3_ah_c4_ah_c6_a_scenario_with_a_battle_that_could_never_end_is_refused_under_arkham_6(monster, why):
    """AH-C3, AH-C4, AH-C6: against the Gug (combat damage 0: a failed round costs no Stamina, never a knock-out),
    red's Fight 1 + 0 = 1 die never reaches toughness 2, and red cannot flee (Ambush; or an Evade of no die
    against a monster that is not Elusive): a failed Evade (AH-C2) would lock red in a battle for ever. arkham-6
    refuses the scenario at the monster's path, ``bad-scenario``; arkham-5 still starts it (as released)."""
    data = _locking(**monster)
    with pytest.raises(ScenarioError) as refused:
        Table.create(load("arkham"), "g-test", data, 1)
    assert refused.value.code == "bad-scenario" and refused.value.path == "$.monsters[1]"
    assert str(refused.value) == (
        f"$.monsters[1]: Red Investigator (red) could be locked for ever in a battle with Gug: {why}; Fight 1 +0 = "
        "1 dice can never reach its toughness 2; and its combat damage 0 never knocks the investigator out (AH-C3, "
        "AH-C4, AH-C6)")
    assert Table.create(load("arkham", "arkham-5"), "g-test", data, 1).state.combat == ""


@pytest.mark.parametrize("monster", [
    {"combat_damage": 1},  # each failed round costs Stamina: red is knocked out in the end (AH-C4)
    {"elusive": True},  # arkham-6: fleeing it always works (AH-C6)
    {"awareness": 0},  # Sneak 1 + 0 = 1 die: a flee may pass (AH-C3)
    {"toughness": 1},  # Fight 1 + 0 = 1 die: a Combat check may pass
    {"at": "sky"},  # no investigator goes to the Sky
    # Will 3 - 3 = 0 Horror dice fail without a roll (AH-C1) and cost 5 Sanity, all red has: every battle with
    # the Gug ends at its Horror check, red driven insane (AH-C4); a review found it refused (a false alarm).
    {"horror_rating": -3, "horror_damage": 5},
    {"horror_rating": -1, "horror_damage": 5, "nightmarish": 5},  # a pass still costs Nightmarish 5 (AH-C6)
])
def test_ah_c3_a_scenario_whose_every_battle_can_end_starts_under_arkham_6(monster):
    """AH-C3, AH-C4, AH-C6: change one thing of the Gug and every battle can end: the scenario is accepted."""
    data = _locking(**monster)
    tab = Table.create(load("arkham"), "g-test", data, 1)
    assert tab.envelopes[0].event.rules_version == "arkham-6"


def test_ah_c6_every_bundled_scenario_starts_under_arkham_6():
    """AH-C6: the bundled scenarios allow no endless battle under arkham-6 (the Nightgaunt is Elusive)."""
    for name in ("crossing", "monster-street", "other-world"):
        _, data = load_scenario(f"arkham/{name}")
        assert rules.endless_battles(rules.boards.load_scenario(data), data) is None, name


def test_ah_c6_the_arkham_6_corpus_parts_from_arkham_5_only_at_a_flee_from_an_elusive_monster():
    """AH-C6, CORE-3: every arkham-6 bot game of the corpus audits under arkham-6; replayed under arkham-5 it
    either stays the same to its end, or parts at its first Flee from the Elusive Nightgaunt: arkham-6 logged
    MonsterEvaded (AH-C6) where arkham-5 rolls the Evade check (CheckRolled, AH-C1). At least one game flees so."""
    from pathlib import Path

    from events.log import audit_log
    from server import logfile

    folder = Path(__file__).resolve().parents[2] / "corpus" / "arkham" / "arkham-6"
    released = load("arkham", "arkham-5")
    parted = 0
    for path in sorted(folder.glob("*-[0-9].jsonl")):
        game, envelopes = logfile.read(path)
        assert game.rules_version == "arkham-6" and audit(game, envelopes) is None, path.name
        flees = [e.seq for e in envelopes if e.type == "MonsterEvaded" and e.event.rule == "AH-C6"
                 and envelopes[e.seq].type == "CombatEnded" and envelopes[e.seq].event.outcome == "fled"]
        divergence = audit_log(released, envelopes, follow=False).divergence
        if not flees:
            assert divergence is None, path.name
            continue
        parted += 1
        assert (divergence.seq, divergence.logged_rule, divergence.produced_rule) == (flees[0], "AH-C6", "AH-C1")
    assert parted >= 1
