"""Board renderers by rule system, found by a naming rule: the game ``<name>`` of ``events.games.NAMES``
is drawn by the class ``<Name>View`` of ``client/boards/<name>.py`` (``mecha``: ``MechaView``). The
bundler (``server/bundle.py``) ships every module under ``client/`` and puts ``client.boards.<name>``
(and ``client.boards.<name>_*``) in that game's own script, so a sixth game adds its module and no
line here.

A renderer is a class built with ``(game, board_node, info_node)`` that offers:

- ``draw(state, envelopes, seat, interactive, on_pick)``: the board as SVG and the side panel;
  ``seat`` is the seat whose hints to show (None: nobody's), ``on_pick(place)`` is called when a
  place is clicked while ``interactive``;
- ``actions(state, seat)``: the buttons besides clicking the board, as ``(label, command type,
  command data)``;
- optionally ``pick_command(state, seat, place)``: the ``(command type, data, label)`` a click on
  ``place`` sends, for games whose clicks mean more than ``Move`` (default: ``Move {"to": place}``).

What an event says in the log is not the renderer's: each game's describer
(``events/games/<name>/words.py``) words it, for the page and for ``chronicle explain`` alike.

Renderers are imported only when a page meets a game of theirs.
"""

from __future__ import annotations

from events.games import NAMES


def class_name(game_name: str) -> str:
    """The renderer class a game's module defines: ``gloomhaven`` -> ``GloomhavenView``."""
    return game_name[:1].upper() + game_name[1:] + "View"


def renderer(game_name: str) -> type:
    """The renderer class of a rule system; KeyError names the known ones."""
    if game_name not in NAMES:
        raise KeyError(f"no board renderer for {game_name!r} (known: {', '.join(sorted(NAMES))})")
    module = __import__("client.boards." + game_name, None, None, (class_name(game_name),))
    return getattr(module, class_name(game_name))
