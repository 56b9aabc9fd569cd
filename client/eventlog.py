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


def event_row(game: object, envelope: object, before: object = None) -> object:
    """One event's row: seq, type, clause, what happened and the rules' reasoning, in the reader's
    language, all from the game's describer (``events/games/<g>/words.py``); ``before`` is the
    state before the event (some descriptions name places only the board knows)."""
    row = el("li", None, "event", (("data-seq", envelope.seq), ("data-type", envelope.type)))
    what, lines = i18n.event_words(game, envelope.event, before)
    add(row, el("span", f"#{envelope.seq}", "seq"), el("span", envelope.type, "type", (("translate", "no"),)),
        clause_badge(game, envelope.rule), el("span", what, "what"))
    for line in lines:
        add(row, el("div", line, "trace"))
    return row


def rejection_row(game: object, frame: dict, tried: str) -> object:
    row = el("li", None, "rejected", (("data-rule", frame.get("rule") or ""),))
    # The reason is the specific English fact the game's rules.py builds (events/): marked as English.
    add(row, el("span", t("log.rejected"), "seq"), el("span", tried, "type"), clause_badge(game, frame.get("rule")),
        el("span", frame.get("reason") or "", "reason", (("lang", "en"),)))
    return row


def notice_row(text: str, cls: str = "notice") -> object:
    return el("li", text, cls)
