"""Rule citations: clause catalogues and the Rejection every refusal is made of.

A clause ID (``MV-6c``, ``GH-4``) is the contract between a rule text, the code and the tests: a
rejection cites the clause that forbids the command, an event cites the clause that produced it.
"""

from __future__ import annotations

from events.record import Record


class Rejection(Record):
    """A refused command: the clause that forbids it and the specific fact that triggered it."""

    __slots__ = ("rule", "reason")
    __match_args__ = __slots__
    TYPE = "Rejection"

    def __init__(self, rule: str, reason: str) -> None:
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "reason", reason)

    def __str__(self) -> str:
        return f"{self.rule}: {self.reason}"


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
)
CORE = Catalogue(CORE_CLAUSES)
