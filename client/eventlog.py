"""The event log panel: each event with its seq, its clause (ID and title) and what happened.

Rejections appear here too, on the page of the player who tried only (the server sends them to
the sender alone), with the clause that forbids the command and the specific reason.
"""

from __future__ import annotations

from client import i18n
from client.dom import add, el
from client.i18n import t


def clause_badge(game: object, rule: object) -> object:
    """``MV-6c Corruption``: the clause ID, its title (shown) and text (tooltip) in the reader's language."""
    if not rule:
        return None
    found = i18n.clause(game.name, rule)
    clause = game.catalogue.get(rule) if found is None else None
    if clause is not None:
        found = (clause.title, clause.text)
    badge = el("span", None, "clause", (("data-rule", rule),))
    add(badge, el("b", rule, "clause-id", (("translate", "no"),)))
    if found is not None:
        add(badge, el("span", " ", None), el("span", found[0], "clause-title"))
        badge.setAttribute("title", found[1])
    return badge


def event_row(game: object, view: object, envelope: object) -> object:
    row = el("li", None, "event", (("data-seq", envelope.seq), ("data-type", envelope.type)))
    add(row, el("span", f"#{envelope.seq}", "seq"), el("span", envelope.type, "type", (("translate", "no"),)),
        clause_badge(game, envelope.rule), el("span", describe(view, envelope.event), "what"))
    # The rules' reasoning: worded by the renderer in the reader's language where it can, else the
    # English lines of the game's rules.py (what ``chronicle explain`` prints), marked as English.
    trace = getattr(view, "trace", None)
    if envelope.type == "SecretRevealed":  # the core's own event (CORE-2): no game's reasoning to show
        lines, attrs = [], ()
    elif trace is not None:
        lines, attrs = trace(envelope.event), ()
    else:
        lines, attrs = game.trace(envelope.event), (("lang", "en"),)
    for line in lines:
        add(row, el("div", line, "trace", attrs))
    return row


def describe(view: object, event: object) -> str:
    """The board's words for an event; the core's own event (CORE-2) is the same in every game."""
    if event.TYPE == "SecretRevealed":
        return t("log.secret_revealed")
    return view.describe(event)


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
