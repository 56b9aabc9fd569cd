"""Echo's refusals name enemies and cards as the log does, never by id (issue 17): "Novice of the
Order of the Barking Fish", not "… (novice-1)"; a spell by its name; "1 movement point"."""

from __future__ import annotations

from events.games.echo.model import CheckOrder, EndMove, Fight, Strike, Trade
from tests.games import tables
from tests.games.echo.helpers import act, scenario, table
from tests.games.echo.test_rules import duel

NOVICE = "Novice of the Order of the Barking Fish"


def said(lang, found):
    return tables.said("echo", lang, found)


def test_ec_15_an_enemy_is_named_and_one_movement_point_is_singular():
    """EC-15: ending the move beside the Novice names it (no id) and counts the points left in good English."""
    three = act(duel(), "red", EndMove())
    assert three.reason == (f"{NOVICE} is in The Old City / Старый Город: even with 3 movement points left, "
                            "Investigator red-t must defeat every enemy here or escape them all")
    one = act(duel(speed=1), "red", EndMove())
    assert (one.rule, one.reason) == ("EC-15", f"{NOVICE} is in The Old City / Старый Город: even with 1 movement "
                                      "point left, Investigator red-t must defeat every enemy here or escape them all")
    assert "novice-1" not in said("ru", one) and "осталась 1 единица движения" in said("ru", one)
    assert "même avec 1 point de mouvement restant," in said("fr", one)


def test_ec_9_a_strike_at_no_enemy_of_the_fight_lists_the_enemies_by_name():
    """EC-9: the id the client sent is quoted as sent; the enemies fought are named."""
    tab = duel()
    act(tab, "red", Fight())
    act(tab, "red", CheckOrder("attention"), (6, 6))
    refused = act(tab, "red", Strike("magister-1", "dagger"))
    assert (refused.rule, refused.reason) == ("EC-9", f"'magister-1' is not an enemy Investigator red-t is fighting "
                                              f"(fighting: {NOVICE})")


def test_ec_20_a_spell_offered_in_trade_is_named():
    """EC-20: Max offering his Banishing Spark is told the spell's name, not its id."""
    tab = table(scenario([("red", "max", "house-by-the-bridge"), ("blue", "kofa", "house-by-the-bridge")], []))
    refused = act(tab, "red", Trade("banishing-spark", "blue"))
    assert (refused.rule, refused.reason) == ("EC-20", "Banishing Spark is a spell: spells cannot be traded, only items")
    assert "banishing-spark" not in said("ru", refused) and "banishing-spark" not in said("fr", refused)


def test_ec_c4_an_artifact_or_an_undead_destroyed_at_the_threshold_reads_an_not_a():
    """EC-C4: the rules write "a artifact cannot be detained: …" into EnemyKilled (kept: logged games hash it);
    the log says "an artifact", "an undead", and French and Russian say it in their words."""
    from events.games.echo.model import EnemyKilled
    from server.i18n import say

    tab = duel()
    for kind, english, french in (("artifact", "an artifact", "un artefact"), ("undead", "an undead", "un mort-vivant")):
        event = EnemyKilled("novice-1", "red", 3, 0, f"a {kind} cannot be detained: destroyed at the detaining "
                            "threshold", "EC-C4")
        line = tab.game.describe(event, tab.state)
        assert f"{english} cannot be detained: destroyed at the detaining threshold" in say("en", line)
        assert french in say("fr", line) and " a " + kind not in say("en", line)


ORDER_WORDS = ("failed", "against", "counts", "failing", "every", "enemy", "strikes", "first", NOVICE, "Rebel Magister",
               "novice-1", "magister-1")


def order_said(tab, command_seat, dice):
    """The log line of the StrikeOrderSet a CheckOrder gives, described from the state before it, in en/fr/ru."""
    from server.i18n import say

    before = tab.state
    (order,) = [e for e in act(tab, command_seat, CheckOrder("attention"), dice) if e.TYPE == "StrikeOrderSet"]
    line = tab.game.describe(order, before)
    return order, {lang: say(lang, line) for lang in ("en", "fr", "ru")}


def test_ec_7_a_failed_strike_order_names_the_enemy_in_the_readers_words():
    """EC-7: "failed: Novice … (novice-1) strikes first" (kept in the event: logged games hash it) is said
    in French and Russian with the enemy's name in that language and no English word of the reason."""
    tab = duel()
    act(tab, "red", Fight())
    tab_order, text = order_said(tab, "red", (1, 1))
    assert tab_order.reason == f"failed: {NOVICE} (novice-1) strikes first"
    assert f"failed: {NOVICE} strikes first" in text["en"] and "novice-1" not in text["en"]
    for lang in ("fr", "ru"):
        assert not [word for word in ORDER_WORDS if word in text[lang]], text[lang]
    assert "frappe le premier" in text["fr"] and "первым бьёт" in text["ru"]


def test_ec_16_failing_against_one_enemy_of_a_group_is_said_in_the_readers_words():
    """EC-16: "failed against Rebel Magister (magister-1): counts as failing against all, …" in French and
    Russian names the enemy in that language, with no English word of the reason."""
    from tests.games.echo.test_rules import brawl

    tab = brawl()
    act(tab, "red", Fight())
    act(tab, "red", CheckOrder("attention"), (5, 1, 6))
    order, text = order_said(tab, "blue", (6, 1, 1, 2, 3))
    assert order.reason.startswith("failed against ") and "(magister-1)" in order.reason
    assert "counts as failing against all, every enemy strikes first" in text["en"] and "magister-1" not in text["en"]
    for lang in ("fr", "ru"):
        assert not [word for word in ORDER_WORDS if word in text[lang]], text[lang]
    assert "chaque ennemi frappe le premier" in text["fr"] and "все враги бьют первыми" in text["ru"]


def test_ec_7_a_strike_order_reason_that_does_not_read_as_the_rules_write_it_is_shown_as_written():
    """EC-7: an unknown enemy in the reason (or no state) falls back to the reason as the event holds it."""
    from events.games.echo.model import StrikeOrderSet
    from server.i18n import say

    tab = duel()
    event = StrikeOrderSet("red", False, "failed: Somebody (x-1) strikes first", "EC-7", True)
    assert "failed: Somebody (x-1) strikes first" in say("fr", tab.game.describe(event, tab.state))
    known = StrikeOrderSet("red", False, f"failed: {NOVICE} (novice-1) strikes first", "EC-7", True)
    assert f"failed: {NOVICE} (novice-1) strikes first" in say("fr", tab.game.describe(known, None))
