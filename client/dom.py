"""Small DOM helpers that only ever put data into the page as text, and do it fast.

Brython's ``html.DIV("...")`` sets ``innerHTML`` from a string argument, so a name such as
``<img src=x onerror=alert(1)>`` would become markup. Every page builds its nodes here instead:
text goes in as Text nodes (``append``/``replaceChildren`` with a string), attributes through
``setAttribute`` (or, for a board's static part, one SVG text whose every value went through
``markup``).

Speed (measured in Brython, see docs/client.md): ``window.document.createElementNS`` is ~3x faster
than ``browser.document``'s wrapper, attributes given as ``(name, value)`` pairs cost about a
third of ``**kwargs``, and ``node.append(text)`` costs ~3 µs where assigning ``node.textContent``
from Python costs ~140 µs. The nodes made here are plain JavaScript elements: listen with
``listen(node, "click", fn)``.
"""

from __future__ import annotations

from browser import window

SVG_NS = "http://www.w3.org/2000/svg"
_document = window.document


def el(tag: str, text: object = None, cls: str | None = None, attrs: tuple = ()) -> object:
    """An HTML element with optional text (never parsed as HTML), class and ``(name, value)`` attributes."""
    node = _document.createElement(tag)
    if text is not None:
        node.append(str(text))
    if cls:
        node.setAttribute("class", cls)
    for name, value in attrs:
        node.setAttribute(name, value)
    return node


def svg(tag: str, cls: str | None = None, attrs: tuple = (), text: object = None) -> object:
    """An SVG element; same rules as ``el`` (numbers are written by the browser as they are)."""
    node = _document.createElementNS(SVG_NS, tag)
    if cls:
        node.setAttribute("class", cls)
    for name, value in attrs:
        node.setAttribute(name, value)
    if text is not None:
        node.append(str(text))
    return node


def markup(text: object) -> str:
    """``text`` escaped for a place in markup, as element text or a quoted attribute value: ``&``,
    ``<``, ``>``, ``"`` and ``'`` as entities, so a name is never parsed as HTML or SVG. For a board's
    static part written as one text and parsed at once (``client/boards/mecha.py``: one
    ``innerHTML`` instead of ~330 elements made one by one, issue 16)."""
    text = str(text)
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text or ">" in text or '"' in text or "'" in text:
        text = text.replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#39;")
    return text


def add(parent: object, *children: object) -> object:
    for child in children:
        if child is not None:
            parent.appendChild(child)
    return parent


def clear(node: object) -> object:
    node.replaceChildren()
    return node


def set_text(node: object, text: object) -> object:
    """Replace a node's content with ``text`` as a Text node (never parsed as HTML)."""
    node.replaceChildren(str(text))
    return node


def listen(node: object, kind: str, handler: object) -> object:
    node.addEventListener(kind, handler)
    return node


def into_view(nodes: list) -> None:
    """Scroll the page as little as it takes to show ``nodes`` (a choice's buttons, in order): the last, then
    the first, each ``block: nearest``, so a group shorter than the screen shows whole, its start kept."""
    if not nodes:
        return
    nearest = window.JSON.parse('{"block": "nearest"}')
    nodes[-1].scrollIntoView(nearest)
    nodes[0].scrollIntoView(nearest)


def byid(name: str) -> object:
    return _document.getElementById(name)


def link(href: str, text: str, cls: str | None = None) -> object:
    return el("a", text, cls, (("href", href),))


def query_params() -> dict:
    """``?a=1&b=2`` as a dict of strings (urllib.parse costs ~20 modules in Brython)."""
    return _pairs(str(window.location.search)[1:])


def fragment_params() -> dict:
    """``#token=...`` as a dict of strings."""
    return _pairs(str(window.location.hash)[1:])


def _pairs(text: str) -> dict:
    out = {}
    for part in text.split("&"):
        if not part:
            continue
        key, _, value = part.partition("=")
        out[_decoded(key)] = _decoded(value.replace("+", " "))
    return out


def _decoded(text: str) -> str:
    """``%41`` -> ``A``; a malformed escape (``%ZZ``, half a UTF-8 sequence) is kept as typed, so a
    mangled link reaches the page's own checks (a token the server refuses, a seq that is no number)."""
    try:
        return str(window.decodeURIComponent(text))
    except Exception:  # URIError
        return text


def path_game_id() -> str:
    """The game id from ``/play/{id}``, ``/watch/{id}`` or ``/replay/{id}``."""
    parts = [part for part in str(window.location.pathname).split("/") if part]
    return window.decodeURIComponent(parts[1]) if len(parts) > 1 else ""


def mark(name: str) -> None:
    """Record a moment of the page's start (ms since navigation) in ``window.chronicle_marks``."""
    window.chronicle_marks[name] = window.performance.now()


def mark_ready() -> None:
    """Tell tests and the bench that the page has folded what it was sent and drawn it."""
    mark("ready")
    window.chronicle_ready_ms = window.performance.now()
    window.chronicle_ready = True
