"""What the games' tests share: reading a scenario file as the shell does, acting on a table, checking a
refusal, a format doc's examples, the record classes a model declares."""

from __future__ import annotations

import inspect
import json
from pathlib import Path

from events.log import Accepted, Table
from events.record import Record
from events.rng import LoadedRng
from events.rules import Rejection


def read_scenario(path: Path) -> dict:
    """A scenario file with the files it references (values ending in ``.json``) inlined (what the shell does)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    for key, value in list(data.items()):
        if isinstance(value, str) and value.endswith(".json"):
            data[key] = json.loads((path.parent / value).read_text(encoding="utf-8"))
    return data


def act(tab: Table, seat: str, command, dice: tuple | None = None):
    """Submit a command (with loaded dice if given); the result: events, or the Rejection."""
    rng = LoadedRng(dice) if dice is not None else None
    result = tab.submit(seat, command, f"c-{tab.seq + 1}", rng=rng)
    if isinstance(result, Accepted):
        return [envelope.event for envelope in result.envelopes]
    return result


def rejected(result: object, rule: str, *facts: str) -> None:
    """Check a result is a Rejection citing ``rule`` whose reason holds every fact."""
    assert isinstance(result, Rejection), result
    assert result.rule == rule, result
    for fact in facts:
        assert fact in result.reason, result


def json_blocks(doc: Path) -> list:
    """The ```json blocks of a Markdown document (a format doc's examples), parsed."""
    text = doc.read_text(encoding="utf-8")
    return [json.loads(block.split("```", 1)[0]) for block in text.split("```json\n")[1:]]


def unregistered_records(model, *registries) -> set:
    """The record classes ``model`` declares that none of its ``registries`` knows (they could never be decoded).

    A record class names its own ``TYPE``; a base that only adds a slot (mecha's ``_Worked``) is none."""
    declared = {cls for _name, cls in inspect.getmembers(model, inspect.isclass)
                if issubclass(cls, Record) and cls is not Record and cls.__module__ == model.__name__
                and "TYPE" in vars(cls)}
    registered = set()
    for registry in registries:
        registered |= set(registry.by_type.values())
    return declared - registered


def said(game: str, lang: str, found: Rejection) -> str:
    """What the page shows for the rejection ``found`` of ``game`` in ``lang`` (client/i18n ``message``),
    with English installed again afterwards."""
    from client import i18n
    from events.rules import message_data
    from server.i18n import payload

    try:
        i18n.install(payload(lang))
        return i18n.message(game, found.key, {name: message_data(value) for name, value in found.params})
    finally:
        i18n.install(payload("en"))
