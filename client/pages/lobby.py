"""``/``: the games, a form to create one from a built-in scenario or a scenario file, and "my games".

Kept light on purpose: it imports no game and nothing from ``events/``, only ``json`` and
Brython's ``ajax``. Every name (scenario title, seat) reaches the page as a Text node (``client.dom``).

The seat links of the games created here are kept in the browser (``localStorage``, key
``MY_GAMES``), never on the server, and listed again under "My games"; a stored value this page
cannot read is set aside, not trusted. A scenario file is read in the browser and sent inline
(``POST /api/games`` validates it); its faults are listed at their ``$`` path in the file.
"""

from __future__ import annotations

import json

from browser import ajax, window

from client.dom import add, byid, clear, el, link, listen, mark_ready, set_text
from client.faults import add_detail, fault_kind, fault_words
from client.i18n import lang, scenario_title, seat_name, t
from client.pages.errors import ERRORS, error_text

PAGE = 50  # games per request to GET /api/games (the server allows 1 to 200)
PLAYERS = ("person", "random", "greedy")  # who may play a seat: a person, or one of the server's bots (issue 18)
MY_GAMES = "chronicle.my-games"
MY_GAMES_KEPT = 50  # the newest games kept; older ones drop off
MAX_FILE_BYTES = 256 * 1024  # the API's body limit (server/api.py MAX_BODY_BYTES)
MAX_LOG_BYTES = 1024 * 1024  # an exported game's log (.jsonl): server/importlog.py MAX_IMPORT_BYTES



def readable_date(text: str) -> str:
    """``2026-12-01T08:09:33.975037Z`` as the browser's local date and time, to the minute."""
    if not text:
        return ""
    stamp = window.Date.new(text)
    if str(stamp.getTime()) == "NaN":
        return text
    return str(_dates().format(stamp))


_formatter: list = []


def _dates() -> object:
    """One ``Intl.DateTimeFormat`` in the page's language (options made by JSON.parse: a JS object)."""
    if not _formatter:
        options = window.JSON.parse('{"dateStyle": "medium", "timeStyle": "short"}')
        _formatter.append(window.Intl.DateTimeFormat.new(lang(), options))
    return _formatter[0]


def api_error(request: object) -> tuple:
    """(code, message) of an API error body, or (None, the raw text) when it is not one."""
    try:
        body = json.loads(request.text)
        return body.get("code"), str(body.get("message"))
    except Exception:  # not JSON: a proxy's page, say; show its start
        return None, str(request.text)[:300]


def scenario_fault(message: str) -> tuple:
    """("$.rounds", "expected ...") from the API's ``bad-scenario`` message, paths made relative to the
    file (the API's ``$.scenario.game`` is the file's ``$.game``); ("", message) without a path."""
    text = message[len("scenario: "):] if message.startswith("scenario: ") else message
    if not text.startswith("$"):
        return "", text
    path, _, rest = text.partition(": ")
    if path.startswith("$.scenario"):
        path = "$" + path[len("$.scenario"):]
    return path, rest


class Lobby:
    """The games come a page at a time, newest first; "More games" asks for the page after the last
    game shown (its id is the cursor, docs/protocol.md)."""

    def __init__(self) -> None:
        self.done: set = set()
        self.titles: dict = {}  # built-in scenario name -> its title in the reader's language
        self.local_titles: dict = {}  # a built-in scenario's ``title`` -> its title in the reader's language

    def start(self) -> None:
        self.last = None
        self.seats: dict = {}  # scenario name -> its seats, from GET /api/scenarios
        listen(byid("create"), "submit", self.create)
        listen(byid("scenario"), "change", self.seat_choices)
        listen(byid("more-games"), "click", self.more)
        listen(byid("upload"), "submit", self.upload)
        listen(byid("scenario-file"), "change", self.file_chosen)
        ajax.get("/api/scenarios", mode="text", oncomplete=self.scenarios)
        self.show_my_games()
        self.refresh()

    def refresh(self) -> None:
        # ``data``, not a query in the URL: Brython's ajax appends its cache-buster after the query string.
        ajax.get("/api/games", data={"limit": PAGE}, mode="text", oncomplete=self.games)

    def more(self, event: object) -> None:
        if self.last is not None:
            ajax.get("/api/games", data={"limit": PAGE, "cursor": self.last}, mode="text", oncomplete=self.more_games)

    def scenarios(self, request: object) -> None:
        select = clear(byid("scenario"))
        if request.status != 200:
            self.message(t("lobby.no_scenarios", status=request.status), "error")
            return
        for item in json.loads(request.text):
            shown = scenario_title(item.get("titles"), item["title"])
            self.titles[item["name"]] = shown
            self.local_titles[item["title"]] = shown
            label = f"{shown} ({item['name']})"  # the scenario's own title: data, not a message
            add(select, el("option", label, None, (("value", item["name"]), ("translate", "no"))))
            self.seats[item["name"]] = item.get("seats") or []
        self.seat_choices(None)
        byid("create-button").removeAttribute("disabled")
        for cell in window.document.querySelectorAll("#games td.title"):  # listed before the scenarios came
            shown = self.local_titles.get(cell.getAttribute("data-title"))
            if shown is not None:
                set_text(cell, shown)
        self.ready("scenarios")

    def seat_choices(self, event: object) -> None:
        """Who plays each seat of the chosen scenario: a person (a join link) or one of the server's bots."""
        box = clear(byid("seat-choices"))
        for seat in self.seats.get(byid("scenario").value, []):
            choice = el("select", None, "seat-player", (("data-seat", seat),))
            for value in PLAYERS:
                add(choice, el("option", t(f"lobby.player.{value}"), None, (("value", value),)))
            add(box, add(el("label", None, "seat-choice"), el("span", seat_name(seat), "seat-name"), el("span", " "),
                         choice))

    def games(self, request: object) -> None:
        body = clear(byid("games"))
        if request.status != 200:
            self.message(t("lobby.no_games_list", status=request.status), "error")
            return
        items = json.loads(request.text)
        if not items:
            add(body, add(el("tr"), el("td", t("lobby.empty"), "empty", (("colspan", "6"),))))
        self.rows(body, items)
        self.ready("games")

    def more_games(self, request: object) -> None:
        if request.status != 200:
            self.message(t("lobby.no_games_list", status=request.status), "error")
            return
        self.rows(byid("games"), json.loads(request.text))

    def rows(self, body: object, items: list) -> None:
        """Append a page of games; the button stays only while pages come back full."""
        button = byid("more-games")
        if len(items) == PAGE:
            self.last = items[-1]["game"]
            button.removeAttribute("hidden")
        else:
            button.setAttribute("hidden", "")
        for item in items:
            row = el("tr", None, "game", (("data-game", item["game"]),))
            links = el("td", None, "links")
            add(links, link(f"/watch/{item['game']}", t("lobby.spectate"), "watch"), el("span", " · "),
                link(f"/replay/{item['game']}", t("lobby.replay"), "replay"))
            state = t("lobby.over") if item.get("over") else t("lobby.live")
            data = (("translate", "no"),)  # names from the scenario and the store, shown as they are
            created = item.get("created") or ""
            # A date Intl wrote in the page's language: no catalogue text, and nothing to translate.
            when = el("time", readable_date(created), None, (("datetime", created), ("title", created),
                                                               ("translate", "no")))
            stored = item.get("title") or ""  # a built-in scenario's in the reader's language (its ``titles``)
            add(row, el("td", self.local_titles.get(stored, stored), "title", data + (("data-title", stored),)),
                el("td", item.get("rules") or "", "rules", data),
                el("td", ", ".join([seat_name(seat) for seat in item.get("seats") or []]), "seats"),
                el("td", t("lobby.events", n=item.get("head") or 0, state=state), "head"),
                add(el("td", None, "created"), when), links)
            add(body, row)

    # --- creating ------------------------------------------------------------------------------------

    def create(self, event: object) -> None:
        event.preventDefault()
        name = byid("scenario").value
        body: dict = {"scenario": name}
        bots = {}
        for choice in byid("seat-choices").querySelectorAll("select.seat-player"):
            if choice.value != "person":
                bots[choice.getAttribute("data-seat")] = choice.value
        if bots:
            body["bots"] = bots
        self.post(body, self.titles.get(name, name))

    def file_chosen(self, event: object) -> None:
        """The chosen file's name in our own words: Chromium words its file button in its UI
        language, not the page's, so the native button is hidden behind a translated label."""
        files = byid("scenario-file").files
        byid("file-name").textContent = files.item(0).name if files.length else t("lobby.no_file")

    def upload(self, event: object) -> None:
        event.preventDefault()
        clear(byid("scenario-errors"))
        files = byid("scenario-file").files
        if not files.length:
            self.message(t("lobby.choose_file"), "error")
            return
        chosen = files.item(0)
        is_log = str(chosen.name).endswith(".jsonl")  # a pass-and-play game's exported log (docs/offline.md)
        limit = MAX_LOG_BYTES if is_log else MAX_FILE_BYTES
        if chosen.size > limit:
            self.faults(chosen.name, [("", t("lobby.file_too_large", n=chosen.size, limit=limit))])
            return
        reader = window.FileReader.new()

        def loaded(_event: object) -> None:
            if is_log:
                self.import_log(str(reader.result))
            else:
                self.file_read(chosen.name, str(reader.result))

        reader.addEventListener("load", loaded)
        reader.readAsText(chosen)

    def file_read(self, name: str, text: str) -> None:
        try:
            scenario = json.loads(text)
        except Exception as error:  # the decoder's message says where
            self.faults(name, [("$", t("lobby.not_json", error=fault_words(error)))])
            add_detail(byid("scenario-errors").lastChild, error)
            return
        if not isinstance(scenario, dict):
            self.faults(name, [("$", t("lobby.not_object", found=type(scenario).__name__))])
            return
        title = scenario.get("title") if isinstance(scenario.get("title"), str) else name
        self.post({"scenario": scenario}, scenario_title(scenario.get("titles"), title), name)

    def import_log(self, text: str) -> None:
        """A finished game's log to ``POST /api/games/import``, which audits it (issue 18)."""
        self.message(t("offline.importing"), "ok")
        ajax.post("/api/games/import", data=text, headers={"Content-Type": "application/x-ndjson"}, mode="text",
                  oncomplete=self.imported)

    def imported(self, request: object) -> None:
        """Watch and replay links, or the refusal: its code, its message, the seq where the log diverged."""
        node = byid("notice")
        if request.status != 201:
            code, message = api_error(request)
            self.message(t("offline.refused", code=code or request.status, message=message), "error")
            node.setAttribute("data-code", code or "")
            return
        made = json.loads(request.text)
        box = clear(byid("created"))
        add(box, el("h3", t("offline.imported", game=made["game"], n=made["events"]), "created-title"))
        others = el("p")
        add(others, link(made["spectate"], t("lobby.spectate"), "watch"), el("span", " · "),
            link(made["replay"], t("lobby.replay"), "replay"))
        add(box, others)
        self.message("", "ok")
        node.setAttribute("data-code", "")
        self.refresh()

    def post(self, body: dict, title: str, file_name: str | None = None) -> None:
        """POST the game; no seed: the server draws the game's secret itself (CORE-1)."""
        clear(byid("scenario-errors"))
        self.message(t("lobby.creating"), "ok")

        def done(request: object) -> None:
            self.created(request, title, file_name)

        ajax.post("/api/games", data=json.dumps(body), headers={"Content-Type": "application/json"},
                  mode="text", oncomplete=done)

    def created(self, request: object, title: str, file_name: str | None) -> None:
        if request.status not in (200, 201):
            code, message = api_error(request)
            if code in ("bad-scenario", "scenario-out-of-bounds") and file_name is not None:
                path, text = scenario_fault(message)
                if lang() == "en":
                    self.faults(file_name, [(path, text)])
                else:  # in the reader's words, the server's English only as the mark's tooltip (docs/i18n.md)
                    self.faults(file_name, [(path, fault_kind(text))])
                    add_detail(byid("scenario-errors").lastChild, text)
            elif code in ERRORS:
                self.message(t("lobby.not_created_because", reason=error_text(code, message)), "error")
            else:
                self.message(t("lobby.not_created", status=request.status, detail=message), "error")
            return
        made = json.loads(request.text)
        self.remember(made, title)
        box = clear(byid("created"))
        origin = str(window.location.origin)
        add(box, el("h3", t("lobby.created", game=made["game"]), "created-title"))
        add(box, el("p", t("lobby.secret_links"), "hint"))
        seats = el("ul", None, "seat-links")
        for seat, info in made["seats"].items():
            item = el("li", None, "seat-link", (("data-seat", seat),))
            url = link(info["link"], origin + info["link"], "play")
            url.setAttribute("translate", "no")
            add(item, el("b", seat_name(seat), "seat-name"), el("span", ": "), url)
            add(seats, item)
        for seat, policy in (made.get("bots") or {}).items():
            item = el("li", None, "seat-bot", (("data-seat", seat),))
            add(item, el("b", seat_name(seat), "seat-name"), el("span", ": "),
                el("span", t(f"lobby.bot_seat.{policy}"), "bot-policy"))
            add(seats, item)
        add(box, seats)
        others = el("p")
        add(others, link(made["spectate"], t("lobby.spectate"), "watch"), el("span", " · "),
            link(made["replay"], t("lobby.replay"), "replay"))
        add(box, others)
        self.message("", "ok")
        self.show_my_games()
        self.refresh()

    def faults(self, file_name: str, faults: list) -> None:
        """A scenario file's faults, each at its ``$`` path in the file."""
        self.message(t("lobby.file_refused", file=file_name), "error")
        listing = clear(byid("scenario-errors"))
        for path, text in faults:
            item = el("li", None, "scenario-error", (("data-path", path),))
            if path:
                add(item, el("code", path), el("span", ": "))
            add(item, el("span", text))
            add(listing, item)

    # --- my games (localStorage) ------------------------------------------------------------------------

    def my_games(self) -> list:
        """The games kept in this browser; anything unreadable there is ignored."""
        try:
            raw = window.localStorage.getItem(MY_GAMES)
        except Exception:  # storage disabled: nothing kept
            return []
        if raw is None:
            return []
        try:
            items = json.loads(str(raw))
        except Exception:
            return []
        if not isinstance(items, list):
            return []
        return [item for item in items if _well_formed(item)]

    def remember(self, made: dict, title: str) -> None:
        entry = {"game": made["game"], "title": title, "created": str(window.Date.new().toISOString()),
                 "seats": {seat: info["link"] for seat, info in made["seats"].items()},
                 "spectate": made["spectate"], "replay": made["replay"]}
        items = [item for item in self.my_games() if item["game"] != made["game"]]
        try:
            window.localStorage.setItem(MY_GAMES, json.dumps(([entry] + items)[:MY_GAMES_KEPT]))
        except Exception:  # storage full or disabled: the links are still shown above
            self.message(t("lobby.not_kept"), "warning")

    def forget(self, game_id: str) -> object:
        def handler(event: object) -> None:
            items = [item for item in self.my_games() if item["game"] != game_id]
            window.localStorage.setItem(MY_GAMES, json.dumps(items))
            self.show_my_games()

        return handler

    def show_my_games(self) -> None:
        listing = clear(byid("my-games"))
        items = self.my_games()
        if not items:
            add(listing, el("li", t("lobby.my_games_none"), "muted"))
        for item in items:
            row = el("li", None, "my-game", (("data-game", item["game"]),))
            add(row, el("b", item["title"], None, (("translate", "no"),)), el("span", f" · {readable_date(item['created'])} · ", "muted", (("translate", "no"),)))
            for seat, href in item["seats"].items():
                add(row, link(href, t("lobby.play_seat", seat=seat_name(seat)), "play"), el("span", " · "))
            add(row, link(item["spectate"], t("lobby.spectate"), "watch"), el("span", " · "),
                link(item["replay"], t("lobby.replay"), "replay"), el("span", " "))
            forget = el("button", t("lobby.forget"), "forget", (("type", "button"),
                                                              ("aria-label", t("lobby.forget_game", title=item["title"]))))
            listen(forget, "click", self.forget(item["game"]))
            add(row, forget)
            add(listing, row)

    def message(self, text: str, cls: str) -> None:
        node = byid("notice")
        set_text(node, text)
        node.setAttribute("class", f"notice {cls}")

    def ready(self, part: str) -> None:
        self.done.add(part)
        if "scenarios" in self.done and "games" in self.done:
            mark_ready()


def _well_formed(item: object) -> bool:
    """A kept game this page wrote: its links are this site's own paths (nothing else is shown)."""
    if not isinstance(item, dict):
        return False
    for key in ("game", "title", "created", "spectate", "replay"):
        if not isinstance(item.get(key), str):
            return False
    seats = item.get("seats")
    if not isinstance(seats, dict) or not seats:
        return False
    links = [item["spectate"], item["replay"]] + list(seats.values())
    return all(isinstance(href, str) and href.startswith("/") and not href.startswith("//") for href in links)


def main() -> None:
    Lobby().start()
