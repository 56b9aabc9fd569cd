"""Undo on the pages (issue 18; CORE-4 to CORE-7, CORE-12): the play page's Undo control and pending request
(which says when what it takes back will be drawn anew, CORE-12),
the words of the undo events in the log, and the rows of what was taken back, struck through.

Everything comes from the page's ``Table`` (``follower.table.undos``, ``events/undo.py``): the
requests, whose yes each needs, and which seqs each took back. The server decides; this only draws.
"""

from __future__ import annotations

from client.dom import add, byid, clear, el, listen
from client.i18n import seat_name, t

UNDO_TYPES = ("UndoAsked", "UndoAnswered", "UndoApplied")


def is_undo(event: object) -> bool:
    return event.TYPE in UNDO_TYPES


def _seats(seats: object) -> str:
    return ", ".join([seat_name(seat) for seat in seats])


def label(request: object) -> str:
    """Who asked and who agreed, beside a struck-through row."""
    if request.agreed:
        return t("undo.label", seat=seat_name(request.seat), agreed=_seats(request.agreed))
    return t("undo.label_free", seat=seat_name(request.seat))


def in_play(envelopes: list, undos: object, upto: int) -> list:
    """``envelopes`` without the undo events and what an undo took back by seq ``upto``: what a board
    draws its last move and dice from (the replay's view at ``upto``)."""
    if undos is None or not undos.any():
        return envelopes
    undone = undos.undone
    return [envelope for envelope in envelopes if not is_undo(envelope.event)
            and not (envelope.seq in undone and undone[envelope.seq].closed_at <= upto)]


def strike(log: object, undos: object, upto: int | None = None) -> None:
    """Mark each row of ``log`` that an applied undo took back (by seq ``upto``, if given): class
    ``undone`` (struck through in style.css) and a label of who asked and who agreed."""
    for seq in undos.undone:
        request = undos.undone[seq]
        if upto is not None and request.closed_at > upto:
            continue
        row = log.querySelector(f'li.event[data-seq="{seq}"]')
        if row is None or row.classList.contains("undone"):
            continue
        row.classList.add("undone")
        row.setAttribute("data-undone-by", str(request.seq))
        add(row, el("span", label(request), "undone-by"))


def panel() -> object:
    """The ``#undo`` panel below the actions, made on first use, emptied (the play and offline pages)."""
    box = byid("undo")
    if box is None:
        actions = byid("actions")
        box = el("section", None, "undo", (("id", "undo"), ("aria-label", t("undo.title"))))
        actions.parentNode.insertBefore(box, actions.nextSibling)
    clear(box)
    return box


def pending(box: object, request: object) -> list:
    """Write the open ``request`` and whom it waits for into ``box``; the seats still to answer."""
    waiting = [needed for needed in request.needs if needed not in request.agreed]
    add(box, el("span", t("undo.pending", seat=seat_name(request.seat), seq=request.back_to,
                          needs=_seats(waiting)), "undo-pending", (("data-request", str(request.seq)),)))
    if request.redraw:  # CORE-12: what it takes back is drawn anew, and every seat answers knowing it
        add(box, el("strong", t("undo.redraw"), "undo-redraw", (("data-request", str(request.seq)),)))
    return waiting


def draw(page: object) -> None:
    """The ``#undo`` panel below the actions: the seat's Undo button, and the open request with
    yes/no for a seat whose yes it needs (a spectator and the asker see whom it waits for)."""
    box = panel()
    table = page.follower.table
    if table is None or table.state is None or table.revealed or page.game.is_over(table.state):
        return
    undos = table.undos
    request = undos.open
    seat = page.seat
    if request is not None:
        waiting = pending(box, request)
        if seat is not None and seat in waiting:
            for yes in (True, False):
                button = el("button", t("undo.yes" if yes else "undo.no"), "action undo-answer",
                            (("data-answer", "yes" if yes else "no"), ("data-request", str(request.seq))))
                listen(button, "click", _answer(page, request.seq, yes))
                add(box, button)
        return
    if seat is None:
        return
    back_to = undos.last_own(seat)
    if back_to is None:
        return
    refused = refusal(table, seat, back_to)
    if refused is not None:  # CORE-6: not the same back_to again before some command is made; say who and why
        add(box, el("span", refused, "undo-refused", (("data-back-to", str(back_to)),)))
        return
    button = el("button", t("undo.button"), "action undo-ask", (("data-back-to", str(back_to)),
                                                                ("title", t("undo.button_title", seq=back_to))))
    listen(button, "click", _ask(page, back_to))
    add(box, button)


def refusal(table: object, seat: str, back_to: int) -> str | None:
    """The words of ``seat``'s undo back to ``back_to`` refused since the last command (who said no, and its
    clause when the no cited one: CORE-12), or None when the seat may ask it (CORE-6: a refused request is
    not asked again until some command is made, so the page offers no button that would be refused)."""
    undos = table.undos
    if (seat, back_to) not in undos.refused:
        return None
    for request in reversed(list(undos.requests.values())):
        if request.seat == seat and request.back_to == back_to and request.outcome == "refused":
            answer = _event_at(table, request.closed_at)
            if answer is None:
                break
            key = "undo.refused_mine_redraw" if getattr(answer, "why", None) == "CORE-12" else "undo.refused_mine"
            return t(key, seat=seat_name(answer.seat), seq=back_to)
    return t("undo.refused_mine_unknown", seq=back_to)


def _event_at(table: object, seq: int) -> object:
    """The event logged at ``seq`` in the table's envelopes (a page joined from a snapshot holds only the
    newer ones), or None."""
    envelopes = table.envelopes
    for place in range(len(envelopes) - 1, -1, -1):
        if envelopes[place].seq == seq:
            return envelopes[place].event
        if envelopes[place].seq < seq:
            break
    return None


def _ask(page: object, back_to: int) -> object:
    def handler(event: object) -> None:
        page.send("AskUndo", {"back_to": back_to}, t("undo.button"))

    return handler


def _answer(page: object, request: int, yes: bool) -> object:
    def handler(event: object) -> None:
        page.send("AnswerUndo", {"request": request, "yes": yes}, t("undo.yes" if yes else "undo.no"))

    return handler
