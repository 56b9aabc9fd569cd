"""Rule citations: clause catalogues and the Rejection every refusal is made of.

A clause ID (``MV-6c``, ``GH-4``) is the contract between a rule text, the code and the tests: a
rejection cites the clause that forbids the command, an event cites the clause that produced it.
"""

from __future__ import annotations

from events.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Rejection(Record):
    """A refused command: the clause that forbids it and the specific fact that triggered it.

    ``reason`` is the fact in English (the CLI prints it, old clients show it). ``key`` and
    ``params`` are the same fact as a message of the catalogue (``client/i18n/*.json``): its key and
    its named parameters as ``(name, value)`` pairs, values being ints, strings, None, tuples of them,
    ``Phrase``s or ``Named`` things. Build one with ``refuse``, which words ``reason`` from the very template the
    English catalogue holds, so a page renders the fact in its reader's language (docs/i18n.md).
    """

    __slots__ = ("rule", "reason", "key", "params")
    __match_args__ = __slots__
    TYPE = "Rejection"
    DEFAULTS = {"key": "", "params": ()}

    def __init__(self, rule: str, reason: str, key: str = "", params: tuple = ()) -> None:
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "params", params)

    def __str__(self) -> str:
        return f"{self.rule}: {self.reason}"


class Phrase(Record):
    """A part of a reason that is a message itself (``the Camp``, ``Location 3``): its key, its
    parameters as ``(name, value)`` pairs and its English text. Build one with ``phrase``."""

    __slots__ = ("key", "params", "text")
    __match_args__ = __slots__
    TYPE = "Phrase"

    def __init__(self, key: str, params: tuple, text: str) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "params", params)
        object.__setattr__(self, "text", text)


class Named(Record):
    """A thing of the game's data in a reason: its id, which the page looks up in the names of its
    language (``client/i18n/names/``), and its name as the data gives it (the English text, and the
    page's fallback), and the names the data itself gives in other languages, as ``(language,
    name)`` pairs (echo's Russian names). Build one with ``named``."""

    __slots__ = ("id", "text", "own")
    __match_args__ = __slots__
    TYPE = "Named"

    def __init__(self, id: str, text: str, own: tuple = ()) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "own", own)


def named(id: str, text: str, **own: str) -> Named:
    """``named("rivertown", "Rivertown")``; ``named(en, en, ru=name_ru)`` where the data names it in Russian."""
    return Named(id, text, tuple((language, own[language]) for language in sorted(own)))


def refuse(rule: str, key: str, template: Any, **params: Any) -> Rejection:
    """The Rejection citing ``rule`` whose reason is the message ``key``: ``template`` (the English
    catalogue's text for ``key``, a string or plural forms chosen by ``n``) with ``params`` put in.
    A parameter cannot be named ``rule``, ``key`` or ``template``; one named ``*seat*`` is a seat."""
    pairs = _pairs(params)
    return Rejection(rule, english(template, dict(pairs)), key, pairs)


def phrase(key: str, template: Any, **params: Any) -> Phrase:
    """A message used as a parameter of another, worded in English as ``refuse`` words a reason."""
    pairs = _pairs(params)
    return Phrase(key, pairs, english(template, dict(pairs)))


def english(template: Any, params: dict) -> str:
    """``template`` with ``params`` put in, as ``client.i18n.render`` puts them into the English
    catalogue's text (``{name}`` only; plural forms ``one``/``other`` by the parameter ``n``)."""
    if isinstance(template, dict):
        template = template["one" if params.get("n") == 1 else "other"]
    out = []
    rest = template
    while True:
        start = rest.find("{")
        if start < 0:
            out.append(rest)
            break
        end = rest.find("}", start)
        name = rest[start + 1 : end]
        if end < 0 or name not in params:
            raise KeyError(f"template {template!r} names {name!r}, which is not a parameter")
        out.append(rest[:start])
        out.append(words(params[name]))
        rest = rest[end + 1 :]
    return "".join(out)


def words(value: Any) -> str:
    """A parameter's English text: a Phrase's own, a tuple's items joined by commas."""
    if isinstance(value, (Phrase, Named)):
        return value.text
    if isinstance(value, tuple):
        return ", ".join(words(item) for item in value)
    if value is None:
        return ""
    return str(value)


MAX_QUOTED = 80  # characters of a string parameter kept in a refusal: a client's own text is quoted, not echoed


def _clipped(value: Any) -> Any:
    """A string parameter longer than ``MAX_QUOTED`` cut to it, with an ellipsis: a refusal quotes
    what a client sent (a name that is no Location) and its frame must stay small (issue 16)."""
    if isinstance(value, str) and len(value) > MAX_QUOTED:
        return value[:MAX_QUOTED] + "…"
    return value


def _pairs(params: dict) -> tuple:
    return tuple((name, _clipped(params[name])) for name in sorted(params))


def message_data(value: Any) -> Any:
    """A parameter as JSON data for a frame: a Phrase becomes ``{"key", "params"}``, tuples lists."""
    if isinstance(value, Phrase):
        return {"key": value.key, "params": {name: message_data(item) for name, item in value.params}}
    if isinstance(value, Named):
        data = {"id": value.id, "name": value.text}
        if value.own:
            data["own"] = {language: name for language, name in value.own}
        return data
    if isinstance(value, tuple):
        return [message_data(item) for item in value]
    return value


class Clause(Record):
    """One clause of a rule catalogue: its ID, a short title and our own wording of it."""

    __slots__ = ("id", "title", "text")
    __match_args__ = __slots__
    TYPE = "Clause"

    def __init__(self, id: str, title: str, text: str) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "title", title)
        object.__setattr__(self, "text", text)


class Catalogue:
    """A game's clauses by ID; citing an ID the catalogue lacks is a programming error.

    ``core`` is the engine's own catalogue (``CORE``), which every game's cites too: lookups find
    its clauses, while ``ids()`` and ``by_id`` stay the game's own (its digest's clauses).
    """

    def __init__(self, clauses: tuple, core: Catalogue | None = None) -> None:
        self.by_id: dict[str, Clause] = {}
        self.core = core
        for clause in clauses:
            if clause.id in self.by_id:
                raise ValueError(f"clause {clause.id} is listed twice")
            self.by_id[clause.id] = clause

    def __contains__(self, clause_id: str) -> bool:
        return clause_id in self.by_id or (self.core is not None and clause_id in self.core)

    def __getitem__(self, clause_id: str) -> Clause:
        found = self.get(clause_id)
        if found is None:
            raise KeyError(f"no clause {clause_id!r} in this catalogue")
        return found

    def get(self, clause_id: str) -> Clause | None:
        """The clause, the game's own or the core's, or None."""
        found = self.by_id.get(clause_id)
        if found is None and self.core is not None:
            return self.core.get(clause_id)
        return found

    def with_core(self, core: Catalogue) -> Catalogue:
        """The same clauses, with ``core``'s found too."""
        return Catalogue(tuple(self.by_id.values()), core)

    def ids(self) -> list[str]:
        return list(self.by_id)


#: The core's own clauses, which every game cites too (``Game`` makes its catalogue find them):
#: what the engine itself promises whatever the rules (issue 12).
CORE_CLAUSES = (
    Clause("CORE-1", "Committed dice", "Every random outcome of a game comes from a secret the server draws when "
           "the game is created and shows nobody while it runs. GameStarted carries a commitment to it: the "
           "SHA-256 of the game id and the secret. Each command's dice are derived from the secret and the "
           "command's sequence number, so no seat or spectator can foresee a roll, and no two commands' "
           "dice say anything about each other."),
    Clause("CORE-2", "Secret revealed", "When the game ends, the server publishes its secret in a SecretRevealed "
           "event. Anyone can then check it against the commitment in GameStarted and re-decide every command "
           "of the log, dice included: a changed outcome or a changed secret is caught."),
    Clause("CORE-3", "Rules version moved", "A game is played under the rules version its GameStarted names. It "
           "moves to a newer released version only when its log so far replays unchanged under that version, or "
           "when its seats agree; a RulesVersionChanged event records the move and the seq from which every "
           "command is decided under the new version. Replay and audit follow it."),
    Clause("CORE-10", "Rules version proposed", "A seat of a game that is not over may propose moving it to a "
           "newer released rules version. Spectators cannot; at most one proposal is open at a time. The "
           "proposal is logged, and its own seat's yes goes with it."),
    Clause("CORE-11", "Rules version answered", "Every other seat answers an open proposal yes or no, once. When "
           "the last of them says yes, the game moves (CORE-3) and the move records the proposal the seats agreed "
           "to. A no ends the proposal, and so does any command of the game made before every seat said yes: "
           "the seats agree on the game as it stands."),
    Clause("CORE-4", "Undo", "A seat may ask to take back its own last commands: from one of its own commands still "
           "in play to the end of the game so far, at most 16 commands. The request (UndoAsked) and each answer "
           "are logged; once every yes it needs is in, UndoApplied follows and the state is again the state before "
           "the first command taken back. What was taken back stays in the log, struck through. Nothing is taken "
           "back once the game is over (its secret revealed), nor across a rules version move."),
    Clause("CORE-5", "Whose yes an undo needs", "Taking back only one's own commands since another seat's last "
           "decision needs nobody's yes and is applied at once. Crossing another seat's command needs that seat's "
           "yes. Crossing a random outcome (a command that drew dice or tokens) or a reveal of hidden information "
           "needs the yes of every seat. The seat that asks has said yes by asking."),
    Clause("CORE-6", "Answering an undo", "Only a seat whose yes the open request needs answers it, once. A no "
           "refuses the request, and the same seat may not ask for the same undo again before some command is "
           "made. A new command by anyone while a request is open withdraws it. One request is open at a time."),
    Clause("CORE-7", "No re-roll by undo", "A command's dice are derived from its position in the game as played: "
           "its sequence number in the log without the undo events and without what was taken back. A command made "
           "again at the same point of the game gets the same random outcomes."),
    Clause("CORE-12", "Dice keyed by the whole log", "In a game whose GameStarted names the dice key CORE-12, a "
           "command's dice are derived from the secret and the sequence number of its first event in the whole "
           "log, undo events and what was taken back included, so no key is ever drawn from twice: an outcome "
           "an undo showed is never given to another command, and nobody can foresee a roll. Taking back a "
           "random outcome or a reveal therefore draws it anew: the request needs every seat's yes and says so "
           "in the question each seat answers, and a bot says no to it. A game whose GameStarted names no dice "
           "key keeps CORE-7."),
)
CORE = Catalogue(CORE_CLAUSES)
