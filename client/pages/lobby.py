"""``/``: the games, and a form to create one from a built-in scenario.

Kept light on purpose: it imports no game and nothing from ``events/``, only ``json`` and
Brython's ``ajax``. Every name (scenario title, seat) reaches the page as a Text node (``client.dom``).
"""

from __future__ import annotations

import json

from browser import ajax, window

from client.dom import add, byid, clear, el, link, listen, mark_ready, set_text


class Lobby:
    def start(self) -> None:
        listen(byid("create"), "submit", self.create)
        ajax.get("/api/scenarios", mode="text", oncomplete=self.scenarios)
        self.refresh()

    def refresh(self) -> None:
        ajax.get("/api/games", mode="text", oncomplete=self.games)

    def scenarios(self, request: object) -> None:
        select = clear(byid("scenario"))
        if request.status != 200:
            self.message(f"could not list scenarios: HTTP {request.status}", "error")
            return
        for item in json.loads(request.text):
            add(select, el("option", f"{item['title']} ({item['name']})", None, (("value", item["name"]),)))
        byid("create-button").removeAttribute("disabled")
        self.ready("scenarios")

    def games(self, request: object) -> None:
        body = clear(byid("games"))
        if request.status != 200:
            self.message(f"could not list games: HTTP {request.status}", "error")
            return
        items = json.loads(request.text)
        if not items:
            add(body, add(el("tr"), el("td", "No games yet: create one.", "empty", (("colspan", "6"),))))
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
        self.ready("games")

    def create(self, event: object) -> None:
        event.preventDefault()
        body = {"scenario": byid("scenario").value}  # no seed: the server draws the game's secret (CORE-1)
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
