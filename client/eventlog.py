"""The event log panel: each event with its seq, its clause (ID and title) and what happened.

Rejections appear here too, on the page of the player who tried only (the server sends them to
the sender alone), with the clause that forbids the command and the specific reason.
"""

from __future__ import annotations

from client import i18n
from client.dom import add, el
from client.i18n import t

CORE_WORDED = ("CORE-3", "CORE-10", "CORE-11")  # ``consent.clause_title.<id>`` and ``consent.clause_text.<id>``


def accepted(first: object, last: object) -> str:
    """The notice of an accepted command: the seqs of the events it made, one (``table.accepted_one``) or a range."""
    if first == last:
        return t("table.accepted_one", seq=first)
    return t("play.accepted", first=first, last=last)


def clause_words(game: object, rule: object) -> tuple | None:
    """``(title, text)`` of a clause in the reader's language, else the catalogue's own, else None."""
    if not rule:
        return None
    found = i18n.clause(game.name, rule)
    if found is None and rule in CORE_WORDED:  # the core's clauses the catalogue words (a move of rules version)
        found = (t("consent.clause_title." + rule), t("consent.clause_text." + rule))
    if found is None and i18n.has("core.clause_title." + str(rule)):  # the core's other clauses (dice, undo)
        found = (t("core.clause_title." + rule), t("core.clause_text." + rule))
    clause = game.catalogue.get(rule) if found is None else None
    if clause is not None:
        found = (clause.title, clause.text)
    return found


def clause_badge(game: object, rule: object) -> object:
    """``MV-6c Corruption``: the clause ID, its title (shown) and text (tooltip) in the reader's language."""
    if not rule:
        return None
    found = clause_words(game, rule)
    badge = el("span", None, "clause", (("data-rule", rule),))
    add(badge, el("b", rule, "clause-id", (("translate", "no"),)))
    if found is not None:
        add(badge, el("span", " ", None), el("span", found[0], "clause-title"))
        badge.setAttribute("title", found[1])
    return badge


def event_row(game: object, envelope: object, before: object = None, dispute: object = None) -> object:
    """One event's row: seq, type, clause, what happened and the rules' reasoning, in the reader's
    language, all from the game's describer (``events/games/<g>/words.py``); ``before`` is the
    state before the event (some descriptions name places only the board knows). ``dispute``: None
    links the line to its dispute panel on the replay page (a new tab: a player keeps the game
    open); a function opens the panel in place (the replay page); False shows no link (a line of
    the panel itself, or of a what-if branch)."""
    row = el("li", None, "event", (("data-seq", envelope.seq), ("data-type", envelope.type)))
    what, lines = i18n.event_words(game, envelope.event, before)
    add(row, el("span", f"#{envelope.seq}", "seq"), el("span", envelope.type, "type", (("translate", "no"),)),
        clause_badge(game, envelope.rule), el("span", what, "what"))
    if dispute is not False:
        add(row, dispute_link(envelope, dispute))
    for line in lines:
        add(row, el("div", line, "trace"))
    return row


def dispute_link(envelope: object, opened: object) -> object:
    """``/replay/{game}?seq=N``: the shareable link of this line's dispute panel (docs/disputes.md)."""
    href = f"/replay/{envelope.game}?seq={envelope.seq}"
    label = t("dispute.open_label", seq=envelope.seq)
    link = el("a", t("dispute.open"), "dispute-link", (("href", href), ("aria-label", label), ("title", label)))
    if opened is None:
        link.setAttribute("target", "_blank")
        link.setAttribute("rel", "noopener")
    else:
        def follow(event: object) -> None:
            event.preventDefault()
            opened(envelope.seq)

        link.addEventListener("click", follow)
    return link


def rejection_row(game: object, frame: dict, tried: str) -> object:
    row = el("li", None, "rejected", (("data-rule", frame.get("rule") or ""),))
    add(row, el("span", t("log.rejected"), "seq"), el("span", tried, "type"), clause_badge(game, frame.get("rule")),
        reason_span(game, frame))
    return row


def reason_span(game: object, frame: dict) -> object:
    """A rejection's reason in the reader's language: the frame's message (``key``, ``params``) if
    the catalogue has it, else the English fact the server sent (an older server), marked as English."""
    key = frame.get("key")
    if i18n.has(key):
        return el("span", i18n.message(game.name, key, frame.get("params") or {}), "reason")
    return el("span", frame.get("reason") or "", "reason", (("lang", "en"),))


def notice_row(text: str, cls: str = "notice") -> object:
    return el("li", text, cls)
