"""``/``: the games, and a form to create one from a built-in scenario.

Kept light on purpose: it imports no game and nothing from ``events/``, only ``json`` and
Brython's ``ajax``. Every name (scenario title, seat) reaches the page as a Text node (``client.dom``).
"""

from __future__ import annotations

import json

from browser import ajax, window

from client.dom import add, byid, clear, el, link, listen, mark_ready, set_text
from client.i18n import seat_name, t


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
            self.message(t("lobby.no_scenarios", status=request.status), "error")
            return
        for item in json.loads(request.text):
            label = f"{item['title']} ({item['name']})"  # the scenario's own title: data, not a message
            add(select, el("option", label, None, (("value", item["name"]), ("translate", "no"))))
        byid("create-button").removeAttribute("disabled")
        self.ready("scenarios")

    def games(self, request: object) -> None:
        body = clear(byid("games"))
        if request.status != 200:
            self.message(t("lobby.no_games_list", status=request.status), "error")
            return
        items = json.loads(request.text)
        if not items:
            add(body, add(el("tr"), el("td", t("lobby.empty"), "empty", (("colspan", "6"),))))
        for item in items:
            row = el("tr", None, "game", (("data-game", item["game"]),))
            links = el("td", None, "links")
            add(links, link(f"/watch/{item['game']}", t("lobby.spectate"), "watch"), el("span", " · "),
                link(f"/replay/{item['game']}", t("lobby.replay"), "replay"))
            state = t("lobby.over") if item.get("over") else t("lobby.live")
            data = (("translate", "no"),)  # names from the scenario and the store, shown as they are
            add(row, el("td", item.get("title") or "", "title", data), el("td", item.get("rules") or "", "rules", data),
                el("td", ", ".join([seat_name(seat) for seat in item.get("seats") or []]), "seats"),
                el("td", t("lobby.events", n=item.get("head") or 0, state=state)),
                el("td", item.get("created") or "", "created", data), links)
            add(body, row)
        self.ready("games")

    def create(self, event: object) -> None:
        event.preventDefault()
        body = {"scenario": byid("scenario").value}
        seed = str(byid("seed").value).strip()
        if seed:
            if not seed.lstrip("-").isdigit():
                self.message(t("lobby.bad_seed", seed=seed), "error")
                return
            body["seed"] = int(seed)
        ajax.post("/api/games", data=json.dumps(body), headers={"Content-Type": "application/json"},
                  mode="text", oncomplete=self.created)

    def created(self, request: object) -> None:
        if request.status not in (200, 201):
            self.message(t("lobby.not_created", status=request.status, detail=request.text[:300]), "error")
            return
        made = json.loads(request.text)
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
        add(box, seats)
        others = el("p")
        add(others, link(made["spectate"], t("lobby.spectate"), "watch"), el("span", " · "),
            link(made["replay"], t("lobby.replay"), "replay"))
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
