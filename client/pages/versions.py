"""The rules version a game is played under and, when it is not the newest the page knows, what
the newer versions changed (issue 19, CORE-3): the box ``#rules-version`` above the game panel.

Each change is a note of ``Game.revised`` (``events/games/<game>/__init__.py``): the clause it
touches, with the clause's id and title in the reader's language (``clause_badge``), and the note's
text in the reader's language: the message ``notes.<version>.<clause>`` (its English is the note's
own text, ``tests/test_notes_i18n.py``); a note the catalogue lacks is shown as written, marked
``lang="en"``. Version names (``echo-1``) are ids,
marked ``translate="no"``. The play and watch pages redraw the box when a RulesVersionChanged moves
the game; the replay page when the seq shown is under another version than the one drawn.

A game whose scenario chose a rules variant (gloomhaven-4's ``"variant": "jotl"``, GH-V1, GH-V2)
says so under the version, from its state's ``variant``: ``variant.<name>`` in the reader's
language, with the clauses it changes.
"""

from __future__ import annotations

from client.dom import add, byid, clear, el, listen
from client.eventlog import clause_badge
from client.i18n import has, seat_name, t

BOX = "rules-version"


def show_rules_version(game: object, state: object = None) -> None:
    """Draw (or redraw) the box for ``game``, a released version of a rule system, and the rules
    variant ``state`` is played under, if any; nothing is redrawn when the box shows them already."""
    variant = getattr(state, "variant", "") or ""
    box = byid(BOX)
    if box is None:
        info = byid("info")
        box = el("section", None, "rules-version", (("id", BOX), ("aria-label", t("rules.title"))))
        info.parentNode.insertBefore(box, info)
    elif box.getAttribute("data-version") == game.rules_version and box.getAttribute("data-variant") == variant:
        return
    newest = game.newest()
    clear(box)
    box.setAttribute("data-version", game.rules_version)
    box.setAttribute("data-variant", variant)
    box.setAttribute("data-newest", newest.rules_version)
    line = el("p", None, "rules-line")
    add(line, el("span", t("rules.played_under"), "rules-label"), el("span", " "),
        el("b", game.rules_version, "version", (("translate", "no"),)))
    add(box, line)
    if variant:
        add(box, variant_line(game, variant))
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
        add(item, clause_badge(newest, rule), el("span", " "), note(version, rule, text))
        add(items, item)
    add(box, items)


def variant_line(game: object, variant: str) -> object:
    """The rules variant in force (GH-V1, GH-V2 for ``jotl``), with a badge for each clause it changes."""
    line = el("p", None, "rules-variant", (("data-variant", variant),))
    key = "variant." + variant
    said = t(key) if has(key) else variant
    add(line, el("span", t("variant.in_force", rules=said), "rules-label"))
    for rule in VARIANT_CLAUSES.get(variant, ()):
        if rule in game.catalogue:
            add(line, el("span", " "), clause_badge(game, rule))
    return line


#: The clauses each rules variant changes (``events/games/gloomhaven/v4.py``).
VARIANT_CLAUSES = {"jotl": ("GH-V1", "GH-V2")}


def note(version: str, rule: str, text: str) -> object:
    """What ``version`` changed in ``rule``, in the reader's language where the catalogue has it."""
    key = "notes." + version + "." + rule
    if has(key):
        return el("span", t(key), "note")
    return el("span", text, "note", (("lang", "en"),))


CONSENT = "rules-consent"


def show_consent(table: object, seat: object, send: object) -> None:
    """The seats' consent to the newest version (CORE-10, CORE-11; ``events/upgrade.py``), in the box:
    a seat of a game not on the newest version may propose it; the other seats see the open proposal
    with yes and no; a spectator sees it only. ``send(kind, data, label)`` sends a command. Redrawn
    on every render (the open proposal is the Table's, folded from the log like the state)."""
    box = byid(BOX)
    if box is None:
        return
    part = byid(CONSENT)
    if part is None:
        part = el("div", None, "rules-consent", (("id", CONSENT),))
        add(box, part)
    clear(part)
    game, state, proposal = table.game, table.state, table.proposal
    newest = game.newest()
    if state is None or game.is_over(state):
        part.setAttribute("data-state", "none")
        return
    seats = game.seats(state)
    if proposal is None:
        part.setAttribute("data-state", "none")
        if seat in seats and newest is not game:
            label = t("consent.propose", version=newest.rules_version)
            add(part, _button(label, "propose", send, "ProposeRulesVersion", {"to_version": newest.rules_version}))
            add(part, el("p", t("consent.how"), "consent-how"))
        return
    part.setAttribute("data-state", "open")
    part.setAttribute("data-proposal", str(proposal.seq))
    waiting = ", ".join([seat_name(other) for other in proposal.waiting(seats)])
    if seat == proposal.seat:
        add(part, el("p", t("consent.you_proposed", version=proposal.to_version), "consent-line"))
    else:
        add(part, el("p", t("consent.proposed_by", seat=seat_name(proposal.seat), version=proposal.to_version),
                     "consent-line"))
    add(part, el("p", t("consent.waiting", seats=waiting), "consent-waiting"))
    if seat in seats and seat != proposal.seat and seat not in proposal.yes:
        answer = {"proposal": proposal.seq}
        add(part, _button(t("consent.yes", version=proposal.to_version), "yes", send, "AnswerRulesVersion",
                          dict(answer, yes=True)),
            _button(t("consent.no", version=game.rules_version), "no", send, "AnswerRulesVersion",
                    dict(answer, yes=False)))
    elif seat in proposal.yes:
        add(part, el("p", t("consent.you_agreed"), "consent-line"))


def _button(label: str, answer: str, send: object, kind: str, data: dict) -> object:
    button = el("button", label, "action consent", (("data-consent", answer),))

    def handler(event: object) -> None:
        send(kind, data, label)

    listen(button, "click", handler)
    return button
