"""What each ``gloomhaven`` event says, as messages (``events/words.py``): the log line and the trace.

One describer for the browser's log (``client/eventlog.py``, in the reader's language) and
``chronicle explain`` (English). Figures and cards are named from the state before the event:
a character by its seat, a monster as "Bandit Guard 2 (elite)", a summon, a card, a monster type
by ``client/i18n/names/gloomhaven.<lang>.json`` (else the data's name), hexes as ``[q, r]``.

A monster's turn (``MonsterTurnPlanned``, GH-C4, GH-C7…GH-C11) carries the destinations it weighed
with step names and details that ``focus.py`` writes in English; they come from fixed lists
(``focus.C8_STEPS``, ``C9_STEPS``, ``STOP_STEPS``, ``LABELS``), so ``step`` and ``detail`` turn them
into catalogue keys (``gh.step.<English step>``, ``gh.label.<name>``); anything else stays as written.
"""

from __future__ import annotations

from events.games.gloomhaven.rules import _card
from events.lookup import by_id
from events.words import Join, Msg, Name, Seat, Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

GAME = "gloomhaven"
DECIDED = {"only enemy reachable": "only", "tied: the players choose (GH-C4)": "tied",
           "tied on initiative: the players choose (GH-C11)": "tied_initiative",
           "negative hexes on the path (GH-C4)": "negative", "path length (GH-6)": "path",
           "proximity (GH-6)": "proximity", "initiative order (GH-6)": "initiative",
           "initiative order (GH-V1)": "initiative_jotl"}
TIED = ": tied, the players choose (GH-C11)"
AREA = " (area, GH-C10)"
#: The names focus._detail gives compared values, longest first where one begins another.
LABELS = ("extras at disadvantage", "negative on the route", "negative/movement", "disadvantage", "movement now",
          "path left", "movement", "targets", "group", "value")


def hex_name(hex: tuple) -> str:
    return f"[{hex[0]}, {hex[1]}]"


def _route(hexes: tuple) -> Join:
    return Join(" → ", [hex_name(hex) for hex in hexes])


def decided(why: str) -> object:
    """What decided a monster's focus (focus.py's words) in the reader's language."""
    return Msg("gh.decided_" + DECIDED[why]) if why in DECIDED else why


def card(state: Any, card_id: object) -> object:
    """A card by its name (never its id, where the state knows it)."""
    found = _card(state, card_id) if state is not None and card_id else None
    return Name(GAME, found.name) if found is not None else str(card_id)


def cards(state: Any, card_ids: tuple, separator: str = " + ") -> Join:
    return Join(separator, [card(state, card_id) for card_id in card_ids])


def fig(state: Any, figure_id: object) -> object:
    """A figure by name: a seat, "Bandit Guard 2 (elite)", a summon's name."""
    found = by_id(state.figures, figure_id) if state is not None else None
    if found is None:  # an exhausted character has left the map (GH-1), its seat has not
        return Seat(figure_id) if state is not None and by_id(state.heroes, figure_id, "seat") is not None else str(figure_id)
    if found.kind == "character":
        return Seat(found.seat or figure_id)
    if found.kind == "monster":
        return Msg("gh.elite_monster" if found.rank == "elite" else "gh.monster", name=Name(GAME, found.name),
                   number=found.number)
    return Name(GAME, found.name)


def figs(state: Any, figure_ids: tuple) -> Join:
    return Join(", ", [fig(state, figure_id) for figure_id in figure_ids])


def named(state: Any, item: str) -> object:
    """A seat, a figure or a monster type, by name."""
    if state is not None and by_id(state.heroes, item, "seat") is not None:
        return Seat(item)
    if state is not None and by_id(state.figures, item) is not None:
        return fig(state, item)
    return Name(GAME, item)


def deck(state: Any, owner: str) -> Msg:
    """A modifier deck: a seat's, or the monsters' (``monsters``)."""
    return Msg("gh.deck_monsters") if owner == "monsters" else Msg("gh.deck_of", owner=named(state, owner))


def step(text: str) -> object:
    """``GH-C8 (2) most targets (area, GH-C10): tied, the players choose (GH-C11)`` as messages."""
    tied = text.endswith(TIED)
    base = text[: -len(TIED)] if tied else text
    area = base.endswith(AREA)
    base = base[: -len(AREA)] if area else base
    out: object = Word("gh.step.", base)
    if area:
        out = Msg("gh.step_area", step=out)
    return Msg("gh.step_tied", step=out) if tied else out


def detail(text: str) -> object:
    """``targets 1; movement 2 (best: targets 2; movement 3)`` (``focus._detail``) as messages."""
    if text.startswith("enters ") and "; " in text:  # GH-C4: "enters 2 negative hex(es); 0 is the fewest"
        first, _, rest = text.partition("; ")
        count, fewest = first.split(" ")[1], rest.split(" ")[0]
        return Msg("gh.detail_negative", n=int(count), fewest=fewest) if count.isdigit() else text
    main, _, best = text.partition(" (best: ")
    if best.endswith(")"):
        return Msg("gh.detail_best", scores=_scores(main), best=_scores(best[:-1]))
    return _scores(main)


def _scores(text: str) -> Join:
    parts: list = []
    for part in text.split("; "):
        label = next((name for name in LABELS if part.startswith(name + " ")), None)
        if label is None:
            parts.append(part)
            continue
        value = part[len(label) + 1:]
        shown = Word("gh.value.", value) if value in ("yes", "no", "none") else value
        parts.append(Join(" ", [Word("gh.label.", label), shown]))
    return Join("; ", parts)


def describe(event: Any, state: Any = None) -> Msg | None:
    """The log line of an event."""
    kind = event.TYPE
    s = state
    seat = Seat(getattr(event, "seat", ""))
    figure = fig(s, event.figure) if isinstance(getattr(event, "figure", None), str) else ""
    if kind == "GameStarted":
        return Msg("gh.started", seats=Join(", ", [Seat(x) for x in event.seats]), version=event.rules_version)
    if kind == "RoundStarted":
        return Msg("gh.round_started", round=event.round)
    if kind == "CardsSelected":
        if event.sealed:
            return Msg("gh.has_chosen", seat=seat)
        if event.long_rest:
            return Msg("gh.chose_long_rest", seat=seat)
        return Msg("gh.chose", seat=seat, cards=cards(s, event.cards, ", "), leading=card(s, event.leading))
    if kind == "CardsRevealed":
        parts = [Msg("gh.revealed_rest", seat=Seat(who)) if rest else
                 Msg("gh.revealed_cards", seat=Seat(who), cards=cards(s, chosen), leading=card(s, leading))
                 for who, chosen, leading, rest in event.picks]
        return Msg("gh.revealed", picks=Join("; ", parts))
    if kind == "MonsterCardDrawn":
        return Msg("gh.monster_card", group=Name(GAME, event.group), initiative=event.initiative)
    if kind == "InitiativeSet":
        return Msg("gh.order", order=Join(", ", [Join(" ", [fig(s, f), str(initiative)]) for f, initiative in event.order]))
    if kind == "TieOffered":
        return Msg("gh.tie", group=Join(", ", [named(s, g) for g in event.group]),
                   seats=Join(", ", [Seat(x) for x in event.seats]))
    if kind == "OrderChosen":
        return Msg("gh.order_chosen", seat=seat, order=Join(" → ", [named(s, item) for item in event.order]))
    if kind == "OrderProposed":
        return Msg("gh.order_proposed", seat=seat, order=Join(" → ", [named(s, item) for item in event.order]))
    if kind == "TurnStarted":
        return Msg("gh.turn_started", figure=figure)
    if kind == "CardPlayed":
        if event.skipped:
            return Msg("gh.played_skipped", seat=seat, card=card(s, event.card), half=Word("gh.half_", event.half))
        return Msg("gh.played", seat=seat, action=Word("gh.action_", event.action), card=card(s, event.card),
                   half=Word("gh.half_", event.half))
    if kind == "FigureMoved":
        return Msg("gh.moved", figure=figure, mode=Word("gh.mode_", event.mode), route=_route((event.start,) + event.path),
                   n=event.cost)
    if kind == "MonsterTurnPlanned":
        if not event.focus:
            return Msg("gh.no_focus", figure=figure)
        return Msg("gh.focus", figure=figure, focus=figs(s, event.focus), why=decided(event.decided_by),
                   n=len(event.options))
    if kind == "OptionChosen":
        if event.seat:  # the players' pick among tied options (GH-C4, GH-C11)
            return Msg("gh.option_chosen", seat=seat, index=event.index, figure=figure,
                       hex=hex_name(event.option.destination))
        return Msg("gh.option_given", index=event.index, figure=figure, hex=hex_name(event.option.destination))
    if kind == "AttackResolved":
        how = Msg("gh.attack_effect", effect=Word("gh.effect_", event.effect),
                  drawn=Join(", ", list(event.drawn))) if event.effect else ""
        return Msg("gh.attack", attacker=fig(s, event.attacker), target=fig(s, event.target), value=event.value,
                   used=event.used, how=how, damage=event.damage, n=event.hp)
    if kind == "TrapSprung":
        return Msg("gh.trap", figure=figure, hex=hex_name(event.hex), damage=event.damage)
    if kind == "HazardEntered":
        return Msg("gh.hazard", figure=figure, damage=event.damage)
    if kind == "DoorOpened":
        return Msg("gh.door", figure=figure, hex=hex_name(event.hex))
    if kind == "FigureDied":
        return Msg("gh.died", figure=figure)
    if kind == "FigureHealed":
        return Msg("gh.healed", figure=figure, amount=event.amount, n=event.hp)
    if kind == "FigureSummoned":
        return Msg("gh.summoned", seat=seat, name=Name(GAME, event.figure.name), hex=hex_name(event.figure.hex))
    if kind == "CharacterExhausted":
        return Msg("gh.exhausted", seat=seat, cause=Word("gh.cause_", event.cause))
    if kind == "CardsDiscarded":
        lost = Msg("gh.lost_cards", cards=cards(s, event.lost, ", ")) if event.lost else ""
        discarded = cards(s, event.discarded, ", ") if event.discarded else Msg("gh.nothing")
        return Msg("gh.discarded", seat=seat, cards=discarded, lost=lost)
    if kind == "LongRested":
        return Msg("gh.long_rested", seat=seat, card=card(s, event.lost), healed=event.healed)
    if kind == "ShortRestOffered":
        return Msg("gh.short_rest_offered", seats=Join(", ", [Seat(x) for x in event.seats]))
    if kind == "ShortRested":
        return Msg("gh.short_rested", seat=seat, card=card(s, event.lost))
    if kind == "ShortRestDeclined":
        return Msg("gh.short_rest_declined", seat=seat)
    if kind == "DeckReshuffled":
        return Msg("gh.reshuffled", deck=deck(s, event.deck))
    if kind == "RoundEnded":
        extra = Msg("gh.reshuffled_decks", decks=Join(", ", [deck(s, d) for d in event.reshuffled])) \
            if event.reshuffled else ""
        return Msg("gh.round_ended", round=event.round, extra=extra)
    if kind == "TurnEnded":
        return Msg("gh.turn_ended", figure=figure)
    if kind == "GameEnded":
        return Msg("gh.game_ended", outcome=Word("gh.outcome_", event.outcome), round=event.round)
    return None


#: The four notes GH-2/GH-C3 write into InitiativeSet (rules.py ``_order``), after "<a> and <b> ":
#: (message, head, middle, tail); the middle holds the other cards' "x < y", or "<a>" again.
_NOTES = (("gh.note_character_first", "both have initiative ", None, ": the character acts first (GH-2)"),
          ("gh.note_other_cards", "tie at ", ": their other cards (", ") decide (GH-2)"),
          ("gh.note_players_hero", "tie at ", " and on their other cards: the players put ", " first (GH-2)"),
          ("gh.note_players_group", "tie at ", ": the players put ", " first (GH-C3)"))


def _note(state: Any, note: str) -> Msg:
    """An initiative note in the reader's words, the two tied by name, where it reads as the rules
    write it (plain string work: ``re`` costs page load in Brython); else the note as written."""
    if state is not None:
        tied = [hero.seat for hero in state.heroes] + [group.name for group in state.groups]
        for a in tied:
            for b in tied:
                start = f"{a} and {b} "
                if a != b and note.startswith(start):
                    found = _note_rest(state, a, b, note[len(start):])
                    if found is not None:
                        return found
    return Msg("gh.note", note=note)


def _note_rest(state: Any, a: str, b: str, rest: str) -> Msg | None:
    for key, head, middle, tail in _NOTES:
        if not (rest.startswith(head) and rest.endswith(tail)):
            continue
        inner = rest[len(head):len(rest) - len(tail)]
        number, _, after = inner.partition(middle) if middle else (inner, "", "")
        if not number.isdigit() or (middle and middle not in inner):
            continue
        said = {"a": named(state, a), "b": named(state, b), "initiative": int(number)}
        if key == "gh.note_other_cards":
            mine, _, theirs = after.partition(" < ")
            if not (mine.isdigit() and theirs.isdigit()):
                continue
            said["mine"], said["theirs"] = int(mine), int(theirs)
        elif middle:
            if after != a:
                continue
            said["first"] = named(state, a)
        return Msg(key, **said)
    return None


def trace(event: Any, state: Any = None) -> list:
    """The rules' reasoning: a monster's focus and options (GH-C4, GH-C7…GH-C11) with every
    destination weighed, the initiative order (GH-3), an attack's modifier draw (GH-C5), a move."""
    kind = event.TYPE
    s = state
    if kind == "MonsterTurnPlanned":
        return _monster_turn(s, event)
    if kind == "InitiativeSet":
        order = Join(" → ", [Msg("gh.trace_initiative", figure=fig(s, f), initiative=initiative)
                             for f, initiative in event.order])
        return ([order] if event.order else []) + [_note(s, note) for note in event.notes]
    if kind == "AttackResolved":
        if event.effect:
            how = Msg("gh.trace_drew_effect", effect=Word("gh.effect_", event.effect), drawn=Join(", ", list(event.drawn)),
                      used=event.used)
        else:
            how = Msg("gh.trace_drew", used=event.used)
        return [Msg("gh.trace_attack", attacker=fig(s, event.attacker), target=fig(s, event.target), value=event.value,
                    how=how, deck=deck(s, event.deck), damage=event.damage, n=event.hp)]
    if kind == "FigureMoved":
        return [Msg("gh.trace_moved", figure=fig(s, event.figure), mode=Word("gh.mode_", event.mode),
                    route=_route((event.start,) + event.path), n=event.cost)]
    return []


def _monster_turn(s: Any, event: Any) -> list:
    figure = fig(s, event.figure)
    lines: list = []
    for c in event.candidates:
        if c.reachable:
            lines.append(Msg("gh.trace_candidate", figure=figure, enemy=fig(s, c.figure), negative=c.negative,
                             n=c.movement, proximity=c.proximity, initiative=c.initiative, order=c.order))
        else:
            lines.append(Msg("gh.trace_unreachable", figure=figure, enemy=fig(s, c.figure)))
    if not event.focus:
        lines.append(Msg("gh.trace_no_focus", figure=figure))
        return lines
    lines.append(Msg("gh.trace_focus", focus=figs(s, event.focus), why=decided(event.decided_by)))
    for d in event.destinations:
        toward = Msg("gh.trace_on_the_way", hex=hex_name(d.toward)) if d.toward is not None else ""
        lines.append(Msg("gh.trace_weighs", figure=figure, hex=hex_name(d.hex), toward=toward, focus=fig(s, d.focus),
                         verdict=Msg("gh.kept") if d.kept else Msg("gh.dropped"), step=step(d.step),
                         detail=detail(d.detail)))
    for index, option in enumerate(event.options):
        where = _route(option.path) if option.path else Msg("gh.stays")
        hits = figs(s, option.attacks) if option.attacks else Msg("gh.no_attack")
        if option.toward is not None:
            line = Msg("gh.trace_option_toward", index=index, where=where, toward=hex_name(option.toward), hits=hits)
        else:
            line = Msg("gh.trace_option", index=index, where=where, hits=hits)
        lines.append(Join("", [line, Msg("gh.with_disadvantage")]) if option.disadvantage else line)
    if len(event.options) > 1:
        lines.append(Msg("gh.equally_good"))
    return lines
