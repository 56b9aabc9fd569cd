"""The game contract: a game is a plain object of pure functions and some data.

Modelled on boardgame.io's game definition and the Decider pattern: ``start`` gives the first
events, ``decide`` turns a command into events or a Rejection, ``evolve`` folds one event into a
new state, and ``view``, ``legal``, ``is_over`` and ``turn`` answer the questions the shell, the
browser and bots ask. Every function is pure: no I/O, no clock, and randomness only through
the ``rng`` handed to ``decide``.
"""

from __future__ import annotations

from events import upgrade
from events.record import Record, Registry
from events.rules import CORE, Catalogue, Rejection, phrase, refuse
from events.undo import UNDO_COMMANDS, UNDO_EVENTS
from events.words import Join, Msg, Seat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


#: The dice keys a GameStarted may name (``GameStarted.dice_key``): CORE-12, each command keyed by its seq
#: in the whole log. A game that names none keys them as CORE-7 says (its position in the effective history).
DICE_KEYS = ("CORE-12",)


class GameStarted(Record):
    """The first event of every game: everything it started from, so a log alone replays it.

    ``scenario`` is the validated scenario as canonical JSON text (records hold no dicts), with
    every referenced file already inlined by whoever loaded it. ``commitment`` binds the game to
    the secret its dice come from without telling it (CORE-1, ``events.dice.commitment``).

    ``seed`` is None but in logs made before commitments existed: those named their seed openly
    (so their dice could be foreseen) and still replay and audit exactly, their dice re-derived
    from it (``events.dice.legacy_rng``). Each spelling keeps only its own field, so a log read
    and written again is the same bytes.

    ``dice_key`` names the clause that keys the game's dice: ``"CORE-12"`` (each command's dice keyed
    by the seq of its first event in the whole log, ``events.undo``) in every game made since CORE-12
    (``events.log.Table.create`` writes it); None, and absent from the data, in every game made before,
    whose dice CORE-7 keys (the command's position in the effective history).
    """

    __slots__ = ("game", "rules_version", "commitment", "seats", "scenario", "seed", "dice_key")
    __match_args__ = __slots__
    TYPE = "GameStarted"
    DEFAULTS = {"commitment": "", "seed": None, "dice_key": None}

    def __init__(
        self, game: str, rules_version: str, commitment: str, seats: tuple, scenario: str, seed: int | None = None,
        dice_key: str | None = None,
    ) -> None:
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise TypeError(f"seed must be an integer or null, got {seed!r}")
        if dice_key is not None and dice_key not in DICE_KEYS:
            raise TypeError(f"dice_key must be {' or '.join(DICE_KEYS)} or absent, got {dice_key!r}")
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "rules_version", rules_version)
        object.__setattr__(self, "commitment", commitment)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "scenario", scenario)
        object.__setattr__(self, "seed", seed)
        object.__setattr__(self, "dice_key", dice_key)

    def to_data(self) -> dict:
        data = Record.to_data(self)
        del data["commitment" if self.seed is not None else "seed"]
        if self.dice_key is None:  # a game made before CORE-12: spelt as it was logged
            del data["dice_key"]
        return data


class SecretRevealed(Record):
    """The game is over: its secret in the open, so anyone can check every die (CORE-2).

    The shell appends it (``events.log.Table``), never a game's ``decide``; folding it changes no
    state: every game's ``evolve`` has the one case ``case SecretRevealed(): return s`` (a wrapper
    around ``evolve`` would cost a call per event in Brython).
    """

    __slots__ = ("secret",)
    __match_args__ = __slots__
    TYPE = "SecretRevealed"
    RULE = "CORE-2"

    def __init__(self, secret: str) -> None:
        object.__setattr__(self, "secret", secret)


class RulesVersionChanged(Record):
    """The game moved from rules version ``from_version`` to ``to_version`` (CORE-3): every command
    from seq ``since_seq`` (the seq after this event) on is decided under ``to_version``.

    The shell appends it (``chronicle upgrade``), and only for a game that replays unchanged under
    the new version up to here (``events.log.audit_log`` checks it), or whose seats agreed: then
    ``agreed`` is the seq of the RulesVersionProposed they all said yes to (``events.upgrade``,
    CORE-10/11; ``Table.absorb`` checks it), else None and absent from the event's data. Folding it
    changes no state: every game's ``evolve`` has the case ``case RulesVersionChanged(): return s``;
    the ``Table`` that absorbs it switches its ``game`` (``events.log.Table.absorb``).
    """

    __slots__ = ("from_version", "to_version", "since_seq", "agreed")
    __match_args__ = __slots__
    TYPE = "RulesVersionChanged"
    RULE = "CORE-3"
    DEFAULTS = {"agreed": None}

    def __init__(self, from_version: str, to_version: str, since_seq: int, agreed: int | None = None) -> None:
        if not isinstance(since_seq, int) or isinstance(since_seq, bool) or since_seq < 2:
            raise TypeError(f"since_seq must be an integer of at least 2, got {since_seq!r}")
        if agreed is not None and (not isinstance(agreed, int) or isinstance(agreed, bool) or agreed < 2):
            raise TypeError(f"agreed must be the seq of a proposal (at least 2) or null, got {agreed!r}")
        object.__setattr__(self, "from_version", from_version)
        object.__setattr__(self, "to_version", to_version)
        object.__setattr__(self, "since_seq", since_seq)
        object.__setattr__(self, "agreed", agreed)

    def to_data(self) -> dict:
        data = Record.to_data(self)
        if self.agreed is None:  # a move because the log replays unchanged: spelt as before consent existed
            del data["agreed"]
        return data


# The core's events (every game folds them as the state itself) and commands (``events.upgrade``).
CORE_EVENTS = Registry("event", (SecretRevealed, RulesVersionChanged) + upgrade.EVENTS + UNDO_EVENTS)
# Decided by the Table, not the game: a seat's consent to a newer rules version (CORE-10, CORE-11,
# events/upgrade.py) and undo with consent (AskUndo, AnswerUndo: CORE-4, CORE-6, events/undo.py).
CORE_COMMANDS = Registry("command", upgrade.COMMANDS + UNDO_COMMANDS)


def _seats(seats: Any) -> Join:
    return Join(", ", [Seat(seat) for seat in seats])


def core_words(event: Any) -> Msg | None:
    """The words of the Table's own events, the same in every game: a rules-version proposal and
    its answers (CORE-10, CORE-11, ``events/upgrade.py``), an undo asked, answered and applied
    (CORE-4 to CORE-6, ``events/undo.py``); None for any other event."""
    kind = event.TYPE
    if kind == "RulesVersionProposed":
        return Msg("consent.log_proposed", seat=Seat(event.seat), version=event.to_version)
    if kind == "RulesVersionAnswered":
        return Msg("consent.log_yes" if event.yes else "consent.log_no", seat=Seat(event.seat), proposal=event.proposal)
    if kind == "UndoAsked":
        if event.needs:  # CORE-12: a request that draws anew says so
            return Msg("undo.asked_redraw" if event.redraw else "undo.asked", seat=Seat(event.seat), seq=event.back_to,
                       needs=_seats(event.needs))
        return Msg("undo.asked_free", seat=Seat(event.seat), seq=event.back_to)
    if kind == "UndoAnswered":
        if getattr(event, "why", None) == "CORE-12":  # a no that cites its clause: the request draws anew
            return Msg("undo.answered_no_redraw", seat=Seat(event.seat), request=event.request)
        return Msg("undo.answered_yes" if event.yes else "undo.answered_no", seat=Seat(event.seat),
                   request=event.request)
    if kind == "UndoApplied":
        if event.agreed:
            return Msg("undo.applied", seq=event.back_to, agreed=_seats(event.agreed))
        return Msg("undo.applied_free", seq=event.back_to)
    return None


class Flow(list):
    """The events one decision produced, each with the state it leads to: a game folds each once.

    ``decide`` needs the state its own events lead to (a move reveals a Location, then the turn
    ends on the state the reveal left), and the Table needs the state after every event to hash
    it. A Flow keeps both, so the Table folds nothing again (issue 13): the game emits each event
    through ``emit``, reads ``flow.state``, and returns the flow. It is the list of its events
    (``flow == [MechMoved(...), TurnEnded(...)]``), so whoever only wants the events reads it as
    one; a plain list is still a valid answer (the Table then folds it itself).

    ``start`` is the state the decision began from: the Table keeps the states only when it is
    the Table's own state and there is one per event (a flow extended with ``+=`` has fewer).
    Events reach a flow only through ``emit``: code that wants other events builds a new list
    (``flow[1:]``, ``flow + [...]`` are plain lists), never assigns into the flow.
    """

    def __init__(self, state: Any, evolve: Callable[[Any, Any], Any]) -> None:
        list.__init__(self)
        self.start = state
        self.state = state
        self.states: list = []
        self.evolve = evolve

    def emit(self, *events: Any) -> None:
        for event in events:
            self.state = self.evolve(self.state, event)
            self.append(event)
            self.states.append(self.state)

    def states_from(self, state: Any) -> list | None:
        """The state after each event if this flow began at ``state`` and is whole, else None."""
        if self.start is state and len(self.states) == len(self):
            return self.states
        return None


class Guards:
    """The opening checks every ``decide`` shares, as data: not started, over, unknown seat, and
    a command that is not one of the game's.

    Each game gives the clause they cite (``MV-C3``, ``AH-1``…) and, where its words differ, the
    reasons, as templates of the message catalogue (``{name}`` only, see ``events.rules.refuse``):
    ``over`` may name the state's fields (``"the game is over after round {round}"``), ``no_seat``
    names ``{seat}`` and may list ``{seats}``, ``foreign`` names the ``{command}``'s class (and
    cites ``foreign_rule``, the guards' clause unless given). A reason the game words itself is
    the message ``<keys>.<check>`` (``keys`` is the game's prefix, ``reject.mecha``), the others
    the core's ``reject.core.<check>``. ``Game`` runs them in that order before the game's own
    ``decide``, so the rules only ever see a started game that is not over, a seat of it and a
    command of its registry. ``words`` names the state fields ``over`` puts in that hold a code
    (gloomhaven's ``outcome``: ``won``, ``lost``…), each with its codes: each code is said as the
    message ``<keys>.<field>_<code>`` (spaces as ``_``), whose English is the code itself.
    """

    __slots__ = ("rule", "over", "no_seat", "not_started", "foreign", "foreign_rule", "keys", "words")

    def __init__(
        self, rule: str, over: str = "", no_seat: str = "", not_started: str = "", foreign: str = "",
        foreign_rule: str = "", keys: str = "", words: dict | None = None,
    ) -> None:
        self.rule = rule
        self.keys = keys
        self.words = words or {}
        self.over = self._wording("over", over)
        self.no_seat = self._wording("no_seat", no_seat)
        self.not_started = self._wording("not_started", not_started)
        self.foreign = self._wording("foreign", foreign)
        self.foreign_rule = foreign_rule or rule

    def _wording(self, check: str, template: str) -> tuple:
        """``(key, template)``: the game's own wording under its prefix, or the core's."""
        if not template:
            return f"reject.core.{check}", CORE_REASONS[check]
        if not self.keys:
            raise ValueError(f"Guards({self.rule!r}): a reason of the game's own ({check}) needs keys=, its prefix")
        return f"{self.keys}.{check}", template

    def word_keys(self) -> dict:
        """``{message key: English}`` of every code in ``words``."""
        return {f"{self.keys}.{name}_{code.replace(' ', '_')}": code for name in self.words for code in self.words[name]}

    def _said(self, name: str, value: Any) -> Any:
        if name in self.words and value in self.words[name]:
            return phrase(f"{self.keys}.{name}_{value.replace(' ', '_')}", value)
        return value

    def refusal(self, game: Game, state: Any, seat: str, command: Any) -> Rejection | None:
        """The Rejection of the first check that fails, or None when the game's rules decide."""
        if state is None:
            return refuse(self.rule, *self.not_started)
        if game.is_over(state):
            key, template = self.over
            return refuse(self.rule, key, template, **{name: self._said(name, getattr(state, name))
                                                      for name in _names(template)})
        known = game.seats(state)
        if seat not in known:
            return refuse(self.rule, *self.no_seat, seat=seat, seats=tuple(known))
        if game.commands.by_type.get(getattr(command, "TYPE", None)) is not type(command):
            return refuse(self.foreign_rule, *self.foreign, command=type(command).__name__)
        return None


#: The core's wording of each guard (the messages ``reject.core.*``), where a game gives none.
CORE_REASONS = {
    "over": "the game is over",
    "no_seat": "there is no seat '{seat}' in this game",
    "not_started": "the game has not started",
    "foreign": "{command} is not a command of this game",
}


def _names(template: str) -> list:
    """The ``{name}``s a template puts in, in order."""
    names = []
    for part in template.split("{")[1:]:
        names.append(part.split("}", 1)[0])
    return names


def _public(event: Any) -> None:
    """The visibility of a game without hidden information: every event is everybody's."""
    return None


class Game:
    """One rule system. Built once per game package; the shell never looks inside.

    With ``guards`` (a ``Guards``), ``decide`` is the game's rules behind the shared opening
    checks; ``rules_decide`` is always the game's own function, as it was given.
    """

    def __init__(
        self,
        name: str,
        rules_version: str,
        catalogue: Catalogue,
        events: Registry,
        commands: Registry,
        start: Callable[[dict, str], list],
        decide: Callable[[Any, str, Any, Any], list | Rejection],
        evolve: Callable[[Any, Any], Any],
        view: Callable[[Any, str | None], Any],
        legal: Callable[[Any, str], list],
        is_over: Callable[[Any], bool],
        turn: Callable[[Any], tuple],
        seats: Callable[[Any], tuple],
        words: Any = None,
        visibility: Callable[[Any], tuple | None] | None = None,
        redact: Callable[[Any], Any] | None = None,
        guards: Guards | None = None,
    ) -> None:
        if "GameStarted" not in events:
            raise ValueError(f"game {name!r} must register GameStarted among its events")
        self.name = name
        self.rules_version = rules_version
        # The core's clauses (CORE-1, CORE-2) and its event (SecretRevealed) are every game's too.
        self.catalogue = catalogue.with_core(CORE)
        events.core = CORE_EVENTS  # the game's registry itself: a copy made through __dict__ is slow in Brython
        self.events = events
        commands.core = CORE_COMMANDS  # the Table's own commands: rules-version consent and undo
        self.commands = commands
        self.start = start
        self.rules_decide = decide
        self.guards = guards
        self.decide = decide if guards is None else self._guarded
        self.evolve = evolve  # folds SecretRevealed too: one case of every game's match (CORE-2)
        self.view = view
        self.legal = legal
        self.is_over = is_over
        self.turn = turn
        self.seats = seats
        # The game's describer (``events/games/<g>/words.py``): ``describe(event, state)`` -> a Msg,
        # ``trace(event, state)`` -> a list of Msg, ``state`` the one before the event (events/words.py).
        self.words = words
        # Hidden information (optional; a game without it shows every event to everybody):
        # ``visibility(event)`` -> the seats that may see it in full while the game runs, or None
        # for everybody; ``redact(record)`` -> the public form of a secret event or command (None
        # withholds a command). The state every viewer folds must hash the same either way.
        self.visibility = visibility or _public
        self.hides = self.visibility is not _public  # False: every event of this version reaches everybody in full
        self.redact = redact or (lambda record: record)
        self.previous: Game | None = None  # the rules version this one revised, if any (``revised``)
        self.successor: Game | None = None  # the rules version that revised this one, if any
        self.notes: tuple = ()  # what this version changed from ``previous``: (clause id, text) pairs
        # Records this version's states hold in place of its model's (a frozen version's older shape,
        # e.g. gloomhaven-1's Option): a snapshot decodes through them first (server/snapshots.py).
        self.state_records: tuple = ()

    def __repr__(self) -> str:
        return f"Game({self.name!r}, rules {self.rules_version})"

    def _guarded(self, state: Any, seat: str, command: Any, rng: Any) -> list | Rejection:
        """``decide`` of a game with guards: the shared opening checks, then the game's rules."""
        refused = self.guards.refusal(self, state, seat, command)  # type: ignore[union-attr]
        if refused is not None:
            return refused
        return self.rules_decide(state, seat, command, rng)

    def describe(self, event: Any, state: Any = None) -> Any:
        """What ``event`` says (an ``events.words.Msg``), ``state`` the one before it; the core's events
        (CORE-2's SecretRevealed, CORE-3's RulesVersionChanged, and GameStarted unless the game words
        it) are worded the same in every game; an event the describer does not know is its type name."""
        if isinstance(event, SecretRevealed):
            return Msg("log.secret_revealed")
        if isinstance(event, RulesVersionChanged):
            if event.agreed is not None:  # the seats agreed to a proposal (CORE-10, CORE-11)
                return Msg("consent.log_agreed", old=event.from_version, new=event.to_version)
            return Msg("words.rules_changed", old=event.from_version, new=event.to_version, seq=event.since_seq)
        core = core_words(event)
        if core is not None:
            return core
        found = None if self.words is None else self.words.describe(event, state)
        if found is None and isinstance(event, GameStarted):  # a game may word its own (skirmish: the sides)
            return Msg("log.started", seats=Join(", ", [Seat(seat) for seat in event.seats]), version=event.rules_version)
        return event.TYPE if found is None else found

    def trace(self, event: Any, state: Any = None) -> list:
        """The rules' reasoning behind ``event`` (a list of ``events.words.Msg``), for the log and ``explain``."""
        if self.words is None or event.TYPE in CORE_EVENTS.by_type or isinstance(event, GameStarted):
            return []
        return list(self.words.trace(event, state))

    def revised(self, rules_version: str, notes: tuple = (), **changes: Any) -> Game:
        """A new rules version of this game: the same game with some of its parts replaced.

        A rule fix never edits a released version: it is released as ``GAME = OLD.revised("x-3",
        decide=decide_3)``, where ``decide_3`` may call the old one for everything it does not
        change. The new version keeps a link to the old (``previous``), so every released version
        stays importable and a log is always played under the version it names. ``notes`` say
        what differs from the previous version, as ``(clause id, what changed)`` pairs: pages
        show them to the players of an older game.
        """
        for clause_id, _text in notes:
            if clause_id not in changes.get("catalogue", self.catalogue):
                raise ValueError(f"{self.name} {rules_version}: a note cites unknown clause {clause_id!r}")
        if rules_version == self.rules_version or rules_version in [g.rules_version for g in self.versions()]:
            raise ValueError(f"{self.name}: rules version {rules_version!r} is released already")
        parts = {name: getattr(self, name) for name in _PARTS}
        parts["decide"] = self.rules_decide  # a revised decide goes behind the same guards
        unknown = sorted(set(changes) - set(parts))
        if unknown:
            raise TypeError(f"a game has no part {unknown[0]!r} (parts: {', '.join(_PARTS)})")
        if self.successor is not None:
            raise ValueError(f"{self.name} {self.rules_version} was revised already, as {self.successor.rules_version}: "
                             "revise the newest version")
        if "start" not in changes:  # the same setup, recorded under the new version's name
            parts["start"] = stamped(self.start, rules_version)
        parts.update(changes)
        revised = Game(self.name, rules_version, **parts)
        revised.previous = self
        self.successor = revised  # set once, where the version is released: every version finds every other
        revised.notes = tuple(notes)
        return revised

    def changes_since(self, rules_version: str) -> tuple:
        """What every version after ``rules_version`` changed, up to this one: ``(version, clause, text)``."""
        later = []
        for game in reversed(self.versions()):
            if game.rules_version == rules_version:
                return tuple(reversed(later))
            later.extend((game.rules_version, clause, text) for clause, text in reversed(game.notes))
        raise KeyError(f"{self.name} has no rules version {rules_version!r}")

    def newest(self) -> Game:
        """The newest released version of this game (this one, unless it was revised)."""
        game = self
        while game.successor is not None:
            game = game.successor
        return game

    def versions(self) -> tuple:
        """Every released version of this game up to this one, oldest first, ending with this one."""
        chain = []
        game: Game | None = self
        while game is not None:
            chain.append(game)
            game = game.previous
        return tuple(reversed(chain))

    def version(self, rules_version: str) -> Game:
        """The released version named ``rules_version``, older or newer; ``KeyError`` names the known ones."""
        released = self.newest().versions()
        for game in released:
            if game.rules_version == rules_version:
                return game
        known = ", ".join(g.rules_version for g in released)
        raise KeyError(f"{self.name} has no rules version {rules_version!r} (released: {known})")

    def visible(self, envelope: Any, seat: str | None, over: bool = False) -> Any:
        """What ``seat`` (None: a spectator) may receive of an envelope: itself, or a redacted copy.

        Once the game is over every envelope is public. A redacted copy keeps seq, seat, rule and
        hash, carries the event's public form, and withholds the command and dice behind it.
        """
        if over:
            return envelope
        allowed = self.visibility(envelope.event)
        if allowed is None or (seat is not None and seat in allowed):
            return envelope
        return envelope.redacted(self.redact(envelope.event),
                                 None if envelope.command is None else self.redact(envelope.command))


def over_flag(state: Any) -> bool:
    """Over once its GameEnded set the state's ``over`` flag: the ``is_over`` of every game whose state
    keeps one (mecha, arkham, echo and skirmish name it ``is_over`` in their rules module, for ``released``)."""
    return state is not None and state.over


def released(name: str, rules_version: str, rules: Any, words: Any, catalogue: Catalogue, events: Registry,
             commands: Registry, view: Callable, **parts: Any) -> Game:
    """The first released version of a game, built from its rules module by name: ``start``, ``decide``,
    ``evolve``, ``legal``, ``is_over``, ``turn``, ``seats`` and ``GUARDS`` are read from ``rules``, and
    its describer is ``words`` (so every game package builds its ``Game`` in one shape); ``parts`` replace any of them
    (``decide=rules.decide_1``) or add the optional ones (``visibility``, ``redact``). ``start`` records
    ``rules_version`` in its GameStarted (``stamped``), whatever version the module starts games under.
    """
    given = {part: getattr(rules, part) for part in ("start", "decide", "evolve", "legal", "is_over", "turn", "seats")}
    given["guards"] = getattr(rules, "GUARDS", None)
    given["words"] = words
    given.update(parts)
    given["start"] = stamped(given["start"], rules_version)
    return Game(name, rules_version, catalogue, events, commands, view=view, **given)


_PARTS = (
    "catalogue", "events", "commands", "start", "decide", "evolve", "view", "legal", "is_over", "turn", "seats",
    "words", "visibility", "redact", "guards",
)


def stamped(start: Callable, rules_version: str) -> Callable:
    """``start`` with its GameStarted recorded under ``rules_version`` (for a released version
    whose rules module now starts games under a newer name).

    A start that records ``rules_version`` already is answered as it is (its Flow, folded once);
    a restamped one is a plain list, which the Table folds (its states came from another event).
    Stamping a stamped start stamps the original once.
    """
    original = getattr(start, "original", start)

    def start_stamped(scenario: dict, seed: Any) -> list:
        started = original(scenario, seed)
        for event in started:
            if isinstance(event, GameStarted) and event.rules_version != rules_version:
                break
        else:
            return started
        return [event.but(rules_version=rules_version) if isinstance(event, GameStarted) else event
                for event in started]

    start_stamped.original = original  # type: ignore[attr-defined]
    return start_stamped


def rule_of(event: Any) -> str | None:
    """The clause an event cites: its ``rule`` field, or its class's ``RULE``."""
    return getattr(event, "rule", None) or getattr(type(event), "RULE", None)
