"""Our own errors in the reader's words (issue 17, ``client/faults.py``): a ``LogError`` naming a
seq, a ``DecodeError`` at a ``$`` path, a JSON text that does not parse, each said as where it is
and a translated kind of fault, never the exception's English inside a French or Russian sentence.
The errors are real: raised by ``events/log.py`` and ``events/record.py`` on broken logs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import events.games
from client import i18n
from client.faults import KINDS, fault_words
from events.log import LogError, Table, decode_envelope
from events.record import DecodeError
from server import i18n as served

CORPUS = Path(__file__).parent / "corpus" / "echo" / "echo-2"


def lines() -> list:
    log = sorted(CORPUS.glob("*.jsonl"))[0]
    return [line for line in log.read_text("utf-8").split("\n") if line.strip()]


def raised(kind: type, call) -> Exception:
    with pytest.raises(kind) as caught:
        call()
    return caught.value


def replay(texts: list) -> None:
    game = events.games.load("echo")
    table = Table(game, "g")
    for index, text in enumerate(texts):
        table.absorb(decode_envelope(game, text, f"$[{index}]"))


@pytest.fixture(params=["en", "fr", "ru"])
def lang(request):
    i18n.install(served.payload(request.param))
    yield request.param
    i18n.install(served.payload("en"))


def test_core_1_a_log_with_a_gap_is_said_at_its_seq_with_the_kind_in_the_readers_words(lang):
    texts = lines()
    error = raised(LogError, lambda: replay([texts[0], texts[2]]))
    assert str(error).startswith("seq 3")
    words = fault_words(error)
    assert words == i18n.t("fault.at_seq", seq=3, kind=i18n.t("fault.kind.gap"))
    if lang != "en":
        assert "gap" not in words


def test_core_1_a_wrong_hash_is_said_at_its_seq(lang):
    texts = lines()
    raw = json.loads(texts[1])
    raw["hash"] = "0" * len(raw["hash"])
    error = raised(LogError, lambda: replay([texts[0], json.dumps(raw)]))
    assert fault_words(error) == i18n.t("fault.at_seq", seq=2, kind=i18n.t("fault.kind.hash"))


def test_core_1_a_bad_field_is_said_at_its_dollar_path(lang):
    texts = lines()
    raw = json.loads(texts[0])
    raw["surprise"] = 1
    error = raised((DecodeError, LogError), lambda: replay([json.dumps(raw)]))
    assert str(error) == "$[0]: envelope has unknown field 'surprise'"
    assert fault_words(error) == i18n.t("fault.at_path", path="$[0]", kind=i18n.t("fault.kind.extra_field"))


def test_core_1_text_that_is_not_json_is_said_with_its_line_and_column(lang):
    error = raised(ValueError, lambda: json.loads('{"a": 1,\n  oops}'))
    assert fault_words(error) == i18n.t("fault.json_at", line=2, column=3)


def test_core_1_an_error_of_no_known_shape_is_a_translated_fault_of_the_data(lang):
    assert fault_words(KeyError("game")) == i18n.t("fault.kind.other")


def test_every_fault_kind_has_its_message():
    english = json.loads((Path(__file__).parents[1] / "client" / "i18n" / "en.json").read_text("utf-8"))
    assert sorted(key for _part, key in KINDS if key not in english) == []
