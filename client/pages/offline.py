"""``/offline``: pass-and-play, a whole game in one browser with the same core and no server (issue 18).

Everything the page needs is here before play starts: the server's page loads every rule system's
script (``server/pages.py``), and the page fetches every built-in scenario once
(``GET /api/scenarios/full``); from then on it makes no request, so it goes on with the server
stopped. The page is the shell a server would be (docs/offline.md):

- the game's **secret** is drawn here, 32 bytes of ``window.crypto.getRandomValues`` as 64 hex
  digits, and GameStarted commits to it exactly as the server does (``events.dice.commitment``),
  under a game id drawn the server's way (``g-`` and 10 characters), which the commitment binds;
- each command goes to ``events.log.Table.submit``: the dice come from the secret through
  ``command_rng`` (CORE-1; ``hmac`` is imported then, not at page load), and the command that ends
  the game is followed by SecretRevealed (CORE-2);
- the seat to move plays on the board and its buttons; all seats share the device, so the page
  says whose turn it is and each seat passes the device on; what a waiting seat may send meanwhile (a
  renderer's ``off_turn_actions``: arkham-5's trade offers, AH-C10) has its own buttons, named for that
  seat and made as it, into the same log;
- the screen is the view of the seat holding the device: each log line is ``Game.visible`` of its
  envelope for that seat (another seat's secret pick is sealed, GH-C2), and when the device goes from
  one seat to another while a secret of either is on screen, a hand-over screen hides the board and
  the log until the next seat taps; once the game is over (CORE-2) everything is shown;
- any seat may take back its own last command(s) with the same core commands as on the play page
  (``AskUndo``, ``AnswerUndo``: CORE-4 to CORE-7, ``events/undo.py``): the ``#undo`` panel has an
  Undo button for each seat with a command in play, and while a request is open it names the seat
  whose yes it waits for (pass the device) and answers as that seat; undone rows are struck through;
- after every command the log and the secret are saved in ``localStorage`` (a reload resumes the
  game, every hash checked again), and the export link is a Blob of the log as JSON Lines, which
  ``POST /api/games/import`` audits and stores once the game is over.
"""

from __future__ import annotations

import json

from browser import ajax, window

import events.games
from client.boards import renderer
from client.boardui import BoardUI
from client.dom import add, byid, clear, el, into_view, listen, mark, mark_ready, set_text
from client.eventlog import accepted, event_row, reason_span, rejection_row
from client.faults import add_detail, fault_words
from client.i18n import scenario_title, seat_name, t
from client.undo import panel as undo_panel
from client.undo import pending as undo_pending
from client.undo import strike
from events.log import Table, decode_envelope, encode_envelope
from events.record import DecodeError
from events.rules import Rejection, message_data
from events.validate import ScenarioError

STORAGE_KEY = "chronicle-offline"  # one game at a time in this browser: {"secret", "lines"}
SAVE_FORMAT = 1
ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"  # server/tokens.py's
ID_LENGTH = 10
JSON_LINES = "application/x-ndjson"
PLACE_GAMES = ("mecha", "skirmish", "echo", "arkham", "gloomhaven")  # play.py's: its import would bring the socket


def random_bytes(count: int) -> list:
    """``count`` bytes from the browser's cryptographic generator (never ``random``)."""
    drawn = window.crypto.getRandomValues(window.Uint8Array.new(count))
    return [int(drawn[index]) for index in range(count)]


def new_secret() -> str:
    return "".join("0123456789abcdef"[byte >> 4] + "0123456789abcdef"[byte & 15] for byte in random_bytes(32))


def new_game_id() -> str:
    """``g-`` and 10 characters of a 64-letter alphabet (256 is a multiple of 64: every letter as likely)."""
    return "g-" + "".join(ID_ALPHABET[byte % 64] for byte in random_bytes(ID_LENGTH))


def now() -> str:
    """The browser's UTC time as the server logs it (``at`` is informative only, never folded)."""
    return str(window.Date.new().toISOString())


class OfflinePage:
    def __init__(self) -> None:
        self.scenarios: dict = {}  # name -> {"game", "title", "scenario"}
        self.table = None
        self.game = None
        self.shadow = None  # a Table folding the shown log: the state before each line
        self.view = None
        self.ui = None
        self.export_url = None
        self.ready = False
        self.pickable = 0  # how many places a click acts on now
        # Secrets on one device (docs/offline.md): the screen is drawn for the seat holding it.
        self.drawn_for = None  # the seat the screen was last drawn for (None: nobody yet, or nobody's turn)
        self.handover = None  # the seat the hand-over screen waits for, or None
        self.rows_for = None  # (seat, over) the secret log lines are worded for
        self.secret_rows: list = []  # [envelope, state before, row, game] of each envelope some seat may not see
        self.secret_refusals: list = []  # (seat, row) of each refused secret command (its cards named)
        self.choosing = None  # the choice the board asked for last (its buttons scrolled into view once)

    def start(self) -> None:
        listen(byid("offline-new"), "submit", self.new_game)
        try:
            saved = window.localStorage.getItem(STORAGE_KEY)
        except Exception:  # storage switched off: nothing was kept (``save`` says so at the first command)
            saved = None
        if saved:
            self.resume(str(saved))
        ajax.get("/api/scenarios/full", mode="text", oncomplete=self.got_scenarios)

    # --- scenarios and a new game ------------------------------------------------------------------

    def got_scenarios(self, request: object) -> None:
        select = clear(byid("offline-scenario"))
        if request.status != 200:
            self.notice(t("offline.no_scenarios", status=request.status), "error")
            self.set_ready()
            return
        for item in json.loads(request.text):
            self.scenarios[item["name"]] = item
            label = f"{scenario_title(item.get('titles'), item['title'])} ({item['name']})"  # the scenario's own title: data, not a message
            add(select, el("option", label, None, (("value", item["name"]), ("translate", "no"))))
        byid("offline-start").removeAttribute("disabled")
        self.set_ready()

    def new_game(self, event: object) -> None:
        event.preventDefault()
        item = self.scenarios.get(byid("offline-scenario").value)
        if item is None:
            return
        game = events.games.load(item["game"])
        try:
            table = Table.create(game, new_game_id(), item["scenario"], new_secret(), at=now())
        except ScenarioError as error:
            self.notice(t("offline.bad_scenario", error=fault_words(error)), "error")
            add_detail(byid("notice"), error)
            return
        clear(byid("log"))
        self.begin(table)
        self.notice(t("offline.started"), "ok")
        self.save()

    def resume(self, saved: str) -> None:
        """The game this browser kept: every envelope absorbed again and its hash checked."""
        try:
            kept = json.loads(saved)
            lines = [line for line in kept["lines"].split("\n") if line]
            name = json.loads(lines[0])["data"]["game"]
            game = events.games.load(name)
            envelopes = [decode_envelope(game, line, f"$[{index}]") for index, line in enumerate(lines)]
            table = Table.restore(game, envelopes[0].game, envelopes, True, kept["secret"])
        except Exception as error:  # not JSON (Brython's decoder raises its own), too deep, or any other fault
            # of what was kept: said, and the page still starts new games (a table probe found "not json{" and
            # a save 100,000 levels deep each left the page never ready, its Start button disabled for good)
            self.notice(t("offline.bad_save", error=fault_words(error)), "error")
            add_detail(byid("notice"), error)
            return
        self.begin(table)
        self.notice(t("offline.resumed", seq=table.seq), "ok")

    def begin(self, table: object) -> None:
        self.table = table
        if not self.game_over(table):
            byid("offline-new").setAttribute("hidden", "hidden")
        self.game = table.game  # a renderer per game: it keeps the board it built (another scenario, another board)
        self.view = renderer(self.game.name)(self.game, clear(byid("board")), clear(byid("info")))
        if self.ui is None:
            self.ui = BoardUI(byid("board"))
        window.document.body.setAttribute("data-game", self.game.name)
        set_text(byid("game-id"), table.game_id)
        self.shadow = Table(self.game, table.game_id)  # the states before each event, which the log's words read
        self.drawn_for = self.handover = self.rows_for = None
        self.secret_rows = []
        self.secret_refusals = []
        self.settle()  # whom the lines are worded for (a resumed game: the seat whose turn it is)
        log = byid("log")
        for envelope in table.envelopes:
            add(log, self.row(envelope))
        self.render()

    def row(self, envelope: object) -> object:
        """The log line of ``envelope``, the next one the page shows: no dispute link (the game is
        on no server until it is imported)."""
        game, before = self.shadow.game, self.shadow.state
        self.shadow.absorb(envelope, verify=False)
        if not game.hides:
            return event_row(game, envelope, before, False)
        seat, over = self.rows_for or (None, False)
        node = event_row(game, game.visible(envelope, self.reader(envelope, seat, over), over), before, False)
        if game.visibility(envelope.event) is not None:
            self.secret_rows.append([envelope, before, node, game])
        return node

    # --- secrets on one device (GH-C2, CORE-2) ----------------------------------------------------

    def holder(self) -> object:
        """The seat holding the device: the one whose yes an open undo request waits for (the panel
        hands it the device), else the seat to move; None once the game is over."""
        table = self.table
        if self.game_over(table):
            return None
        request = table.undos.open
        if request is not None and not table.revealed:
            waiting = [seat for seat in request.needs if seat not in request.agreed]
            if waiting:
                return waiting[0]
        return self.seat()

    def holds_secret(self, seat: object) -> bool:
        """Whether ``seat``'s own view shows what another seat may not see yet. The board says (a
        Gloomhaven pick, sealed until the reveal); a game that hides events and whose board does not
        say: any envelope in play that only some seats, this one among them, see whole."""
        if seat is None or not self.game.hides:
            return False
        said = getattr(self.view, "holds_secret", None)
        if said is not None:
            return bool(said(self.table.state, seat))
        for envelope in self.table.undos.effective:
            allowed = self.game.visibility(envelope.event)
            if allowed is not None and seat in allowed:
                return True
        return False

    def settle(self) -> None:
        """Who the screen is for now: the holder, behind a hand-over screen when the device passes
        from one seat to another while a secret of either would be on screen (or to a seat with a
        secret, from nobody: a reload); the log's secret lines worded for whoever sees the screen."""
        over = self.game_over(self.table) or bool(self.table.revealed)
        holder = None if over else self.holder()
        if holder != self.drawn_for:
            previous = self.drawn_for
            self.drawn_for = holder
            if holder is not None and (self.holds_secret(holder) or self.holds_secret(previous)):
                self.handover = holder
            elif self.handover is not None:
                self.handover = None
        if over:
            self.handover = None
        self.word_rows(None if self.handover is not None else holder, over)

    def word_rows(self, seat: object, over: bool) -> None:
        """Word every secret log line as ``Game.visible`` gives it to ``seat`` (None: nobody's view,
        while the device is handed over); a refused secret command of another seat leaves the log."""
        if self.rows_for == (seat, over):
            return
        self.rows_for = (seat, over)
        for item in self.secret_rows:
            envelope, before, node, game = item
            fresh = event_row(game, game.visible(envelope, self.reader(envelope, seat, over), over), before, False)
            node.parentNode.replaceChild(fresh, node)
            item[2] = fresh
        kept = []
        for who, node in self.secret_refusals:
            if who == seat:
                kept.append((who, node))
            elif node.parentNode is not None:
                node.parentNode.removeChild(node)
        self.secret_refusals = kept

    def reader(self, envelope: object, seat: object, over: bool) -> object:
        """Whom a secret line is worded for: ``seat``, but nobody for a secret taken back before its reveal,
        which stays sealed for every seat, its own too (the owner knows what it picked, and the device may be
        in another's hands when that seat's view is drawn again: a table probe saw blue read red's taken-back
        pick)."""
        return None if not over and envelope.seq in self.table.undos.undone else seat

    def draw_handover(self) -> None:
        """``#handover`` (after the bar): "Pass the device to blue: tap when blue holds it", and the
        page's ``handing-over`` class, which hides the board, the actions, the notice and the log."""
        main = window.document.querySelector("main.offline")
        box = byid("handover")
        if self.handover is None:
            if box is not None:
                box.parentNode.removeChild(box)
            main.classList.remove("handing-over")
            return
        seat = self.handover
        if box is None:
            box = el("section", None, "handover", (("id", "handover"), ("role", "dialog"),
                                                   ("aria-labelledby", "handover-text")))
            bar = window.document.querySelector("main.offline .bar")
            bar.parentNode.insertBefore(box, bar.nextSibling)
        clear(box)
        box.setAttribute("data-seat", seat)
        button = el("button", t("offline.handover_ready", seat=seat_name(seat)), "action handover-ready",
                    (("id", "handover-ready"), ("type", "button"), ("data-seat", seat)))
        listen(button, "click", self.handed_over)
        add(box, el("p", t("offline.handover", seat=seat_name(seat)), "handover-text", (("id", "handover-text"),)),
            button)
        main.classList.add("handing-over")
        button.focus()

    def handed_over(self, event: object) -> None:
        """The next seat holds the device: its own view."""
        self.handover = None
        self.render()

    def game_over(self, table: object) -> bool:
        return bool(table.game.is_over(table.state))

    # --- playing --------------------------------------------------------------------------------------

    def seat(self) -> object:
        """The seat to move: the first of ``turn`` (secret picks: each seat in order, passing the device)."""
        turn = self.game.turn(self.table.state)
        return turn[0] if turn else None

    def render(self) -> None:
        table = self.table
        self.settle()
        self.draw_handover()
        state = table.state
        over = bool(self.game.is_over(state))
        mover = None if over else self.seat()
        # The board and the buttons are the mover's, unless the device is being handed over (then
        # nobody's, hidden too) or held by another seat (an undo's answerer) while the mover has a secret.
        seat = mover
        if self.handover is not None or (mover != self.drawn_for and self.holds_secret(mover)):
            seat = None
        who = byid("who")
        set_text(who, t("offline.over") if over else t("offline.to_move", seat=seat_name(mover)))
        who.setAttribute("data-seat", mover or "")
        status = byid("hash")
        set_text(status, t("hash.ok", seq=table.seq))
        status.setAttribute("class", "hash ok")
        status.setAttribute("data-seq", str(table.seq))
        status.setAttribute("data-hash", table.envelopes[-1].hash)
        self.view.in_force = table.game  # the version in force decides what a seat may send (AH-C10's offers)
        # the envelopes still in play (events/undo.py): a board's last move is never one taken back;
        # each as the seat the screen is for may see it, and the state as the game's view gives it
        envelopes = table.undos.effective
        viewer, revealed = self.rows_for
        if self.game.hides and not revealed:
            envelopes = [self.game.visible(envelope, viewer, False) for envelope in envelopes]
        playing = not over and seat == mover
        self.view.draw(self.game.view(state, viewer), envelopes, seat, playing, self.pick)
        self.pickable = self.ui.drawn(self.game.name, playing)
        self.draw_actions(state, seat, over)
        self.draw_undo(over or self.handover is not None)
        strike(byid("log"), table.undos)  # what an undo took back, struck through (CORE-4)
        self.draw_tools(over)
        window.document.body.setAttribute("data-over", "1" if over else "0")

    def draw_actions(self, state: object, seat: object, over: bool) -> None:
        box = clear(byid("actions"))
        if over:
            return
        prompt_text = getattr(self.view, "prompt_text", None)
        text = prompt_text(state, seat, seat) if prompt_text is not None else None
        buttons = self.view.actions(state, seat)
        if text is None:  # the play page's prompt (client/pages/play.py), in the game's word for a place
            if self.pickable:
                game = self.game.name if self.game.name in PLACE_GAMES else "other"
                text = t("play.your_turn_click." + game) + (t("play.or") if buttons else ".")
            else:
                text = t("play.your_turn") if buttons else t("play.nothing_to_do")
        add(box, el("span", text, "prompt"))
        for label, kind, data in buttons:
            button = el("button", label, "action", (("data-command", kind),))
            listen(button, "click", self.action_handler(kind, data, label))
            add(box, button)
        # What a waiting seat may send while another plays (a renderer's ``off_turn_actions``: arkham-5's trade
        # offers, AH-C10), as on the play page: each seat's own, named, made as that seat (it holds the device).
        off_turn = getattr(self.view, "off_turn_actions", None)
        turn = self.game.turn(state)
        for other in (self.game.seats(state) if off_turn is not None and seat is not None else ()):  # nobody's view: none
            if other in turn:
                continue
            for label, kind, data in off_turn(state, other):
                button = el("button", t("offline.off_turn_as", seat=seat_name(other), action=label), "action",
                            (("data-command", kind), ("data-off-turn", "1"), ("data-seat", other)))
                listen(button, "click", self.command_handler(other, kind, data, label))
                add(box, button)
        local = getattr(self.view, "local_actions", None)  # buttons the renderer handles (a path being built)
        for label, key in (local(state, seat) if local is not None else ()):
            button = el("button", label, "action local", (("data-path-action", key),))
            listen(button, "click", self.local_handler(key))
            add(box, button)
        asking = getattr(self.view, "asking", None)  # a choice the board asks for (arkham's tied ways, AH-7)
        key = asking(state, seat) if asking is not None else None
        if key is not None and key != self.choosing:  # once per choice: its buttons were below a phone's fold
            found = box.querySelectorAll("button.local")
            into_view([found.item(index) for index in range(found.length)])
        self.choosing = key

    def action_handler(self, kind: str, data: dict, label: str) -> object:
        def handler(event: object) -> None:
            self.submit(kind, data, label)

        return handler

    def local_handler(self, key: str) -> object:
        def handler(event: object) -> None:
            command = self.view.path_action(self.table.state, self.seat(), key)
            if command is not None:
                self.submit(*command)
            else:
                self.render()

        return handler

    def pick(self, place: object) -> None:
        command = getattr(self.view, "pick_command", None)
        picked = command(self.table.state, self.seat(), place) if command is not None else (
            "Move", {"to": place}, t("play.move_to", place=place))
        if picked is None:  # the renderer kept the click (a waypoint of a path being built)
            self.render()
            return
        self.submit(*picked)

    # --- undo: every seat is on this device (CORE-4 to CORE-7) -----------------------------------

    def draw_undo(self, over: bool) -> None:
        """The ``#undo`` panel below the actions: an Undo button for each seat with a command of its
        own in play; while a request is open, whom it waits for and yes/no as the first of them, who
        is handed the device. The book of undos (``table.undos``) decides; this only draws."""
        box = undo_panel()
        table = self.table
        if over or table.revealed:
            return
        undos = table.undos
        request = undos.open
        if request is not None:
            waiting = undo_pending(box, request)
            answering = waiting[0]
            add(box, el("span", t("offundo.pass_to", seat=seat_name(answering)), "undo-pass",
                        (("data-seat", answering),)))
            for yes in (True, False):
                button = el("button", t("offundo.yes_as" if yes else "offundo.no_as", seat=seat_name(answering)),
                            "action undo-answer", (("data-answer", "yes" if yes else "no"),
                                                   ("data-request", str(request.seq)), ("data-seat", answering)))
                listen(button, "click", self.command_handler(answering, "AnswerUndo",
                                                             {"request": request.seq, "yes": yes},
                                                             t("undo.yes" if yes else "undo.no")))
                add(box, button)
            return
        for seat in self.game.seats(table.state):
            back_to = undos.last_own(seat)
            if back_to is None:
                continue
            button = el("button", t("offundo.undo_as", seat=seat_name(seat)), "action undo-ask",
                        (("data-back-to", str(back_to)), ("data-seat", seat),
                         ("title", t("undo.button_title", seq=back_to))))
            listen(button, "click", self.command_handler(seat, "AskUndo", {"back_to": back_to}, t("undo.button")))
            add(box, button)

    def command_handler(self, seat: str, kind: str, data: dict, label: str) -> object:
        def handler(event: object) -> None:
            self.submit(kind, data, label, seat)

        return handler

    def submit(self, kind: str, data: dict, label: str, seat: object = None) -> None:
        """Decide the command here, as the server's Room would, then log, save and draw. ``seat``:
        the seat it is made as (an undo's asker or answerer); by default the seat to move."""
        if seat is None:
            seat = self.seat()
        if seat is None:
            return
        try:
            command = self.game.commands.build(dict(data, type=kind), "$.command")
        except DecodeError as error:
            self.notice(t("offline.bad_command", error=fault_words(error)), "error")
            add_detail(byid("notice"), error)
            return
        before = self.table.seq
        # The id names the seq its first event gets: unique in the log (a refused command logs nothing,
        # so its id is free again), and a resumed page needs no counter to avoid a logged id.
        result = self.table.submit(seat, command, f"offline-{before + 1}", at=now())
        if isinstance(result, Rejection):
            # As a rejected frame carries it: the message, said in the reader's language (issue 17).
            frame = {"rule": result.rule, "reason": result.reason, "key": result.key,
                     "params": {name: message_data(value) for name, value in result.params}}
            row = rejection_row(self.game, frame, label)
            if self.game.hides and self.game.redact(command) is not command:  # a secret command: its cards
                self.secret_refusals.append((seat, row))  # leave the log when the device does (word_rows)
            add(byid("log"), row)
            self.notice(t("play.rejected", rule=result.rule), "rejected")
            add(byid("notice"), reason_span(self.game, frame))
            return
        self.settle()  # the device may pass on: the new lines are worded for whoever sees them next
        log = byid("log")
        for envelope in self.table.envelopes[before:]:
            add(log, self.row(envelope))
        self.notice(accepted(before + 1, self.table.seq), "ok")
        self.save()
        self.render()

    # --- keeping and exporting ----------------------------------------------------------------------

    def log_text(self) -> str:
        return "".join(encode_envelope(envelope) + "\n" for envelope in self.table.envelopes)

    def save(self) -> None:
        """The log and the secret, after every command: a reload resumes here (the secret never leaves
        this browser but in the SecretRevealed that ends the game)."""
        kept = {"format": SAVE_FORMAT, "secret": self.table.secret, "lines": self.log_text()}
        try:
            window.localStorage.setItem(STORAGE_KEY, json.dumps(kept))
        except Exception as error:  # QuotaExceededError, or storage switched off: play on, and say so
            self.notice(t("offline.not_saved", error=str(error)), "warning")

    def draw_tools(self, over: bool) -> None:
        box = clear(byid("offline-tools"))
        if self.export_url is not None:
            window.URL.revokeObjectURL(self.export_url)
        options = window.JSON.parse(json.dumps({"type": JSON_LINES}))
        self.export_url = window.URL.createObjectURL(window.Blob.new([self.log_text()], options))
        link = el("a", t("offline.export"), "export", (("id", "offline-export"), ("href", self.export_url),
                                                       ("download", f"chronicle-{self.table.game_id}.jsonl")))
        add(box, link)
        if over:
            publish = el("button", t("offline.publish"), "publish", (("id", "offline-publish"), ("type", "button")))
            listen(publish, "click", self.publish)
            add(box, publish)
            add(box, el("span", t("offline.import_hint"), "hint"))
            byid("offline-new").removeAttribute("hidden")
        elif byid("offline-new").getAttribute("hidden") is not None:
            # A game in progress: starting another replaces it, so that takes a click on "abandon" first.
            abandon = el("button", t("offline.abandon"), "abandon", (("id", "offline-abandon"), ("type", "button")))
            listen(abandon, "click", self.abandon)
            add(box, abandon)

    def publish(self, event: object) -> None:
        """The finished game to the server that served this page: ``POST /api/games/import`` audits it."""
        table = self.table

        def done(request: object) -> None:
            self.published(request, table.game_id)

        self.notice(t("offline.publishing"), "ok")
        ajax.post("/api/games/import", data=self.log_text(), headers={"Content-Type": JSON_LINES}, mode="text",
                  oncomplete=done)

    def published(self, request: object, game_id: str) -> None:
        """A replay link, or the server's refusal in words (its code, and the seq where the log diverged)."""
        try:
            body = json.loads(request.text)
        except Exception:  # no server (status 0), or not JSON: a proxy's page
            body = {}
        node = byid("notice")
        if request.status == 201 or body.get("code") == "game-exists":  # imported now, or before
            self.notice(t("offline.published"), "ok")
            add(node, el("span", " "), el("a", t("offline.replay_link"), "replay-link",
                                          (("id", "offline-replay"), ("href", f"/replay/{game_id}"))))
        elif request.status == 0:
            self.notice(t("offline.no_server"), "error")
        else:
            self.notice(t("offline.refused", code=body.get("code") or request.status,
                          message=body.get("message") or str(request.text)[:200]), "error")
        node.setAttribute("data-code", body.get("code") or "")

    def abandon(self, event: object) -> None:
        """Show the scenario choice again; the game stays saved until another one starts."""
        byid("offline-new").removeAttribute("hidden")
        self.draw_tools(False)

    # --- the page ---------------------------------------------------------------------------------------

    def notice(self, text: str, cls: str) -> None:
        node = byid("notice")
        set_text(node, text)
        node.setAttribute("class", f"notice {cls}")

    def set_ready(self) -> None:
        if not self.ready:
            self.ready = True
            mark_ready()


def main() -> None:
    mark("imported")
    OfflinePage().start()
