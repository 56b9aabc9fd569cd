"""Echo: how many dice a check rolls and its chance of success.

    chronicle ask echo dice SCENARIO --investigator ID --check stealth --against ENEMY
    chronicle ask echo dice SCENARIO --investigator ID --check attention --against ENEMY
    chronicle ask echo dice SCENARIO --investigator ID --spell SPELL

Prints JSON and answers on the scenario as it starts, or with ``--log LOG --seq N`` instead of
SCENARIO on the state after event N of a real game. ``--investigator`` is an investigator id
(``melifaro``) or a seat (``red``); ``--against`` an enemy of the scenario (``novice-1``) or an
enemy card id (``novice-barking-fish``). Every check of the game rolls (skill − penalty) dice and
succeeds on any 5 or 6; below 1 die it fails without a roll. So:

- ``--check stealth``: evasion, Stealth − the enemy's evasion penalty (EC-4);
- ``--check attention``: the strike-order check, Attention − its attention penalty (EC-7);
- ``--check order-stealth``: the same check with Stealth, allowed the first time (EC-8);
- ``--spell``: a cast, Knowledge (obvious magic) or Intuition (true magic) − difficulty (EC-10).

``chance`` is exact, ``"65/81"`` (1 − (2/3)^dice), with ``percent`` rounded to 0.1 beside it.
"""

from __future__ import annotations

import argparse
import difflib

from events.games.echo import board as boards
from events.games.echo import rules
from events.games.echo.dice import chance, dice_count
from events.lookup import by_id
from server.cli.ask_common import add_question, position, reply
from server.cli.status import BAD_ARGS, CommandError

CHECKS = {
    "stealth": ("stealth", "evasion", "EC-4"),
    "attention": ("attention", "attention", "EC-7"),
    "order-stealth": ("stealth", "attention", "EC-8"),
}


def add_questions(subparsers: argparse._SubParsersAction) -> None:
    dice = add_question(subparsers, "dice", "the dice a check rolls and its chance of success",
                        "echo/first-case", run_dice)
    dice.add_argument("--investigator", required=True, metavar="ID", help="an investigator id or its seat")
    what = dice.add_mutually_exclusive_group(required=True)
    what.add_argument("--check", choices=sorted(CHECKS), help="stealth (evasion), attention or order-stealth "
                      "(strike order)")
    what.add_argument("--spell", metavar="SPELL", help="a spell the investigator knows, e.g. banishing-spark")
    dice.add_argument("--against", metavar="ENEMY", help="the enemy of a --check (scenario enemy or card id)")


def _unknown(option: str, what: str, given: str, known: list) -> CommandError:
    close = difflib.get_close_matches(given, known, 3)
    hint = f" (did you mean {', '.join(close)}?)" if close else f" (known: {', '.join(known)})"
    return CommandError(f"{option}: no {what} {given!r}{hint}", BAD_ARGS)


def _investigator(state, given: str):
    for inv in state.investigators:
        if given in (inv.id, inv.seat):
            return inv
    known = [inv.id for inv in state.investigators] + list(state.seats)
    raise _unknown("--investigator", "investigator or seat", given, known)


def _enemy_card(state, given: str | None):
    if given is None:
        raise CommandError("--against: a --check needs the enemy it is made against", BAD_ARGS)
    enemy = by_id(state.enemies, given)
    if enemy is not None:
        return enemy.id, boards.enemy_card(state.cards, enemy.card)
    card = by_id(state.cards.enemies, given)
    if card is not None:
        return None, card
    known = [enemy.id for enemy in state.enemies] + [card.id for card in state.cards.enemies]
    raise _unknown("--against", "enemy", given, known)


def run_dice(args: argparse.Namespace) -> int:
    state, origin = position(args, "echo", rules)
    inv = _investigator(state, args.investigator)
    answer: dict = {"investigator": inv.id, "seat": inv.seat, "name_ru": inv.name_ru, "name_en": inv.name_en}
    if args.spell is not None:
        spell = boards.spell(state.cards, args.spell)
        if spell is None:
            raise _unknown("--spell", "spell", args.spell, [card.id for card in state.cards.spells])
        skill = "knowledge" if spell.kind == "obvious" else "intuition"
        value = getattr(inv, skill)
        answer.update({"check": skill, "skill": value, "spell": spell.id, "spell_ru": spell.name_ru,
                       "spell_en": spell.name_en, "magic": spell.kind, "penalty": spell.difficulty,
                       "penalty_of": "difficulty", "price": spell.price, "in_combat": spell.combat,
                       "known": spell.id in inv.spells, "rule": "EC-10"})
        penalty = spell.difficulty
    else:
        skill, penalty_field, rule = CHECKS[args.check]
        enemy_id, card = _enemy_card(state, args.against)
        value = getattr(inv, skill)
        penalty = getattr(card, penalty_field)
        answer.update({"check": args.check, "skill": value, "against": enemy_id or card.id, "card": card.id,
                       "enemy_ru": card.name_ru, "enemy_en": card.name_en, "penalty": penalty,
                       "penalty_of": penalty_field, "rule": rule})
    count = dice_count(value, penalty)
    numerator, denominator = chance(count)
    answer.update({"dice": count, "chance": f"{numerator}/{denominator}", "numerator": numerator,
                   "denominator": denominator, "percent": round(100 * numerator / denominator, 1),
                   "success_on": "at least one 5 or 6" if count else "nothing: fewer than 1 die fails without a roll"})
    return reply(answer, origin)
