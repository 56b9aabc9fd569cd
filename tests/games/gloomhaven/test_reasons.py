"""Gloomhaven's refusals name cards and figures as the log does, in good English (issue 17: names,
never ids): a card by its name, a monster as "Bandit Guard 1 (elite)", a character by its seat; counts
in their plural forms; a target no way reaches said so (never "None hexes away")."""

from __future__ import annotations

from events.games.gloomhaven import rules
from events.games.gloomhaven.model import PlayCard, SelectCards
from events.rules import Rejection
from tests.games import tables
from tests.games.gloomhaven.helpers import act, card, hero_class, mcard, monster_type, open_map, scenario, table

NAMED = hero_class("Named", 10, [
    card("n-10", 10, {"attack": 2}, {"move": 3}, name="Eye for an Eye"),
    card("n-20", 20, {"attack": 3, "range": 3}, {"move": 1}, name="Leaping Cleave"),
    card("n-30", 30, {"attack": 2}, {"move": 2}, name="Grab and Go"),
])
GUARD = monster_type("Bandit Guard", [mcard("g-1", 90, {"move": 0})], move=0)
#: Every neighbour of (2, 2) is a wall: no way around the walls reaches a figure there.
BOXED = [[3, 2], [1, 2], [2, 3], [2, 1], [3, 1], [1, 3]]


def game(figures, walls=(), hand=None):
    tab = table(scenario(open_map(walls=list(walls)), [("red", "Named", (0, 2))], figures, classes=[NAMED],
                         types=[GUARD]))
    if hand is not None:
        tab.state = tab.state.but(heroes=rules._replace_hero(tab.state, "red", hand=hand))
    return tab


def refused(tab, command, dice=()):
    found = act(tab, "red", command, dice)
    assert isinstance(found, Rejection), found
    return found


def said(lang, found):
    return tables.said("gloomhaven", lang, found)


def test_gh_c5_an_elite_monster_out_of_melee_reach_is_named_not_its_id():
    """GH-C5: a melee attack on an elite Bandit Guard two hexes off names it "Bandit Guard 1 (elite)", in each language."""
    tab = game([("Bandit Guard", "elite", 1, (3, 2))])
    act(tab, "red", SelectCards(("n-10", "n-20"), "n-10"), (90,))
    found = refused(tab, PlayCard("n-10", "top", targets=("bandit-guard-1",)))
    assert (found.rule, found.reason) == ("GH-C5", "Bandit Guard 1 (elite) is not adjacent (a melee attack)")
    assert said("fr", found) == "Garde bandit 1 (élite) n’est pas adjacent (une attaque au corps à corps)"
    assert said("ru", found).startswith("Бандит-страж 1 (элита) ")


def test_gh_c5_a_target_no_way_reaches_is_said_so_never_none_hexes_away():
    """GH-C5: a target walled in on every side is refused with its own message, not "is None hexes away"."""
    tab = game([("Bandit Guard", "normal", 1, (2, 2))], walls=BOXED)
    act(tab, "red", SelectCards(("n-20", "n-10"), "n-20"), (90,))
    found = refused(tab, PlayCard("n-20", "top", targets=("bandit-guard-1",)))
    assert (found.rule, found.key) == ("GH-C5", "reject.gloomhaven.unreachable")
    assert found.reason == "no way around the walls leads to Bandit Guard 1; range is 3"
    assert said("ru", found) == "Бандит-страж 1: в обход стен не добраться; дальность 3"


def test_gh_c5_a_distance_and_a_count_of_targets_take_their_plural_forms():
    """GH-C5: "4 hexes away" (Russian "в 4 гексах"), "this attack has 1 target" (never "target(s)")."""
    tab = game([("Bandit Guard", "normal", 1, (4, 2)), ("Bandit Guard", "normal", 2, (8, -2))])
    act(tab, "red", SelectCards(("n-20", "n-10"), "n-20"), (90,))
    far = refused(tab, PlayCard("n-20", "top", targets=("bandit-guard-1",)))
    assert far.reason == "Bandit Guard 1 is 4 hexes away around walls; range is 3"
    assert said("ru", far) == "Бандит-страж 1 в 4 гексах в обход стен; дальность 3"
    two = refused(tab, PlayCard("n-20", "top", targets=("bandit-guard-1", "bandit-guard-2")))
    assert two.reason == "this attack has 1 target, got 2"
    assert said("fr", two) == "cette attaque a 1 cible, reçu 2"
    assert said("ru", two) == "у этой атаки 1 цель, получено 2"


def test_gh_3_cards_are_named_in_a_refusal_never_by_id():
    """GH-3 (and GH-C2): cards in hand, in play and used are named; an id the client sent that names no card is
    quoted as sent."""
    tab = game([("Bandit Guard", "normal", 1, (8, -2))])
    not_held = refused(tab, SelectCards(("n-10", "n-40"), "n-10"))
    assert not_held.reason == "card 'n-40' is not in red's hand (Eye for an Eye, Leaping Cleave, Grab and Go)"
    act(tab, "red", SelectCards(("n-10", "n-20"), "n-10"), (90,))
    act(tab, "red", PlayCard("n-10", "bottom", skip=True))
    used = refused(tab, PlayCard("n-10", "top", skip=True))
    assert (used.rule, used.reason) == ("GH-3", "Eye for an Eye was already used this turn: play the other card")
    assert said("fr", used) == "Œil pour œil a déjà servi ce tour : jouez l’autre carte"
    assert said("ru", used).startswith("Око за око ")
    other = refused(tab, PlayCard("n-30", "top", skip=True))
    assert other.reason == "card Grab and Go is not one of red's two cards in play (Eye for an Eye, Leaping Cleave)"


def test_gh_c6_one_card_in_hand_is_one_card():
    """GH-C6: one card in hand and no discard to rest with: "1 card", never "1 card(s)"."""
    tab = game([("Bandit Guard", "normal", 1, (8, -2))], hand=("n-10",))
    found = refused(tab, SelectCards(("n-10", "n-20"), "n-10"))
    assert (found.rule, found.reason) == ("GH-C6", "red holds 1 card: it cannot play two and must long rest")
    assert said("ru", found).startswith("у места «красный» в руке 1 карта:")


def test_gh_4_one_movement_point_and_one_spent_are_singular():
    """GH-4: "at most 1 movement point", "1 is spent"."""
    tab = game([("Bandit Guard", "normal", 1, (8, -2))])
    act(tab, "red", SelectCards(("n-20", "n-10"), "n-20"), (90,))
    nowhere = refused(tab, PlayCard("n-20", "bottom", to=(5, 2)))
    assert nowhere.reason == "no legal path of at most 1 movement point leads from [0, 2] to [5, 2]"
    assert said("fr", nowhere) == "aucun chemin légal d’au plus 1 point de mouvement ne mène de [0, 2] à [5, 2]"
    spent = refused(tab, PlayCard("n-20", "bottom", path=((1, 2), (2, 2))))
    assert spent.reason == "step 2 ([1, 2] → [2, 2]): the move is 1 and 1 is spent: this step costs 1"


def test_gh_c2_an_initiative_tie_waiting_reads_an_initiative_choice():
    """GH-C2: a card played while the tied seats settle their order: "settle an initiative choice", never "a
    initiative choice"; the French keeps "un choix d’initiative"."""
    from tests.games.gloomhaven.test_rules import duo, pick

    tab = duo()
    act(tab, "blue", SelectCards(("o-10", "o-20"), "o-10"))
    pick(tab, cards=("t-10", "t-20"), leading="t-10")
    found = refused(tab, PlayCard("t-10", "top", skip=True))
    assert (found.rule, found.reason) == ("GH-C2", "the players must first settle an initiative choice (blue, red)")
    assert said("fr", found) == "les joueurs doivent d’abord trancher un choix d’initiative (bleu, rouge)"
