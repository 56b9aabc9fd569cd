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
    """A game's clauses by ID; citing an ID the catalogue lacks is a programming error."""

    def __init__(self, clauses: tuple) -> None:
        self.by_id: dict[str, Clause] = {}
        for clause in clauses:
            if clause.id in self.by_id:
                raise ValueError(f"clause {clause.id} is listed twice")
            self.by_id[clause.id] = clause

    def __contains__(self, clause_id: str) -> bool:
        return clause_id in self.by_id

    def __getitem__(self, clause_id: str) -> Clause:
        try:
            return self.by_id[clause_id]
        except KeyError:
            raise KeyError(f"no clause {clause_id!r} in this catalogue") from None

    def ids(self) -> list[str]:
        return list(self.by_id)
