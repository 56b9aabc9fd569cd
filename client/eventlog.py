"""The event log panel: each event with its seq, its clause (ID and title) and what happened.

Rejections appear here too, on the page of the player who tried only (the server sends them to
the sender alone), with the clause that forbids the command and the specific reason.
"""

from __future__ import annotations

from client.dom import add, el


def clause_badge(game: object, rule: object) -> object:
    """``MV-6c Corruption``: the clause ID and its title from the game's catalogue."""
    if not rule:
        return None
    clause = game.catalogue.get(rule)
    badge = el("span", None, "clause", (("data-rule", rule),))
    add(badge, el("b", rule, "clause-id"))
    if clause is not None:
        add(badge, el("span", f" {clause.title}", "clause-title"))
        badge.setAttribute("title", clause.text)
    return badge


def event_row(game: object, view: object, envelope: object) -> object:
    row = el("li", None, "event", (("data-seq", envelope.seq), ("data-type", envelope.type)))
    add(row, el("span", f"#{envelope.seq}", "seq"), el("span", envelope.type, "type"),
        clause_badge(game, envelope.rule), el("span", describe(view, envelope.event), "what"))
    for line in game.trace(envelope.event):
        add(row, el("div", line, "trace"))
    return row


def describe(view: object, event: object) -> str:
    """The board's words for an event; the core's own event (CORE-2) is the same in every game."""
    if event.TYPE == "SecretRevealed":
        return "the game's secret is revealed: every die of this game can now be checked"
    return view.describe(event)


def rejection_row(game: object, frame: dict, tried: str) -> object:
    row = el("li", None, "rejected", (("data-rule", frame.get("rule") or ""),))
    add(row, el("span", "✗ rejected", "seq"), el("span", tried, "type"), clause_badge(game, frame.get("rule")),
        el("span", frame.get("reason") or "", "reason"))
    return row


def notice_row(text: str, cls: str = "notice") -> object:
    return el("li", text, cls)
