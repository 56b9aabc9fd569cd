"""What each ``echo`` event says, as messages (``events/words.py``): the log line and the trace.

One describer for the browser's log (``client/eventlog.py``, in the reader's language) and
``chronicle explain`` (English). Places, cards, enemies and investigators are named from the state
before the event: the data holds Russian and English names, so a Russian reader gets the Russian
one, a French reader ``client/i18n/names/echo.fr.json`` (keyed by the English name), and English
the English one: never both.
"""

from __future__ import annotations

from events.lookup import by_id
from events.words import Join, Msg, Name, Seat, Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

GAME = "echo"


def _named(ru: str, en: str) -> Name:
    return Name(GAME, en, en, (("ru", ru),))


def name(state: Any, key: object) -> object:
    """A place, card, enemy (by its card) or investigator (``seat:<seat>``) by name; else the id."""
    if state is not None:
        place = by_id(state.map.locations, key)
        if place is not None:
            return _named(place.name_ru, place.name_en)
        foe = by_id(state.enemies, key)
        if foe is not None:
            key = foe.card
        for group in (state.cards.enemies, state.cards.spells, state.cards.items):
            card = by_id(group, key)
            if card is not None:
                return _named(card.name_ru, card.name_en)
    return str(key)


def who(state: Any, seat: str) -> object:
    """A seat with its investigator's name: ``red (Lisa)``."""
    inv = by_id(state.investigators, seat, "seat") if state is not None else None
    if inv is None:
        return Seat(seat)
    return Msg("echo.who", seat=Seat(seat), name=_named(inv.name_ru, inv.name_en))


def _faces(dice: tuple) -> str:
    return "[" + ", ".join(str(value) for value in dice) + "]" if dice else "[—]"


def _points(points: tuple) -> Join:
    return Join(", ", [Join(" ", [Seat(seat), str(mp)]) for seat, mp in points])


def _success(success: bool) -> Msg:
    return Msg("echo.success") if success else Msg("echo.failure")


def _why(reason: str) -> Word:
    """A reason the rules wrote into an event: translated where it is a fixed one (``echo.why_<English>``)."""
    return Word("echo.why_", reason)


#: The two reasons EC-7/EC-8 and EC-16 build with the enemies' names (rules.py ``_check_order``, each
#: enemy as ``enemy_name``: "<English name> (<id>)", joined by ", "): (message, parameter, head, tail).
_FAILED = (("echo.why_failed_all", "enemies", "failed against ",
            ": counts as failing against all, every enemy strikes first"),
           ("echo.why_failed_one", "enemy", "failed: ", " strikes first"))


def _enemies_named(state: Any, text: str) -> list | None:
    """The enemies ``text`` lists as the rules wrote them ("Novice … (novice-1), …"), by name; None if it
    does not read so (plain string work: ``re`` costs page load in Brython)."""
    if state is None or not text:
        return None
    labels = []
    for foe in state.enemies:
        for card in state.cards.enemies:
            if card.id == foe.card:
                labels.append((f"{card.name_en} ({foe.id})", foe.id))
    found = []
    rest = text
    while rest:
        for label, eid in labels:
            if rest == label or rest.startswith(label + ", "):
                found.append(name(state, eid))
                rest = rest[len(label) + 2:]
                break
        else:
            return None
    return found


def order_why(state: Any, reason: str) -> object:
    """A strike-order reason: the failed ones in the reader's words with the enemies by name, else ``_why``
    (the log's line and the board's combat panel, ``client/boards/echo.py``)."""
    for key, param, head, tail in _FAILED:
        if reason.startswith(head) and reason.endswith(tail) and len(reason) > len(head) + len(tail):
            found = _enemies_named(state, reason[len(head):len(reason) - len(tail)])
            if found:
                return Msg(key, **{param: Join(", ", found)})
    return _why(reason)


def describe(event: Any, state: Any = None) -> Msg | None:
    """The log line of an event (GameStarted too: each seat with its investigator)."""
    kind = event.TYPE
    s = state
    seat = Seat(getattr(event, "seat", ""))
    if kind == "GameStarted":
        return Msg("echo.started", seats=Join(", ", [who(s, item) for item in event.seats]))
    if kind == "RoundBegan":
        return Msg("echo.round_began", round=event.round, points=_points(event.points), first=Seat(event.first))
    if kind == "InvestigatorMoved":
        return Msg("echo.moved", seat=seat, start=name(s, event.start), to=name(s, event.to),
                   how=Word("echo.link_", event.link), n=event.mp)
    if kind == "EvasionRolled":
        outcome = Msg("echo.evaded") if event.success else Msg("echo.not_evaded")
        return Msg("echo.evasion", seat=seat, enemy=name(s, event.enemy), stealth=event.stealth, penalty=event.penalty,
                   n=len(event.dice), faces=_faces(event.dice), outcome=outcome)
    if kind == "CombatBegan":
        return Msg("echo.combat_began", location=name(s, event.location), seats=Join(", ", [Seat(x) for x in event.seats]),
                   enemies=Join(", ", [name(s, eid) for eid in event.enemies]))
    if kind == "CombatStepBegan":
        return Msg("echo.step_began", round=event.round, step=Word("echo.step_", event.step))
    if kind == "StrikeOrderRolled":
        return Msg("echo.order_rolled", seat=seat, enemy=name(s, event.enemy), skill=Word("echo.skill_", event.skill),
                   value=event.value, penalty=event.penalty, faces=_faces(event.dice), outcome=_success(event.success))
    if kind == "StrikeOrderSet":
        first = Msg("echo.strikes_first") if event.first else Msg("echo.enemies_first")
        return Msg("echo.order_set", seat=seat, first=first, reason=order_why(s, event.reason))
    if kind == "ItemStruck":
        return Msg("echo.item_struck", seat=seat, enemy=name(s, event.enemy), item=name(s, event.item))
    if kind == "SpellCast":
        return Msg("echo.spell_cast", seat=seat, spell=name(s, event.spell), skill=Word("echo.skill_", event.skill),
                   value=event.value, difficulty=event.difficulty, faces=_faces(event.dice),
                   outcome=_success(event.success))
    if kind == "PowerPaid":
        return Msg("echo.power_paid", seat=seat, n=event.price)
    if kind == "StrikePassed":
        return Msg("echo.strike_passed", seat=seat)
    if kind == "EnemyDamaged":
        return Msg("echo.enemy_damaged", enemy=name(s, event.enemy), sanity_loss=event.sanity_loss,
                   health_loss=event.health_loss, sanity=event.sanity, health=event.health)
    if kind == "EnemyAttacked":
        return Msg("echo.enemy_attacked", roller=Seat(event.roller), enemy=name(s, event.enemy), seat=seat,
                   blue=_faces(event.blue), sanity_loss=event.sanity_loss, red=_faces(event.red),
                   health_loss=event.health_loss, sanity=event.sanity, health=event.health)
    if kind == "FixedDamageDealt":
        return Msg("echo.fixed_damage", enemy=name(s, event.enemy), sanity_loss=event.sanity_loss,
                   health_loss=event.health_loss, seat=seat, sanity=event.sanity, health=event.health)
    if kind == "EnemyDetained":
        return Msg("echo.detained", enemy=name(s, event.enemy), seat=seat)
    if kind == "EnemyKilled":
        return Msg("echo.killed", enemy=name(s, event.enemy), reason=_why(event.reason))
    if kind == "InvestigatorDied":
        return Msg("echo.died", who=who(s, event.seat), reason=_why(event.reason))
    if kind == "InvestigatorSentAway":
        track = Msg("echo.sanity") if event.track == "sanity" else Msg("echo.health")
        return Msg("echo.sent_away", who=who(s, event.seat), to=name(s, event.to), track=track)
    if kind == "FightContinued":
        return Msg("echo.fights_on", seat=seat)
    if kind == "CombatLeft":
        return Msg("echo.escaped", seat=seat)
    if kind == "CombatRoundEnded":
        return Msg("echo.round_ended", round=event.round, points=_points(event.points))
    if kind == "CombatEnded":
        return Msg("echo.combat_ended", reason=_why(event.reason))
    if kind == "DetainedExchanged":
        return Msg("echo.exchanged", seat=seat, enemy=name(s, event.enemy), n=event.clues)
    if kind == "ItemTraded":
        return Msg("echo.traded", seat=seat, to=Seat(event.to), item=name(s, event.item))
    if kind == "TurnEnded":
        if event.next_seat:
            return Msg("echo.turn_ended_next", seat=seat, next=Seat(event.next_seat))
        return Msg("echo.turn_ended", seat=seat)
    if kind == "GameEnded":
        return Msg("echo.game_ended", reason=_why(event.reason))
    return None


def _check(value_name: object, value: int, penalty_name: object, penalty: int, dice: tuple, success: bool) -> Msg:
    """A check: the value, the penalty, the dice (one per point left, EC-C2) and the outcome."""
    count = value - penalty
    if count < 1:
        return Msg("echo.check_no_dice", value_name=value_name, value=value, penalty_name=penalty_name, penalty=penalty)
    outcome = Msg("echo.check_success") if success else Msg("echo.check_failure")
    return Msg("echo.check_dice", value_name=value_name, value=value, penalty_name=penalty_name, penalty=penalty,
               n=count, faces=_faces(dice), outcome=outcome)


def trace(event: Any, state: Any = None) -> list:
    """The rules' reasoning: checks (EC-4, EC-5, EC-8, EC-10), who rolls for an enemy (EC-13, EC-16),
    who fights (EC-16, EC-8), the link walked (EC-19), an enemy's end (EC-17)."""
    kind = event.TYPE
    s = state
    seat = Seat(getattr(event, "seat", ""))
    if kind == "EvasionRolled":
        lines = [Msg("echo.trace_vs", seat=seat, enemy=name(s, event.enemy),
                     check=_check(Msg("echo.skill_stealth"), event.stealth, Msg("echo.evasion_penalty"), event.penalty,
                                  event.dice, event.success))]
        if not event.success:
            failed = Msg("echo.trace_failed_evasion")
            lines.append(Join("", [failed, Msg("echo.trace_retry")]) if event.rule == "EC-5" else failed)
        return lines
    if kind == "StrikeOrderRolled":
        check = _check(Word("echo.skill_", event.skill), event.value, Msg("echo.attention_penalty"), event.penalty,
                       event.dice, event.success)
        line = Msg("echo.trace_vs", seat=seat, enemy=name(s, event.enemy), check=check)
        return [Join("", [line, Msg("echo.trace_stealth_first")]) if event.rule == "EC-8" else line]
    if kind == "SpellCast":
        magic = Msg("echo.obvious_magic") if event.skill == "knowledge" else Msg("echo.true_magic")
        return [Msg("echo.trace_cast", seat=seat, spell=name(s, event.spell), enemy=name(s, event.enemy), magic=magic,
                    check=_check(Word("echo.skill_", event.skill), event.value, Msg("echo.difficulty"),
                                 event.difficulty, event.dice, event.success))]
    if kind == "EnemyAttacked":
        lines = [Msg("echo.trace_roller", roller=Seat(event.roller), enemy=name(s, event.enemy), seat=seat),
                 Msg("echo.trace_attack", blue=_faces(event.blue), sanity_loss=event.sanity_loss,
                     red=_faces(event.red), health_loss=event.health_loss, seat=seat, sanity=event.sanity,
                     health=event.health)]
        if event.rule == "EC-16":
            lines.append(Msg("echo.trace_group_attack", enemy=name(s, event.enemy)))
        return lines
    if kind == "CombatBegan":
        lines = [Msg("echo.trace_combat", location=name(s, event.location),
                     seats=Join(", ", [Seat(x) for x in event.seats]),
                     enemies=Join(", ", [name(s, eid) for eid in event.enemies]))]
        if len(event.seats) > 1 or len(event.enemies) > 1:
            lines.append(Msg("echo.trace_group"))
        for forced in event.forced:
            lines.append(Msg("echo.trace_forced", seat=Seat(forced)))
        return lines
    if kind == "InvestigatorMoved":
        return [Msg("echo.trace_moved", seat=seat, start=name(s, event.start), to=name(s, event.to),
                    how=Word("echo.along_", event.link), cost=event.cost, n=event.mp)]
    if kind == "EnemyKilled":
        return [Msg("echo.trace_killed", enemy=name(s, event.enemy), sanity=event.sanity, health=event.health,
                    reason=_why(event.reason))]
    if kind == "EnemyDetained":
        return [Msg("echo.trace_detained", enemy=name(s, event.enemy), sanity=event.sanity, health=event.health,
                    seat=seat)]
    return []
