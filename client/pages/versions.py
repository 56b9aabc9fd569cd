"""The rules version a game is played under and, when it is not the newest the page knows, what
the newer versions changed (issue 19, CORE-3): the box ``#rules-version`` above the game panel.

Each change is a note of ``Game.revised`` (``events/games/<game>/__init__.py``): the clause it
touches, with the clause's id and title in the reader's language (``clause_badge``), and the note's
own text, which is English data and is marked ``lang="en"``. Version names (``echo-1``) are ids,
marked ``translate="no"``. The play and watch pages redraw the box when a RulesVersionChanged moves
the game; the replay page when the seq shown is under another version than the one drawn.
"""

from __future__ import annotations

from client.dom import add, byid, clear, el
from client.eventlog import clause_badge
from client.i18n import t

BOX = "rules-version"


def show_rules_version(game: object) -> None:
    """Draw (or redraw) the box for ``game``, a released version of a rule system; nothing is
    redrawn when the box shows that version already."""
    box = byid(BOX)
    if box is None:
        info = byid("info")
        box = el("section", None, "rules-version", (("id", BOX), ("aria-label", t("rules.title"))))
        info.parentNode.insertBefore(box, info)
    elif box.getAttribute("data-version") == game.rules_version:
        return
    newest = game.newest()
    clear(box)
    box.setAttribute("data-version", game.rules_version)
    box.setAttribute("data-newest", newest.rules_version)
    line = el("p", None, "rules-line")
    add(line, el("span", t("rules.played_under"), "rules-label"), el("span", " "),
        el("b", game.rules_version, "version", (("translate", "no"),)))
    add(box, line)
    changes = newest.changes_since(game.rules_version)
    if not changes:
        return
    versions = [version for version, _clause, _text in changes]
    several = len(set(versions)) > 1
    add(box, el("p", t("rules.newer", version=newest.rules_version, n=len(changes)), "rules-newer"))
    items = el("ul", None, "rules-changes")
    for version, rule, text in changes:
        item = el("li", None, "rules-change", (("data-rule", rule), ("data-version", version)))
        if several:  # which later version made this change
            add(item, el("b", version, "version", (("translate", "no"),)), el("span", " "))
        add(item, clause_badge(newest, rule), el("span", " "), el("span", text, "note", (("lang", "en"),)))
        add(items, item)
    add(box, items)
