"""The dispute panel of the replay page (issue 18, docs/disputes.md): one command looked at closely.

Opened at seq N from ``/replay/{id}?seq=N`` or from the link of any log line, it shows the
command behind that event and the seat that made it, every event the command caused with its
clause (ID, title and text in the reader's language) and the rules' reasoning (the renderer's
``trace``: a monster's focus table, the path, the draws), and the state before the command and
after it, field by field (``events.statediff``).

"Audit this game" asks ``GET /api/games/{id}/audit`` and says what the server established.

"What if" branches the game at that command, in this page only (nothing is stored or sent):
the same command with the dice the reader types (``LoadedRng``: prefilled with the dice it drew,
re-derived from the revealed secret once the game is over, ``events.whatif``), or another of the
seat's legal commands (``Game.legal``). The board then shows the branch and takes more moves, as
the play page does (the renderer's buttons and clicks), each decided here by the same rules; the
dice of those later moves come from a fixed generator. "Back to the real game" leaves it.
"""

from __future__ import annotations

import json

from browser import ajax, window

from client.dom import add, byid, clear, el, listen, set_text
from client.eventlog import clause_words, event_row
from client.faults import fault_words
from client.i18n import command_name, has, message, seat_name, t
from client.pages.errors import ERRORS, error_text
from client.undo import in_play
from events.canonical import record_json, state_hash
from events.dice import command_rng
from events.game import SecretRevealed, rule_of
from events.log import Envelope
from events.rng import LoadedRng, Rng
from events.rules import Phrase, Rejection, message_data
from events.statediff import diff
from events.whatif import drawn, parse_dice, step

MAX_CHOICES = 200  # legal commands offered in the list at most (a gloomhaven hand has fewer pairs)
BRANCH_SEED = 1000003  # later branch moves draw from Rng(BRANCH_SEED * seq + move): not the game's dice


def command_text(command: object) -> str:
    """``Move to=8``: a command's type and fields as the log records them (data, not words)."""
    if command is None:
        return ""
    parts = [command.TYPE]
    for name in command.__slots__:
        parts.append(name + "=" + record_json(getattr(command, name)))
    return " ".join(parts)


def command_words(view: object, state: object, seat: object, command: object) -> str:
    """A command in the reader's words, as the page's buttons and clicks say it: the core's (an undo, a
    move of rules version) here, a game's from its renderer (``View.command_words``, on ``state``, the
    state it was decided on); a command neither words is named by its type (its data stays in
    ``data-command``, ``command_text``)."""
    kind = command.TYPE
    if kind == "AskUndo":
        return t("tableux.cmd_ask_undo", seq=command.back_to)
    if kind == "AnswerUndo":
        return t("tableux.cmd_answer_undo_yes" if command.yes else "tableux.cmd_answer_undo_no")
    if kind == "ProposeRulesVersion":
        return t("consent.propose", version=command.to_version)
    if kind == "AnswerRulesVersion":
        return t("tableux.cmd_answer_rules_yes" if command.yes else "tableux.cmd_answer_rules_no")
    words = None
    if state is not None and view is not None:
        try:
            words = view.command_words(state, seat, command)
        except Exception:  # a command an older rules version took that this renderer cannot word: its type
            words = None
    return words if words else command_name(view.game.name if view is not None else "", kind)


class DisputePanel:
    """The panel, below the board of a ``ReplayPage`` (``page``): its game, view, envelopes, states."""

    def __init__(self, page: object) -> None:
        self.page = page
        self.node = None
        self.group = []  # the envelopes of the command looked at
        self.branch = None  # a Branch while the board shows a what-if

    # --- the panel ---------------------------------------------------------------------------------

    def open(self, seq: int) -> None:
        page = self.page
        self.leave_branch(False)
        self.group = group_of(page.envelopes, seq)
        first, last = self.group[0].seq, self.group[-1].seq
        node = self.container()
        clear(node)
        node.setAttribute("data-seq", str(seq))
        head = el("div", None, "dispute-head")
        add(head, el("h2", t("dispute.title", seq=seq), None, (("id", "dispute-title"),)))
        close = el("button", t("dispute.close"), "dispute-close", (("type", "button"), ("id", "dispute-close")))
        listen(close, "click", lambda e: self.close())
        add(head, close)
        add(node, head, self.command_part(self.head()), self.events_part(seq), self.diff_part(first, last),
            self.audit_part(), self.whatif_part())
        node.removeAttribute("hidden")

    def head(self) -> object:
        """The envelope of the group that carries its command: the first that does (a seat's secret
        pick is sealed on a spectator's copy, the reveal it caused carries the command), else the first."""
        for envelope in self.group:
            if envelope.command is not None:
                return envelope
        return self.group[0]

    def container(self) -> object:
        node = byid("dispute")
        if node is None:
            node = el("section", None, "dispute", (("id", "dispute"), ("aria-labelledby", "dispute-title")))
            legend = byid("legend")
            legend.parentNode.insertBefore(node, legend.nextSibling)
        self.node = node
        return node

    def close(self) -> None:
        self.leave_branch(True)
        node = byid("dispute")
        if node is not None:
            clear(node)
            node.setAttribute("hidden", "hidden")

    def command_part(self, head: object) -> object:
        box = el("div", None, "dispute-command", (("id", "dispute-command"),))
        if head.command is not None:
            first = self.group[0].seq
            before = self.page.states[first - 2] if first >= 2 else None
            add(box, el("span", t("dispute.command_by", seat=seat_name(head.seat)), "label"),
                el("span", command_words(self.page.view, before, head.seat, head.command), "command",
                   (("data-command", command_text(head.command)),)))  # the log's own data, for a bug report
        elif head.command_id is not None:
            add(box, el("span", t("dispute.command_withheld", seat=seat_name(head.seat)), "label"))
        else:
            add(box, el("span", t("dispute.no_command"), "label"))
        return box

    def events_part(self, seq: int) -> object:
        page = self.page
        box = el("div", None, "dispute-events")
        add(box, el("h3", t("dispute.events", n=len(self.group))))
        items = el("ol", None, "log dispute-log", (("id", "dispute-events"),))
        for envelope in self.group:
            row = event_row(page.versions[envelope.seq - 1], envelope, page.states[envelope.seq - 2] if envelope.seq > 1 else None,
                            False)
            if envelope.seq == seq:
                row.setAttribute("class", "event focus")
            found = clause_words(page.versions[envelope.seq - 1], envelope.rule)
            if found is not None:
                add(row, el("p", found[1], "clause-text", (("data-rule", envelope.rule),)))
            add(items, row)
        add(box, items)
        return box

    def diff_part(self, first: int, last: int) -> object:
        page = self.page
        box = el("div", None, "dispute-diff", (("id", "dispute-diff"),))
        add(box, el("h3", t("dispute.diff_title")))
        buttons = el("div", None, "controls")
        for key, seq in (("dispute.board_before", first - 1), ("dispute.board_after", last)):
            if seq >= 1:
                button = el("button", t(key), "board-at", (("type", "button"), ("data-seq", seq)))
                listen(button, "click", self.go_handler(seq))
                add(buttons, button)
        add(box, buttons)
        if first < 2:
            add(box, el("p", t("dispute.diff_start"), "muted"))
            return box
        changes = diff(page.states[first - 2], page.states[last - 1])
        if not changes:
            add(box, el("p", t("dispute.diff_none"), "muted"))
            return box
        table = el("table", None, "statediff")
        header = el("tr")
        for key in ("dispute.diff_path", "dispute.diff_before", "dispute.diff_after"):
            add(header, el("th", t(key), None, (("scope", "col"),)))
        add(table, add(el("thead"), header))
        body = el("tbody")
        for change in changes:
            kind = "added" if change.before is None else "removed" if change.after is None else "changed"
            row = el("tr", None, kind, (("data-path", change.path),))
            add(row, el("td", change.path, "path", (("translate", "no"),)),
                el("td", "—" if change.before is None else change.before, "before", (("translate", "no"),)),
                el("td", "—" if change.after is None else change.after, "after", (("translate", "no"),)))
            add(body, row)
        add(table, body)
        add(box, add(el("div", None, "statediff-box", (("tabindex", "0"), ("role", "region"),
                                                          ("aria-label", t("dispute.diff_title")))), table))
        if changes.more:
            add(box, el("p", t("dispute.diff_more", n=changes.more), "muted"))
        return box

    def go_handler(self, seq: int) -> object:
        def handler(event: object) -> None:
            self.leave_branch(False)
            self.page.go(seq)

        return handler

    # --- audit -------------------------------------------------------------------------------------

    def audit_part(self) -> object:
        box = el("div", None, "dispute-audit")
        add(box, el("h3", t("dispute.audit_title")))
        button = el("button", t("dispute.audit"), "audit", (("type", "button"), ("id", "audit-button")))
        listen(button, "click", lambda e: self.audit())
        add(box, button, el("div", None, "audit-result", (("id", "audit-result"), ("role", "status"))))
        return box

    def audit(self) -> None:
        set_text(byid("audit-result"), t("dispute.audit_running"))
        url = f"/api/games/{window.encodeURIComponent(self.page.game_id)}/audit"
        ajax.get(url, mode="text", oncomplete=self.audited)

    def audited(self, request: object) -> None:
        box = clear(byid("audit-result"))
        try:
            answer = json.loads(request.text)
        except Exception:
            answer = None
        if request.status != 200 or not isinstance(answer, dict):
            code = answer.get("code") if isinstance(answer, dict) else None
            words = error_text(code, "", self.page.game_id) if code in ERRORS else t(
                "dispute.audit_failed", status=request.status)
            box.setAttribute("data-verdict", "error")
            add(box, el("p", words, "bad"))
            return
        for cls, text in audit_lines(answer):
            add(box, el("p", text, cls))
        box.setAttribute("data-verdict", "diverged" if answer.get("divergence") else
                         "complete" if answer.get("complete") else "partial")
        divergence = answer.get("divergence")
        if divergence and divergence.get("logged") is not None:  # the facts, as the rules (English) write them
            add(box, el("p", t("dispute.audit_logged"), "label"),
                el("code", divergence["logged"], "logged", (("lang", "en"), ("translate", "no"))),
                el("p", t("dispute.audit_produced"), "label"),
                el("code", divergence["produced"], "produced", (("lang", "en"), ("translate", "no"))))

    # --- what if -----------------------------------------------------------------------------------

    def whatif_part(self) -> object:
        box = el("div", None, "dispute-whatif", (("id", "whatif"),))
        add(box, el("h3", t("dispute.whatif_title")))
        head = self.head()
        first = self.group[0].seq
        if head.command is None or first < 2:
            add(box, el("p", t("dispute.whatif_none"), "muted"))
            return box
        game = self.page.versions[first - 2]
        before = self.page.states[first - 2]
        # A rule question on the position itself: the board before the command, with what the seat
        # could do highlighted by the renderer (legal destinations, buttons); a click plays it.
        ask = el("button", t("dispute.whatif_ask", seat=seat_name(head.seat)), "whatif-ask",
                 (("type", "button"), ("id", "whatif-ask")))
        listen(ask, "click", lambda e: self.ask(first))
        add(box, ask)
        core = game.commands.core
        if core is not None and head.command.TYPE in core:
            # An undo or a rules-version answer is the engine's own (CORE-4 to CORE-11): it draws no
            # dice, and the game's rules cannot decide it, so no branch replays it with other dice.
            add(box, el("p", t("offundo.whatif_core", command=command_name(game.name, head.command.TYPE)), "muted", (("id", "whatif-core"),)))
            return self.other_part(box, game, before, head)
        values, source = self.logged_dice(game, before, head)
        dice = el("div", None, "whatif-dice")
        add(dice, el("label", t("dispute.whatif_dice_label"), None, (("for", "whatif-dice"),)))
        field = el("input", None, "dice", (("id", "whatif-dice"), ("type", "text"), ("inputmode", "text"),
                                           ("autocomplete", "off"), ("spellcheck", "false")))
        field.value = " ".join(str(value) for value in values)
        play = el("button", t("dispute.whatif_dice_play"), "whatif-play", (("type", "button"), ("id", "whatif-dice-play")))
        listen(play, "click", lambda e: self.play_dice(field.value))
        # A command that drew nothing (a plain move) said "0 stand-in values, edit them freely": say so.
        said = t(source, n=len(values)) if values else t("tableux.whatif_no_dice")
        add(dice, field, play, el("p", said, "muted", (("id", "whatif-dice-source"),)))
        add(box, dice)
        return self.other_part(box, game, before, head)

    def other_part(self, box: object, game: object, before: object, head: object) -> object:
        """Another legal command of the seat at that point, played as a branch."""
        other = el("div", None, "whatif-other")
        choices = [c for c in game.legal(before, head.seat) if c != head.command]
        if choices:
            add(other, el("label", t("dispute.whatif_command_label", seat=seat_name(head.seat)), None,
                          (("for", "whatif-command"),)))
            select = el("select", None, "whatif-command", (("id", "whatif-command"),))
            shown = choices[:MAX_CHOICES]
            labels = [command_words(self.page.view, before, head.seat, command) for command in shown]
            for index, command in enumerate(shown):
                label = labels[index]
                if labels.count(label) > 1:  # two commands in the same words: numbered (their data differs)
                    label += f" ({labels[: index + 1].count(label)})"
                add(select, el("option", label, None, (("value", index), ("data-command", command_text(command)))))
            self.choices = choices
            play_other = el("button", t("dispute.whatif_command_play"), "whatif-play",
                            (("type", "button"), ("id", "whatif-command-play")))
            listen(play_other, "click", lambda e: self.play_other(int(select.value)))
            add(other, select, play_other)
            if len(choices) > MAX_CHOICES:
                add(other, el("p", t("dispute.whatif_more_choices", n=len(choices) - MAX_CHOICES), "muted"))
        else:
            add(other, el("p", t("dispute.whatif_no_other", seat=seat_name(head.seat)), "muted"))
        add(box, other, el("p", None, "whatif-status", (("id", "whatif-status"), ("role", "status"))))
        return box

    def logged_dice(self, game: object, before: object, head: object) -> tuple:
        """The values the command drew, and which message says where they come from."""
        if self.group[0].dice is not None:  # loaded dice travel with a command's first event
            return list(self.group[0].dice), "dispute.whatif_dice_loaded"
        secret = next((e.event.secret for e in self.page.envelopes if isinstance(e.event, SecretRevealed)), None)
        try:
            if secret is not None:  # keyed by its seq (CORE-12), or by its place in the effective history (CORE-7)
                position = self.page.undos.position_of(first_seq(self.group))
                return (drawn(game, before, head.seat, head.command, command_rng(secret, position)),
                        "dispute.whatif_dice_revealed")
            return drawn(game, before, head.seat, head.command, Rng(first_seq(self.group))), "dispute.whatif_dice_sealed"
        except Exception:  # a rules change can make an old command fail: the reader types the dice
            return [], "dispute.whatif_dice_sealed"

    def play_dice(self, text: str) -> None:
        values, fault = parse_dice(str(text))
        if fault is not None:
            self.status(t("dispute.whatif_dice_fault", fault=refusal_words(self.page.game.name, fault)), "bad")
            return
        head = self.head()
        self.start_branch(first_seq(self.group), head.seat, head.command, LoadedRng(values))

    def play_other(self, index: int) -> None:
        seq = first_seq(self.group)
        self.start_branch(seq, self.head().seat, self.choices[index], Rng(BRANCH_SEED * seq))

    def status(self, text: str, cls: str) -> None:
        node = byid("whatif-status")
        set_text(node, text)
        node.setAttribute("class", "whatif-status " + cls)

    # --- the branch --------------------------------------------------------------------------------

    def start_branch(self, seq: int, seat: object, command: object, rng: object) -> None:
        page = self.page
        game = page.versions[seq - 2]
        branch = Branch(game, seq, page.states[seq - 2], page.envelopes[: seq - 1])
        answer = branch.play(seat, command, rng)
        if not isinstance(answer, Branch):
            self.status(answer, "bad")
            return
        page.stop()
        self.branch = branch
        self.status(t("dispute.whatif_branched", seq=seq), "ok")
        self.draw_branch()

    def ask(self, seq: int) -> None:
        """The board at the state before seq's command, the seat's options on it: a branch of no move yet."""
        page = self.page
        page.stop()
        self.branch = Branch(page.versions[seq - 2], seq, page.states[seq - 2], page.envelopes[: seq - 1])
        self.status(t("dispute.whatif_asked", seq=seq), "ok")
        self.draw_branch()

    def move(self, seat: object, kind: str, data: dict) -> None:
        """A move of the branch, from the renderer's buttons or a click on the board."""
        branch = self.branch
        try:
            command = branch.game.commands.build(dict(data, type=kind), "$")
        except Exception as error:  # a renderer's command the rules cannot read: said, not thrown
            self.status(t("dispute.whatif_refused", rule="", reason=str(error)), "bad")
            return
        answer = branch.play(seat, command, Rng(BRANCH_SEED * branch.seq + len(branch.moves)))
        if not isinstance(answer, Branch):
            self.status(answer, "bad")
        else:
            self.status(t("dispute.whatif_moved", n=len(branch.moves)), "ok")
        self.draw_branch()

    def draw_branch(self) -> None:
        page, branch = self.page, self.branch
        page.questions.reset()  # an answer is about the position it was asked on (client/questions.py)
        state = branch.state
        turn = branch.game.turn(state)
        seat = turn[0] if turn else None
        over = branch.game.is_over(state)
        interactive = seat is not None and not over
        # The branch's moves after the real log's envelopes still in play at its seq: its board's last
        # move is never one an undo took back by then, nor an undo event (CORE-4, client/undo.py).
        page.view.draw(state, in_play(branch.envelopes, page.undos, branch.seq - 1), seat, interactive, self.pick)
        page.ui.drawn(branch.game.name, interactive)
        hash_box = byid("hash")
        set_text(hash_box, t("dispute.whatif_board", seq=branch.seq, n=len(branch.moves)))
        hash_box.setAttribute("class", "hash branch")
        hash_box.setAttribute("data-branch", str(len(branch.moves)))
        hash_box.setAttribute("data-hash", state_hash(state))  # the branch's state, as the board draws it
        window.document.body.setAttribute("data-branch", "1")
        box = byid("whatif-branch")
        if box is None:
            box = el("div", None, "whatif-branch", (("id", "whatif-branch"),))
            add(byid("whatif"), box)
        clear(box)
        back = el("button", t("dispute.whatif_back"), "whatif-back", (("type", "button"), ("id", "whatif-back")))
        listen(back, "click", lambda e: self.leave_branch(True))
        add(box, back)
        actions = el("div", None, "controls whatif-actions", (("id", "whatif-actions"),))
        if over:
            add(actions, el("span", t("play.over"), "over"))
        elif seat is not None:
            # As on the play page: the renderer's own prompt first (gloomhaven's learns there whose
            # cards it draws), else whose turn it is.
            prompt_text = getattr(page.view, "prompt_text", None)
            text = prompt_text(state, seat, seat) if prompt_text is not None else None
            add(actions, el("span", text if text is not None else t("dispute.whatif_turn", seat=seat_name(seat)), "prompt"))
            for label, kind, data in page.view.actions(state, seat):
                button = el("button", label, "action", (("data-command", kind), ("type", "button")))
                listen(button, "click", self.action_handler(seat, kind, data))
                add(actions, button)
            local = getattr(page.view, "local_actions", None)
            for label, key in (local(state, seat) if local is not None else ()):
                button = el("button", label, "action local", (("data-path-action", key), ("type", "button")))
                listen(button, "click", self.local_handler(seat, key))
                add(actions, button)
        add(box, actions)
        log = el("ol", None, "log whatif-log", (("id", "whatif-log"),))
        for envelope in branch.envelopes[branch.seq - 1 :]:
            add(log, event_row(branch.game, envelope, branch.befores.get(envelope.seq), False))
        add(box, log)

    def action_handler(self, seat: object, kind: str, data: dict) -> object:
        def handler(event: object) -> None:
            self.move(seat, kind, data)

        return handler

    def local_handler(self, seat: object, key: str) -> object:
        def handler(event: object) -> None:
            command = self.page.view.path_action(self.branch.state, seat, key)
            if command is not None:
                self.move(seat, command[0], command[1])
            else:
                self.draw_branch()

        return handler

    def pick(self, place: object) -> None:
        """A click on the branch's board: the renderer says which command it means, as on the play page."""
        branch = self.branch
        if branch is None:
            return
        turn = branch.game.turn(branch.state)
        if not turn:
            return
        seat = turn[0]
        command = getattr(self.page.view, "pick_command", None)
        picked = command(branch.state, seat, place) if command is not None else ("Move", {"to": place}, "")
        if picked is None:  # the renderer kept the click (a waypoint of a path being built)
            self.draw_branch()
            return
        self.move(seat, picked[0], picked[1])

    def leave_branch(self, redraw: bool) -> None:
        if self.branch is None:
            return
        self.branch = None
        window.document.body.removeAttribute("data-branch")
        byid("hash").removeAttribute("data-branch")
        box = byid("whatif-branch")
        if box is not None:
            box.remove()
        if redraw:
            self.page.go(self.page.seq)


class Branch:
    """A what-if: the real log up to seq ``seq - 1``, then the moves played here (never stored)."""

    def __init__(self, game: object, seq: int, state: object, envelopes: list) -> None:
        self.game = game
        self.seq = seq
        self.state = state
        self.envelopes = list(envelopes)
        self.moves = []
        self.befores = {}  # seq -> the state before that event of the branch (what its words read)

    def play(self, seat: object, command: object, rng: object) -> object:
        """Decide and fold one move: this branch, or the words that say why not."""
        try:
            answer = step(self.game, self.state, seat, command, rng)
        except Exception as error:  # a running game's secret picks are not in the public log
            return t("dispute.whatif_failed", error=fault_words(error))
        if isinstance(answer, Rejection):
            return t("dispute.whatif_refused", rule=answer.rule, reason=refusal_words(self.game.name, answer))
        if isinstance(answer, Phrase):
            return t("dispute.whatif_dice_fault", fault=refusal_words(self.game.name, answer))
        command_id = f"whatif-{len(self.moves) + 1}"
        dice = answer.dice if answer.dice else None
        before = self.state
        for event, state in zip(answer.events, answer.states):
            seq = len(self.envelopes) + 1
            self.befores[seq], before = before, state
            self.envelopes.append(Envelope("", seq, event, seat, command_id, command, dice, rule_of(event),
                                           state_hash(state)))
            dice = None
        self.state = answer.state
        self.moves.append(answer)
        return self


def refusal_words(game: str, said: object) -> str:
    """A refusal (a Rejection) or a fault of the dice typed (a Phrase, ``dice.*``) in the reader's
    language: its message, as ``client.eventlog.reason_span`` says a rejection frame's (issue 17);
    one without a message (none of the core's or the five games') in its English words."""
    if not has(said.key):
        return said.reason if isinstance(said, Rejection) else said.text
    return message(game, said.key, {name: message_data(value) for name, value in said.params})


def first_seq(group: list) -> int:
    """The seq of a command's first event: its generator's number (CORE-1)."""
    return group[0].seq


def group_of(envelopes: list, seq: int) -> list:
    """The envelopes the command behind seq ``seq`` produced (one envelope when no command did)."""
    index = seq - 1
    command_id = envelopes[index].command_id
    if command_id is None:
        return [envelopes[index]]
    start = index
    while start > 0 and envelopes[start - 1].command_id == command_id:
        start -= 1
    end = index
    while end + 1 < len(envelopes) and envelopes[end + 1].command_id == command_id:
        end += 1
    return envelopes[start : end + 1]


def audit_lines(answer: dict) -> list:
    """The audit's answer in words: ``(class, text)`` per line."""
    divergence = answer.get("divergence")
    if divergence:
        return [("bad", t("dispute.audit_diverged", seq=divergence.get("seq"), clause=divergence.get("clause") or "—"))]
    events = int(answer.get("events") or 0)
    if answer.get("complete"):
        return [("ok", t("dispute.audit_complete", n=events)),
                ("muted", t("dispute.audit_redecided", n=int(answer.get("redecided") or 0),
                            dice=int(answer.get("with_dice") or 0)))]
    lines = [("warn", t("dispute.audit_partial", n=events))]
    if answer.get("sealed"):
        lines.append(("muted", t("dispute.audit_sealed", n=int(answer["sealed"]))))
    if answer.get("withheld"):
        lines.append(("muted", t("dispute.audit_withheld", n=int(answer["withheld"]))))
    if answer.get("over") and not answer.get("revealed"):
        lines.append(("bad", t("dispute.audit_unrevealed")))
    return lines
