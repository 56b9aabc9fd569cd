"""``/replay/{id}?seq=N``: a game's log, stepped, scrubbed or played at a chosen speed.

The whole log comes from ``GET /api/games/{id}/log`` (JSON Lines). It is folded once, keeping the
state after every event (states are immutable and share their parts, so this is cheap); moving to
seq N only redraws. The page hashes the state it shows and compares it with the logged hash for
that seq. The URL follows the position (``history.replaceState``), so it can be shared.
"""

from __future__ import annotations

import json

from browser import ajax, timer, window

import events.games
from client.boards import renderer
from client.boardui import BoardUI, icon
from client.dispute import DisputePanel
from client.dom import add, byid, clear, el, listen, mark_ready, path_game_id, query_params, set_text
from client.eventlog import event_row
from client.faults import add_detail, fault_words
from client.i18n import t
from client.loader import load_game
from client.pages.errors import ERRORS, error_text
from client.pages.versions import show_rules_version
from client.questions import Questions
from client.undo import in_play, strike
from events.canonical import state_hash
from events.log import Envelope, Table

SPEEDS = (("0.5×", 2000), ("1×", 1000), ("2×", 500), ("4×", 250), ("8×", 125), ("32×", 31))


class ReplayPage:
    def __init__(self, game_id: str, start: str) -> None:
        self.game_id = game_id
        self.start_at = start  # the ?seq= given, as text ("" when none)
        self.game = None
        self.view = None
        self.envelopes: list = []
        self.states: list = []  # states[i] is the state after envelopes[i]
        self.versions: list = []  # versions[i]: the released Game in force after envelopes[i] (CORE-3)
        self.undos = None  # the Table's book of undos (events/undo.py)
        self.seq = 0
        self.playing = None  # the interval id while playing
        self.delay = 1000
        self.ui = None
        self.dispute = DisputePanel(self)  # issue 18: opened at ?seq=N and from every log line
        self.questions = Questions(self)  # issue 18: rule questions answered on the board shown

    def start(self) -> None:
        set_text(byid("game-id"), self.game_id)
        url = f"/api/games/{window.encodeURIComponent(self.game_id)}/log"
        ajax.get(url, mode="text", oncomplete=self.loaded)

    def loaded(self, request: object) -> None:
        if request.status == 404:
            self.fail(error_text("no-such-game", "", self.game_id), t("hash.no_game"))
            return
        if request.status != 200:
            code = api_code(request.text)
            if code in ERRORS:  # game-unavailable, store-unavailable…: in words
                self.fail(error_text(code, "", self.game_id))
            else:
                self.fail(t("replay.no_log", status=request.status, detail=request.text[:200]))
            return
        lines = [line for line in request.text.split("\n") if line.strip()]
        if not lines:
            self.fail(t("replay.empty"))
            return
        try:
            raws = [json.loads(line) for line in lines]
            name = raws[0]["data"]["game"]
        except Exception as error:  # any fault in the log is shown, with where it is
            self.fail(t("replay.unreadable", error=fault_words(error)))
            add_detail(byid("notice"), error)
            return
        load_game(name, lambda: self.fold(name, raws), self.fail)

    def fold(self, name: str, raws: list) -> None:
        try:
            self.game = events.games.load(name)
            table = Table(self.game, self.game_id)  # the one fold-and-verify step; hashes shown per seq in go()
            for index, raw in enumerate(raws):
                table.absorb(Envelope.from_dict(self.game, raw, f"line {index + 1}"), verify=False)
                self.states.append(table.state)
                self.versions.append(table.game)
            self.envelopes = table.envelopes
            self.undos = table.undos  # what each undo took back (CORE-4): struck through in go()
        except Exception as error:  # any fault in the log is shown, with where it is
            self.fail(t("replay.unplayable", error=fault_words(error)))
            add_detail(byid("notice"), error)
            return
        self.view = renderer(self.game.name)(self.game, byid("board"), byid("info"))
        self.ui = BoardUI(byid("board"))
        window.document.body.setAttribute("data-game", self.game.name)
        self.build_controls()
        self.questions.build()
        seq, problem = start_seq(self.start_at, len(self.envelopes))
        self.go(seq)
        if problem:
            self.say(problem, "warning")
        elif self.start_at != "":  # a shared ?seq=N link opens the dispute panel at N
            self.dispute.open(seq)
        mark_ready()

    def say(self, message: str, cls: str) -> None:
        node = byid("notice")
        set_text(node, message)
        node.setAttribute("class", f"notice {cls}")

    def fail(self, message: str, badge: str | None = None) -> None:
        self.say(message, "error")
        if badge is not None:
            status = byid("hash")
            set_text(status, badge)
            status.setAttribute("class", "hash bad")
        mark_ready()

    # --- controls ------------------------------------------------------------------------------------

    def build_controls(self) -> None:
        box = clear(byid("controls"))
        last = len(self.envelopes)
        buttons = (("first", t("replay.first"), None, lambda e: self.go(1)),
                   ("back", t("replay.back"), t("replay.step"), lambda e: self.go(self.seq - 1)),
                   ("forward", t("replay.forward"), t("replay.step"), lambda e: self.go(self.seq + 1)),
                   ("last", t("replay.last"), None, lambda e: self.go(last)))
        for name, label, text, handler in buttons:
            button = el("button", None, "step", (("data-step", name), ("type", "button"), ("aria-label", label),
                                                 ("title", label)))
            add(button, icon(name))
            if text:
                add(button, el("span", " " + text))
            listen(button, "click", handler)
            add(box, button)
        play = el("button", None, "play", (("id", "play"), ("type", "button")))
        self.show_play(play, False)
        listen(play, "click", lambda e: self.toggle_play())
        speed = el("select", None, "speed", (("id", "speed"), ("aria-label", t("replay.speed"))))
        for label, delay in SPEEDS:
            option = el("option", label, None, (("value", delay),))
            if delay == self.delay:
                option.setAttribute("selected", "selected")
            add(speed, option)
        listen(speed, "change", lambda e: self.set_speed(int(speed.value)))
        slider = el("input", None, "scrub", (("id", "scrub"), ("type", "range"), ("min", 1), ("max", last), ("value", 1),
                                             ("aria-label", t("replay.scrub"))))
        listen(slider, "input", lambda e: self.go(int(slider.value)))
        add(box, play, speed, slider, el("span", None, "position", (("id", "position"),)))

    def set_speed(self, delay: int) -> None:
        self.delay = delay
        if self.playing is not None:
            self.stop()
            self.toggle_play()

    def toggle_play(self) -> None:
        if self.playing is not None:
            self.stop()
            return
        if self.seq >= len(self.envelopes):
            self.go(1)
        self.playing = timer.set_interval(self.tick, self.delay)
        self.show_play(byid("play"), True)

    def stop(self) -> None:
        if self.playing is not None:
            timer.clear_interval(self.playing)
            self.playing = None
        self.show_play(byid("play"), False)

    @staticmethod
    def show_play(button: object, playing: bool) -> None:
        """The play button's icon and words: pause while playing."""
        clear(button)
        add(button, icon("pause" if playing else "play"), el("span", " " + t("replay.pause" if playing else "replay.play")))
        button.setAttribute("data-playing", "1" if playing else "0")

    def tick(self) -> None:
        if self.seq >= len(self.envelopes):
            self.stop()
        else:
            self.go(self.seq + 1)

    # --- position ------------------------------------------------------------------------------------

    def go(self, seq: int) -> None:
        self.dispute.leave_branch(False)  # any move of the real game leaves a what-if branch
        self.questions.reset()  # an answer is about the position it was asked on
        seq = max(1, min(seq, len(self.envelopes)))
        self.seq = seq
        state = self.states[seq - 1]
        envelope = self.envelopes[seq - 1]
        shown = self.envelopes[:seq]
        turn = self.game.turn(state)
        self.view.draw(state, in_play(shown, self.undos, seq), turn[0] if turn else None, False, None)
        show_rules_version(self.versions[seq - 1], state)
        self.ui.drawn(self.game.name, False)
        folded = state_hash(state)
        status = byid("hash")
        status.setAttribute("data-seq", str(seq))
        status.setAttribute("data-hash", folded)
        if folded == envelope.hash:
            set_text(status, t("hash.replay_ok", seq=seq, hash=folded))
            status.setAttribute("class", "hash ok")
        else:
            set_text(status, t("hash.replay_mismatch", seq=seq, logged=envelope.hash, page=folded))
            status.setAttribute("class", "hash bad")
        byid("scrub").value = str(seq)
        set_text(byid("position"), t("replay.position", seq=seq, last=len(self.envelopes)))
        log = clear(byid("log"))
        for item in shown[-60:]:
            add(log, event_row(self.game, item, self.states[item.seq - 2] if item.seq > 1 else None,
                               self.open_dispute))
        strike(log, self.undos, seq)  # rows an undo took back by this seq, struck through (CORE-4)
        window.history.replaceState(0, "", f"{window.location.pathname}?seq={seq}")

    def open_dispute(self, seq: int) -> None:
        """A log line's dispute link: the panel at that seq, the board and the URL there too."""
        self.stop()
        self.go(seq)
        self.dispute.open(seq)


def api_code(text: str) -> object:
    """The ``code`` of an API error body, or None when the body is not one (a proxy's page, say)."""
    try:
        body = json.loads(text)
    except Exception:
        return None
    return body.get("code") if isinstance(body, dict) else None


def start_seq(raw: str, last: int) -> tuple:
    """The seq to open at from ``?seq=`` and, when it cannot be honoured, what to tell the reader."""
    if raw == "":
        return last, ""
    if not raw.isdigit():
        return last, t("replay.seq_not_number", raw=raw, last=last)
    seq = int(raw)
    if seq < 1:
        return 1, t("replay.seq_below_one", raw=raw)
    if seq > last:
        return last, t("replay.seq_past_end", raw=raw, n=last)
    return seq, ""


def main() -> None:
    raw = query_params().get("seq", "")
    ReplayPage(path_game_id(), raw).start()
