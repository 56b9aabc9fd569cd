"""Board renderers by rule system: the next game adds one module and one line here.

A renderer is a class built with ``(game, board_node, info_node)`` that offers:

- ``draw(state, envelopes, seat, interactive, on_pick)``: the board as SVG and the side panel;
  ``seat`` is the seat whose hints to show (None: nobody's), ``on_pick(place)`` is called when a
  place is clicked while ``interactive``;
- ``describe(event)``: one line of text for the event log;
- ``actions(state, seat)``: the buttons besides clicking the board, as ``(label, command type,
  command data)``;
- optionally ``pick_command(state, seat, place)``: the ``(command type, data, label)`` a click on
  ``place`` sends, for games whose clicks mean more than ``Move`` (default: ``Move {"to": place}``).

Renderers are imported only when a page meets a game of theirs.
"""

from __future__ import annotations


def _mecha() -> type:
    from client.boards.mecha import MechaView

    return MechaView


def _arkham() -> type:
    from client.boards.arkham import ArkhamView

    return ArkhamView


def _echo() -> type:
    from client.boards.echo import EchoView

    return EchoView


def _gloomhaven() -> type:
    from client.boards.gloomhaven import GloomhavenView

    return GloomhavenView


def _skirmish() -> type:
    from client.boards.skirmish import SkirmishView

    return SkirmishView


RENDERERS = {"mecha": _mecha, "arkham": _arkham, "echo": _echo, "skirmish": _skirmish, "gloomhaven": _gloomhaven}


def renderer(game_name: str) -> type:
    """The renderer class of a rule system; KeyError names the known ones."""
    if game_name not in RENDERERS:
        raise KeyError(f"no board renderer for {game_name!r} (known: {', '.join(sorted(RENDERERS))})")
    return RENDERERS[game_name]()
