"""Renderers found by a naming rule (issue 13): every game of ``events.games.NAMES`` has its
``client/boards/<name>.py`` with the class ``<Name>View``, shipped in that game's own script, and no
renderer words events any more (the game's describer does, for the page and ``chronicle explain``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from client.boards import class_name, renderer
from events.games import NAMES
from server import bundle

BOARDS = Path(__file__).resolve().parent.parent / "client" / "boards"


@pytest.mark.parametrize("name", NAMES)
def test_every_game_has_a_renderer_by_the_naming_rule_and_no_describer_of_its_own(name):
    tree = ast.parse((BOARDS / f"{name}.py").read_text(encoding="utf-8"))
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    assert class_name(name) in classes, f"client/boards/{name}.py must define {class_name(name)}"
    methods = {item.name for item in classes[class_name(name)].body if isinstance(item, ast.FunctionDef)}
    assert {"draw", "actions"} <= methods
    assert not methods & {"describe", "trace"}, "events are worded by events/games/<name>/words.py"
    assert bundle.game_of(f"client.boards.{name}", NAMES) == name  # in the game's own script


def test_an_unknown_game_has_no_renderer_and_the_error_names_the_known_ones():
    with pytest.raises(KeyError, match="known: arkham, echo, gloomhaven, mecha, skirmish"):
        renderer("chess")
