"""``/``: the games, and a form to create one from a built-in scenario.

Kept light on purpose: it imports no game and nothing from ``events/``, only ``json`` and
Brython's ``ajax``. Every name (scenario title, seat) reaches the page as a Text node (``client.dom``).
"""

from __future__ import annotations

import json

from browser import ajax, window

from client.dom import add, byid, clear, el, link, listen, mark_ready, set_text

PAGE = 50  # games per request to GET /api/games (the server allows 1 to 200)
PLAYERS = (("person", "person"), ("random", "random bot"), ("greedy", "greedy bot"))  # value, label (issue 18)


class Lobby:
    """The games come a page at a time, newest first; "More games" asks for the page after the last
    game shown (its id is the cursor, docs/protocol.md)."""

    def start(self) -> None:
        self.last = None
        self.seats: dict = {}  # scenario name -> its seats, from GET /api/scenarios
        listen(byid("create"), "submit", self.create)
        listen(byid("scenario"), "change", self.seat_choices)
        listen(byid("more-games"), "click", self.more)
        ajax.get("/api/scenarios", mode="text", oncomplete=self.scenarios)
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
            self.message(f"could not list scenarios: HTTP {request.status}", "error")
            return
        for item in json.loads(request.text):
            self.seats[item["name"]] = item.get("seats") or []
            add(select, el("option", f"{item['title']} ({item['name']})", None, (("value", item["name"]),)))
        self.seat_choices(None)
        byid("create-button").removeAttribute("disabled")
        self.ready("scenarios")

    def seat_choices(self, event: object) -> None:
        """Who plays each seat of the chosen scenario: a person (a join link) or one of the server's bots."""
        box = clear(byid("seat-choices"))
        for seat in self.seats.get(byid("scenario").value, []):
            choice = el("select", None, "seat-player", (("data-seat", seat),))
            for value, label in PLAYERS:
                add(choice, el("option", label, None, (("value", value),)))
            add(box, add(el("label", None, "seat-choice"), el("span", seat, "seat-name"), el("span", " "), choice))

    def games(self, request: object) -> None:
        body = clear(byid("games"))
        if request.status != 200:
            self.message(f"could not list games: HTTP {request.status}", "error")
            return
        items = json.loads(request.text)
        if not items:
            add(body, add(el("tr"), el("td", "No games yet: create one.", "empty", (("colspan", "6"),))))
        self.rows(body, items)
        self.ready("games")

    def more_games(self, request: object) -> None:
        if request.status != 200:
            self.message(f"could not list games: HTTP {request.status}", "error")
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
            add(links, link(f"/watch/{item['game']}", "spectate", "watch"), el("span", " · "),
                link(f"/replay/{item['game']}", "replay", "replay"))
            state = "over" if item.get("over") else "live"
            add(row, el("td", item.get("title") or "", "title"), el("td", item.get("rules") or "", "rules"),
                el("td", ", ".join(item.get("seats") or []), "seats"), el("td", f"{item.get('head')} events · {state}"),
                el("td", item.get("created") or "", "created"), links)
            add(body, row)

    def create(self, event: object) -> None:
        event.preventDefault()
        body = {"scenario": byid("scenario").value}  # no seed: the server draws the game's secret (CORE-1)
        bots = {}
        for choice in byid("seat-choices").querySelectorAll("select.seat-player"):
            if choice.value != "person":
                bots[choice.getAttribute("data-seat")] = choice.value
        if bots:
            body["bots"] = bots
        ajax.post("/api/games", data=json.dumps(body), headers={"Content-Type": "application/json"},
                  mode="text", oncomplete=self.created)

    def created(self, request: object) -> None:
        if request.status not in (200, 201):
            self.message(f"could not create the game: HTTP {request.status} {request.text[:300]}", "error")
            return
        made = json.loads(request.text)
        box = clear(byid("created"))
        origin = str(window.location.origin)
        add(box, el("h3", f"Game {made['game']} created", "created-title"))
        add(box, el("p", "Each seat link is secret: send it to that player only.", "hint"))
        seats = el("ul", None, "seat-links")
        for seat, info in made["seats"].items():
            item = el("li", None, "seat-link", (("data-seat", seat),))
            add(item, el("b", seat, "seat-name"), el("span", ": "), link(info["link"], origin + info["link"], "play"))
            add(seats, item)
        for seat, policy in (made.get("bots") or {}).items():
            item = el("li", None, "seat-bot", (("data-seat", seat),))
            add(item, el("b", seat, "seat-name"), el("span", f": {policy} bot, played by the server"))
            add(seats, item)
        add(box, seats)
        others = el("p")
        add(others, link(made["spectate"], "spectate", "watch"), el("span", " · "),
            link(made["replay"], "replay", "replay"))
        add(box, others)
        self.message("", "ok")
        self.refresh()

    def message(self, text: str, cls: str) -> None:
        node = byid("notice")
        set_text(node, text)
        node.setAttribute("class", f"notice {cls}")

    def ready(self, part: str) -> None:
        done = getattr(self, "done", set())
        done.add(part)
        self.done = done
        if "scenarios" in done and "games" in done:
            mark_ready()


def main() -> None:
    Lobby().start()
