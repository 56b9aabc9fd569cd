"""``/play/{id}#token=…`` (a seat) and ``/watch/{id}`` (a spectator): the live game.

The page says ``hello`` with the seq it holds, folds every envelope with ``events/``, checks each
hash, and draws the board; a long game it starts from the server's snapshot, checked against the
logged hash, and folds the whole log after the first draw (issue 16, docs/client.md). A seat clicks a Location to send ``Move`` (any Location: the server's
rules decide, and a refusal comes back with its clause and reason) or presses an action button.
A spectator's page is the same without a seat: nothing is clickable and there are no buttons.
Beside the log, the chat of the page's channel (client/chat.py): seats talk to seats, spectators to spectators.
"""

from __future__ import annotations

from browser import timer, window

import events.games
from client.boards import renderer
from client.boardui import BoardUI
from client.chat import ChatPanel
from client.dom import (
    add,
    byid,
    clear,
    el,
    fragment_params,
    into_view,
    listen,
    mark,
    mark_ready,
    path_game_id,
    set_text,
)
from client.eventlog import accepted, event_row, notice_row, reason_span, rejection_row
from client.faults import add_detail, fault_words
from client.follow import Follower, Gap
from client.i18n import seat_name, t
from client.loader import load_game, loaded
from client.net import Connection
from client.pages.errors import ERRORS, error_text
from client.pages.versions import show_consent, show_rules_version
from client.seatclock import SeatClock, clock_text
from client.undo import draw as draw_undo
from client.undo import strike
from events.log import LogError
from events.record import DecodeError
from events.snapshot import SnapshotError
from events.wire import frame_ack

FIRST_ROWS = 40  # log rows drawn before a catch-up counts as done; the rest come just after
HISTORY_TICK_MS = 25  # the log before a snapshot is folded in slices this long, between the page's own work
CLOCK_AT_ONCE = 300  # envelopes the seat clock counts in one go; a longer catch-up counts in the background
# What a highlighted place is called in each game, for the default prompt (a renderer may word its
# own): the catalogue's ``play.your_turn_click.<game>``; any other game says "place".
PLACE_GAMES = ("mecha", "skirmish", "echo", "arkham", "gloomhaven")


class PlayPage:
    def __init__(self, game_id: str, token: str | None, seated: bool) -> None:
        self.game_id = game_id
        self.token = token
        self.seated = seated
        self.token_refused = False
        self.seat = None
        self.game = None
        self.view = None
        self.follower = None
        self.full = None  # after a snapshot join: the Follower folding the whole log in the background (issue 16)
        self.history: list = []  # the history frames' events frames it has still to fold
        self.history_at = 0
        self.folding = False
        self.clock = SeatClock()  # each seat's time spent, from the envelopes' at (issue 18)
        self.clocked = 0  # envelopes the clock has counted
        self.times_pending = False  # the times box says the clock is still counting
        self.head = 0
        self.ready = False
        self.render_pending = False
        self.checking = False
        self.rows_from = 0  # log rows exist for envelopes[rows_from:]
        self.waiting = None  # frames held while the game's scripts load
        self.scripts_loaded = False
        self.tried: dict = {}  # command id -> what it asked, for the rejection row
        self.ui = None  # zoom, legend and keyboard access of the board
        self.refused_token = False  # the server said the link's token matches no seat
        self.pickable = 0  # how many places a click acts on now
        self.choosing = None  # the choice the board asked for last (its buttons scrolled into view once)
        self.asked = None  # the question this seat's answer was last asked for (scrolled into view once)
        self.stale = False  # the server serves another build: no command is sent (client/net.py)
        self.connection = Connection(game_id, token, self.held, self.on_frame, self.on_connection)
        self.chat = ChatPanel(self.connection.send_chat)  # table talk beside the log (issue 18)

    def held(self) -> int:
        """The seq to say hello with: 0 while a snapshot join's history is not folded (it is asked again)."""
        return self.follower.seq if self.follower is not None and not self.follower.base else 0

    def start(self) -> None:
        set_text(byid("game-id"), self.game_id)
        if self.seated and not self.token:
            self.notice(t("play.no_token"), "warning")
        self.connection.open()
        # The HTML names the game (``body[data-game]``): import its modules while the socket opens
        # and the server answers, not after the welcome (~50 ms of a warm page, issue 16).
        name = str(window.document.body.getAttribute("data-game") or "")
        if name in events.games.NAMES and loaded(name):
            timer.set_timeout(lambda: self.preload(name), 0)

    def preload(self, name: str) -> None:
        if self.game is None:
            renderer(events.games.load(name).name)

    # --- frames ------------------------------------------------------------------------------------

    def on_connection(self, state: str) -> None:
        node = byid("connection")
        set_text(node, t("net." + state))
        node.setAttribute("class", f"connection {state}")

    def on_frame(self, frame: dict) -> None:
        if type(frame) is dict and frame.get("type") == "outdated":  # client/net.py: no frame comes after it
            self.outdated()
            return
        if self.waiting is not None:  # the game's scripts are loading: keep the frames, in order
            self.waiting.append(frame)
            return
        kind = "events" if type(frame) is list else frame.get("type")  # events: the one array frame
        if kind == "welcome" and self.game is None and not self.scripts_loaded:
            mark("welcome")
            self.waiting = [frame]
            load_game(frame["rules"], self.game_loaded, self.game_failed)
            return
        if kind == "welcome":
            self.welcome(frame)
        elif kind == "events":
            self.events(frame)
            ack = frame_ack(frame)  # the sender's copy of its command's frame is also its ack
            if ack is not None:
                self.on_frame(ack)
        elif kind == "snapshot":
            self.snapshot(frame)
        elif kind == "history":
            self.history_frame(frame)
        elif kind == "ack":
            self.tried.pop(frame.get("id"), None)
            self.notice(accepted(frame.get("first"), frame.get("last")), "ok")
        elif kind == "rejected":
            tried = self.tried.pop(frame.get("id"), t("play.command"))
            add(byid("log"), rejection_row(self.game, frame, tried))
            self.notice(t("play.rejected", rule=frame.get("rule")), "rejected")
            add(byid("notice"), reason_span(self.game, frame))  # in the reader's language (issue 17)
        elif kind == "chat":
            self.chat.line(frame)
        elif kind == "chat-history":
            self.chat.history(frame)
        elif kind == "error" and str(frame.get("code") or "").startswith("chat-"):
            self.chat.refused(frame.get("code"), frame.get("message"))
        elif kind == "error":
            self.error(frame)
        else:
            self.notice(t("play.unknown_frame", kind=kind), "error")

    def outdated(self) -> None:
        """The server now serves another build (docs/protocol.md): what the page shows stays, input
        stops, and one message offers the reload that brings the new scripts (content-hashed URLs)."""
        self.stale = True
        self.waiting = None
        self.notice(t("deploy.outdated"), "warning outdated")
        button = el("button", t("deploy.reload"), "reload", (("id", "deploy-reload"), ("type", "button")))
        listen(button, "click", lambda event: window.location.reload())
        add(byid("notice"), button)
        self.disable_input()

    def disable_input(self) -> None:
        for button in window.document.querySelectorAll("#actions button, #undo button, #chat-form input, #chat-form button"):
            button.setAttribute("disabled", "disabled")

    def error(self, frame: dict) -> None:
        """An error frame in words for the player; the log row keeps the server's code and message."""
        code = frame.get("code")
        technical = t("error.other", code=code, message=frame.get("message"))
        if code in ERRORS:
            self.notice(error_text(code, frame.get("message"), self.game_id), "error", technical, code)
        else:
            self.notice(technical, "error", None, code)
        self.refused(code)

    def refused(self, code: object) -> None:
        """Errors that no retry can fix: a wrong seat token watches instead; no game stops."""
        if code == "bad-token" and self.token is not None:
            self.refused_token = True
            self.token = self.connection.token = None
            self.connection.restart()  # hello again, with token null: a spectator
        elif code in ("no-such-game", "replaced"):  # replaced: a newer page of this seat took over; do not fight it
            self.connection.stopped = True
            status = byid("hash")
            set_text(status, t("hash.no_game"))  # nothing will come to check: not "loading…" forever
            status.setAttribute("class", "hash bad")
            set_text(byid("who"), "")
            mark_ready()

    def game_loaded(self) -> None:
        self.scripts_loaded = True
        frames, self.waiting = self.waiting, None
        for frame in frames or ():  # None: the page went out of date while they loaded (``outdated``)
            self.on_frame(frame)

    def game_failed(self, message: str) -> None:
        self.waiting = None
        self.connection.stopped = True
        self.notice(message, "error")
        mark_ready()  # nothing more will come: let a test see the error

    def welcome(self, frame: dict) -> None:
        if self.game is None:
            self.game = events.games.load(frame["rules"])
            self.view = renderer(self.game.name)(self.game, byid("board"), byid("info"))
            self.ui = BoardUI(byid("board"))
            listen(byid("board"), "click", self.board_tapped)
            window.document.body.setAttribute("data-game", self.game.name)
            self.follower = Follower(self.game)
            mark("game-loaded")
        elif self.follower.base:  # a reconnection before the history was folded: everything comes again
            self.restart_follower()
        self.seat = frame.get("seat")
        self.chat.open(self.seat)
        self.head = max(self.head, frame.get("head") or 0)
        if self.ready and self.follower.seq >= self.head:
            self.schedule_render()  # a reconnection: nothing missed
        who = byid("who")
        if self.seat is not None:
            set_text(who, t("play.you_play", seat=seat_name(self.seat)))
        elif not self.seated:
            set_text(who, t("play.spectating"))
        elif self.token is None and self.refused_token:
            set_text(who, t("play.token_refused"))
        else:
            set_text(who, t("play.no_token_who"))
        self.maybe_ready()

    def events(self, frame: dict) -> None:
        """One command's events frame: fold them all, then draw (its hash is checked at the draw)."""
        if self.follower is None:
            self.notice(t("play.event_before_welcome"), "error")
            return
        if self.follower.seq == 0:
            mark("first-event")
        try:
            envelopes = self.follower.add_frame(frame, self.game_id)
        except Gap as gap:
            self.notice(t("play.gap", expected=gap.expected, got=gap.got), "warning")
            self.connection.restart()
            return
        except (DecodeError, LogError) as error:
            self.notice(t("play.bad_envelope", error=fault_words(error)), "error")
            add_detail(byid("notice"), error)
            return
        if not envelopes:
            return
        if self.ready:
            for envelope in envelopes:
                add(byid("log"), event_row(self.game, envelope, self.follower.before(envelope.seq)))
            self.schedule_render()
        elif self.follower.seq >= self.head:
            self.caught_up()

    def caught_up(self) -> None:
        mark("folded")
        self.catch_up_rows()
        self.render()  # the catch-up is complete: draw once

    # --- a long game joined from a snapshot (issue 16, docs/client.md) ------------------------------

    def snapshot(self, frame: dict) -> None:
        """The server's snapshot, checked (its hash recomputed) before the tail is folded on it; a
        snapshot that does not check is refused, said, and the whole log asked for instead."""
        if self.follower is None or self.follower.seq:
            return  # only ever sent after a hello from seq 0
        mark("first-event")
        try:
            follower = Follower.from_snapshot(self.game, self.game_id, frame)
        except (DecodeError, LogError, SnapshotError) as error:
            self.notice(t("catchup.bad_snapshot", error=fault_words(error)), "error")
            add_detail(byid("notice"), error)
            self.connection.snapshots = False
            self.connection.restart()  # hello again from seq 0, without a snapshot: the whole log
            return
        mark("snapshot")
        self.follower = follower
        self.full = Follower(self.game)
        self.history, self.history_at = [], 0
        # The rows before the snapshot need its history folded: said at the top of the log meanwhile.
        add(byid("log"), notice_row(t("catchup.log_pending", seq=follower.base), "log-pending"))
        if follower.seq >= self.head:  # nothing after the snapshot: draw now
            self.caught_up()

    def history_frame(self, frame: dict) -> None:
        """A ``history`` frame: events frames from before the snapshot, folded in the background."""
        frames = frame.get("frames")
        if self.full is None or not isinstance(frames, list):
            return
        self.history.extend(frames)
        self.schedule_history()

    def schedule_history(self) -> None:
        if not self.folding:
            self.folding = True
            timer.set_timeout(self.fold_history, 0)

    def fold_history(self) -> None:
        """A slice of the whole log's fold: the history, then the envelopes the page folded on the
        snapshot; once it has them all, its Follower replaces the snapshot's (``adopt_full``)."""
        self.folding = False
        full, partial = self.full, self.follower
        if full is None:
            return
        started = window.performance.now()
        try:
            while window.performance.now() - started < HISTORY_TICK_MS:
                if self.history_at < len(self.history):
                    full.add_frame(self.history[self.history_at], self.game_id)
                    self.history_at += 1
                elif full.seq < partial.base:
                    return  # the next history frame wakes it
                elif full.seq < partial.seq:
                    full.add_envelopes(partial.envelopes[full.seq : full.seq + 50])
                else:
                    self.adopt_full()
                    return
        except (Gap, DecodeError, LogError) as error:
            self.full = None  # the page keeps the snapshot's state, every hash after it checked
            self.notice(t("play.bad_envelope", error=fault_words(error)), "error")
            add_detail(byid("notice"), error)
            return
        self.schedule_history()

    def adopt_full(self) -> None:
        """The whole log is folded: its Follower takes over (log rows, seat clock, every hash checked)."""
        self.follower, self.full, self.history = self.full, None, []
        mark("history")
        pending = byid("log").querySelector("li.log-pending")
        if pending is not None:
            pending.remove()
        self.schedule_render()
        if not self.checking:
            self.checking = True
            timer.set_timeout(self.check_older, 20)

    def restart_follower(self) -> None:
        """Start again from nothing (the log panel too): what the new hello brings replaces it all."""
        self.follower = Follower(self.game)
        self.full, self.history, self.history_at = None, [], 0
        self.clock, self.clocked = SeatClock(), 0
        self.ready = False
        self.rows_from = 0
        clear(byid("log"))

    # --- drawing -------------------------------------------------------------------------------------

    def schedule_render(self) -> None:
        """Draw once per burst of frames (a command's events, or the catch-up), not per event."""
        if not self.render_pending:
            self.render_pending = True
            timer.set_timeout(self.render, 0)

    def render(self) -> None:
        self.render_pending = False
        follower = self.follower
        follower.check_latest()
        if not self.ready:
            mark("hashed")
        self.show_hash()
        if follower.table is not None:  # the version GameStarted names, or a RulesVersionChanged's (CORE-3)
            self.view.in_force = follower.table.game  # what a click sends is that version's command
            show_rules_version(follower.table.game, follower.table.state)  # and its variant (GH-V1, GH-V2)
            show_consent(follower.table, self.seat, self.send)  # a move by the seats' consent (CORE-10, CORE-11)
        self.show_times(self.advance_clock(CLOCK_AT_ONCE))
        state = follower.state
        if state is not None:
            turn = self.game.turn(state)
            current = turn[0] if turn else None
            # Only a seat whose turn it is gets places to tap: a waiting seat's board is drawn as a
            # spectator's, the mover's options as the other seat's (not its own to take), and a tap
            # on it says whom the game waits for instead of sending a move the rules refuse (MV-C3).
            interactive = self.seat is not None and not self.game.is_over(state) and self.seat in self.game.turn(state)
            # the envelopes still in play (events/undo.py): a board's last move is never one taken back
            self.view.draw(state, follower.table.undos.effective, current, interactive, self.pick)
            self.pickable = self.ui.drawn(self.game.name, interactive)
            self.draw_actions(state, current)
            draw_undo(self)  # issue 18: the Undo button, or the open request with yes/no (client/undo.py)
            self.show_question()
            if self.stale:
                self.disable_input()
        if follower.table is not None:
            strike(byid("log"), follower.table.undos)  # what an undo took back, struck through (CORE-4)
        self.maybe_ready()
        if not self.checking:
            self.checking = True
            timer.set_timeout(self.check_older, 20)

    def show_hash(self) -> None:
        follower = self.follower
        status = byid("hash")
        set_text(status, follower.status())
        status.setAttribute("class", "hash bad" if follower.mismatch is not None else "hash ok")
        status.setAttribute("data-seq", str(follower.seq))
        if follower.seq:
            status.setAttribute("data-hash", follower.newest_hash())
        status.setAttribute("title", t("hash.checked", n=follower.sent_count(), checked=follower.checked_count()))

    def catch_up_rows(self) -> None:
        """The log rows of the newest envelopes of a catch-up; older rows follow in the background."""
        envelopes = self.follower.envelopes
        self.rows_from = max(self.follower.base, len(envelopes) - FIRST_ROWS)
        log = byid("log")
        for envelope in envelopes[self.rows_from :]:
            add(log, event_row(self.game, envelope, self.follower.before(envelope.seq)))

    def check_older(self) -> None:
        """After a draw, a little per tick so the page stays responsive: first the log rows the
        catch-up left out (oldest at the top), then the hashes of every envelope not yet checked."""
        if self.rows_from > self.follower.base:  # after a snapshot, rows before it wait for the whole log
            log = byid("log")
            start = max(self.follower.base, self.rows_from - 30)
            first = log.firstChild
            for envelope in self.follower.envelopes[start : self.rows_from]:
                log.insertBefore(event_row(self.game, envelope, self.follower.before(envelope.seq)), first)
            self.rows_from = start
            timer.set_timeout(self.check_older, 0)
            return
        counted = self.advance_clock(CLOCK_AT_ONCE)  # the seat clock of a long catch-up, a slice per tick
        if counted and self.times_pending:
            self.show_times(True)
        more = self.follower.check_some(3)
        self.show_hash()
        if more or (not counted and not self.follower.base):  # a snapshot's: adopt_full starts it again
            timer.set_timeout(self.check_older, 0)
        else:
            self.checking = False

    def draw_actions(self, state: object, current: object) -> None:
        box = clear(byid("actions"))
        if self.seat is None:  # a spectator reads whose turn it is above the board too, and has no buttons
            turn = [] if self.game.is_over(state) else self.game.turn(state)
            waited = t("play.waiting", seat=", ".join([seat_name(seat) for seat in turn])) if turn else None
            self.show_turn(waited, "watching")
            return
        mine = self.seat in self.game.turn(state)  # simultaneous turns (secret picks) have several seats
        if self.game.is_over(state):
            add(box, el("span", t("play.over"), "over"))
            self.show_turn(None, "")
            return
        # A renderer may word the prompt for its game; ask it first (gloomhaven's learns there
        # which seat it draws its cards for, and actions() would tell it too early).
        prompt_text = getattr(self.view, "prompt_text", None)
        text = prompt_text(state, self.seat, current) if prompt_text is not None else None
        buttons = self.view.actions(state, self.seat)
        if text is None:
            text = self.default_prompt(mine, current, buttons)
        # A waiting seat's line stands out (style.css ``.prompt.waiting``): it is not this seat's turn.
        add(box, el("span", text, "prompt" if mine else "prompt waiting", (("data-turn", "mine" if mine else "waiting"),)))
        self.show_turn(t("tableux.turn_mine") if mine else text, "mine" if mine else "waiting")
        for label, kind, data in buttons:
            button = el("button", label, "action", (("data-command", kind),))
            if not mine:
                button.setAttribute("disabled", "disabled")
            listen(button, "click", self.action_handler(label, kind, data))
            add(box, button)
        off_turn = getattr(self.view, "off_turn_actions", None)  # what a waiting seat may still send
        for label, kind, data in (off_turn(state, self.seat) if off_turn is not None and not mine else ()):
            button = el("button", label, "action", (("data-command", kind), ("data-off-turn", "1")))
            listen(button, "click", self.action_handler(label, kind, data))
            add(box, button)
        local = getattr(self.view, "local_actions", None)  # buttons the renderer handles (a path being built)
        for label, key in (local(state, self.seat) if local is not None else ()):
            button = el("button", label, "action local", (("data-path-action", key),))
            listen(button, "click", self.local_handler(key))
            add(box, button)
        asking = getattr(self.view, "asking", None)  # a choice the board asks for (arkham's tied ways, AH-7)
        key = asking(state, self.seat) if asking is not None else None
        if key is not None and key != self.choosing:  # once per choice: its buttons were below a phone's fold
            found = box.querySelectorAll("button.local")
            into_view([found.item(index) for index in range(found.length)])
        self.choosing = key

    def show_question(self) -> None:
        """A question waiting for this seat's answer, whoever's turn it is (an undo request, CORE-5; a
        rules version proposed, CORE-11): the bar above the board says so, and the page brings its yes
        and no into view once. On a phone both were below the fold while the bar said "Waiting for red…"."""
        table = self.follower.table
        seat = self.seat
        if seat is None or table is None or table.state is None or table.revealed or self.game.is_over(table.state):
            return
        request = table.undos.open
        proposal = table.proposal
        if request is not None and seat in request.needs and seat not in request.agreed:
            text = t("tablefix.answer_undo", seat=seat_name(request.seat))
            node, key = byid("undo"), "undo " + str(request.seq)
        elif (proposal is not None and seat != proposal.seat and seat not in proposal.yes
              and seat in table.game.seats(table.state)):
            text = t("tablefix.answer_rules", seat=seat_name(proposal.seat), version=proposal.to_version)
            node, key = byid("rules-consent"), "rules " + str(proposal.seq)
        else:
            return
        self.show_turn(text, "answer")
        if node is not None and key != self.asked:
            self.asked = key
            node.scrollIntoView(window.JSON.parse('{"block": "nearest"}'))

    def show_turn(self, text: object, turn: str) -> None:
        """``#turn`` in the bar above the board, where a phone shows it without scrolling: "Your turn", or
        whom the game waits for (the prompt's words; a spectator's: the seats to play); nothing once the
        game is over."""
        node = byid("turn")
        if node is None:
            who = byid("who")
            node = el("span", None, "turn-badge", (("id", "turn"), ("role", "status")))
            who.parentNode.insertBefore(node, who.nextSibling)
        if text is None:
            node.setAttribute("hidden", "hidden")
            return
        node.removeAttribute("hidden")
        if node.getAttribute("data-turn") != turn or node.textContent != text:
            set_text(node, text)
            node.setAttribute("data-turn", turn)
            node.setAttribute("class", "turn-badge " + turn)

    def local_handler(self, key: str) -> object:
        def handler(event: object) -> None:
            command = self.view.path_action(self.follower.state, self.seat, key)
            if command is not None:
                self.send(*command)
            self.schedule_render()

        return handler

    def default_prompt(self, mine: bool, current: object, buttons: list) -> str:
        """'click a highlighted …' only when something is highlighted, in the game's word for a place."""
        if not mine:
            return t("play.waiting", seat=seat_name(current))
        if self.pickable:
            game = self.game.name if self.game.name in PLACE_GAMES else "other"
            return t("play.your_turn_click." + game) + (t("play.or") if buttons else ".")
        return t("play.your_turn") if buttons else t("play.nothing_to_do")

    def board_tapped(self, event: object) -> None:
        """A seat's tap on the board while another seat plays: nothing is sent (the rules would refuse it,
        MV-C3 and the like); the notice says whom the game waits for, the waiting line's own words."""
        state = self.follower.state if self.follower is not None else None
        if self.seat is None or state is None or self.stale or self.game.is_over(state) or self.seat in self.game.turn(state):
            return
        line = window.document.querySelector("#actions .prompt.waiting")
        if line is not None:
            self.notice(t("tableux.not_your_turn", waiting=line.textContent), "waiting")

    def action_handler(self, label: str, kind: str, data: dict) -> object:
        def handler(event: object) -> None:
            self.send(kind, data, label)

        return handler

    def pick(self, place: object) -> None:
        """A click on the board: the renderer may say which command it means (``pick_command``)."""
        command = getattr(self.view, "pick_command", None)
        picked = command(self.follower.state, self.seat, place) if command is not None else (
            "Move", {"to": place}, t("play.move_to", place=place))
        if picked is None:  # the renderer kept the click (a waypoint of a path being built)
            self.schedule_render()
            return
        kind, data, label = picked
        self.send(kind, data, label)

    def send(self, kind: str, data: dict, label: str) -> None:
        if self.stale:
            return
        command_id = self.connection.send_command(kind, data)
        self.tried[command_id] = label

    def maybe_ready(self) -> None:
        if not self.ready and self.follower is not None and self.follower.seq >= self.head:
            if self.follower.state is None:
                return  # nothing to draw yet: wait for the first envelope
            self.ready = True
            mark_ready()

    def advance_clock(self, count: int) -> bool:
        """Count up to ``count`` more envelopes on the seat clock; True once it has them all. Not per
        envelope while catching up (a 10,000-event catch-up spent ~0.7 s there), and from the whole log
        only: a snapshot's Follower waits for the history."""
        follower = self.follower
        if follower is None or follower.base:
            return False
        end = min(follower.seq, self.clocked + count)
        for index in range(self.clocked, end):
            self.clock.add(follower.envelopes[index], self.game.turn(follower.states[index]))
        self.clocked = end
        return end == follower.seq

    def show_times(self, counted: bool) -> None:
        """``#seat-times``: each seat's time spent (client/seatclock.py), above the game panel; while
        the clock has not counted every envelope yet, a note says so instead."""
        box = byid("seat-times")
        if box is None:
            info = byid("info")
            box = el("section", None, "seat-times", (("id", "seat-times"), ("aria-label", t("time.title"))))
            info.parentNode.insertBefore(box, info)
        clear(box)
        add(box, el("h3", t("time.title")))
        box.setAttribute("data-counted", "yes" if counted else "no")
        self.times_pending = not counted
        if not counted:
            add(box, el("p", t("catchup.times_pending"), "seat-times-pending"))
            return
        items = el("ul")
        for seat, spent in self.clock.times():
            add(items, el("li", t("time.seat", seat=seat_name(seat), time=clock_text(spent)), "seat-time",
                          (("data-seat", str(seat)), ("data-ms", str(spent)))))
        add(box, items)

    # --- panels --------------------------------------------------------------------------------------

    def notice(self, text: str, cls: str, logged: str | None = None, code: object = None) -> None:
        """The notice line; errors and warnings also go to the log (``logged``: the words for it;
        ``code``: a server error's code, on both as ``data-code``)."""
        node = byid("notice")
        set_text(node, text)
        node.setAttribute("class", f"notice {cls}")
        node.setAttribute("data-code", code or "")
        if cls in ("error", "warning"):
            row = add(byid("log"), notice_row(logged or text, cls)).lastChild
            if code:
                row.setAttribute("data-code", code)



def main(seated: bool) -> None:
    mark("imported")
    token = (fragment_params().get("token") or None) if seated else None
    PlayPage(path_game_id(), token, seated).start()
