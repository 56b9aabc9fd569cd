"""Every ``chronicle …`` example in README.md runs as written (issue 17 point 9, issue 15).

The examples are the lines of its ``sh`` blocks and its inline code spans that start with
``chronicle`` and give the command arguments. They run in order, in one scratch folder, so a
log written by one (``g.jsonl``) is read by the next. Left out, and said so in the README:
``serve`` (it keeps running; tests/server covers it), the CLI table's synopses (rows with
placeholders such as SEQ), a bare command name (``chronicle play``), and the gloomhaven
``POSITION.json`` placeholder (the gloomhaven positions are being made built-in on another branch).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from server.cli.main import main
from server.cli.status import SUCCESS

README = Path(__file__).resolve().parents[1] / "README.md"


def examples(text: str) -> list[list[str]]:
    """The README's ``chronicle`` examples as argument lists, in reading order."""
    found: list = []
    in_sh = False
    paragraph: list = []

    def flush() -> None:
        joined = " ".join(paragraph)
        for span in re.findall(r"`([^`]+)`", joined):
            found.append(span)
        paragraph.clear()

    for line in text.splitlines():
        if line.startswith("```"):
            flush()
            in_sh = line.strip() == "```sh"
            continue
        if in_sh:
            found.append(line)
        elif line.startswith("|") or not line.strip():
            flush()
        else:
            paragraph.append(line.strip())
    flush()
    out = []
    for example in found:
        words = shlex.split(example, comments=True)
        if len(words) < 3 or words[0] != "chronicle" or words[1] == "serve" or "POSITION.json" in words:
            continue
        out.append(words[1:])
    return out


def test_examples_are_found():
    """The extraction itself: the README's examples, the sh blocks and the prose ones, in order."""
    found = examples(README.read_text(encoding="utf-8"))
    assert ["play", "mecha/sample", "--random", "300", "--seed", "1", "--log", "g.jsonl"] in found
    assert ["explain", "g.jsonl", "42"] in found
    assert ["ask", "arkham", "path", "arkham/crossing", "--from", "graveyard", "--to", "administration"] in found
    assert found.index(["play", "mecha/sample", "--random", "300", "--seed", "1", "--log", "g.jsonl"]) < found.index(
        ["explain", "g.jsonl", "42"])
    assert len(found) >= 14
    assert examples("`chronicle play` and `chronicle serve --port 1` and `chronicle …`\n") == []
    assert examples("a `chronicle ask x\ny z` span\n\n```sh\nchronicle audit a.jsonl  # why\n```\n") == [
        ["ask", "x", "y", "z"], ["audit", "a.jsonl"]]


def test_every_readme_example_runs_as_written(tmp_path, monkeypatch, capsys):
    """STYLE habit 15: examples in docs run as tests; each ends with status 0 and prints something."""
    monkeypatch.chdir(tmp_path)
    for argv in examples(README.read_text(encoding="utf-8")):
        status = main(list(argv))
        out, err = capsys.readouterr()
        assert status == SUCCESS, f"chronicle {shlex.join(argv)} → status {status}: {err}"
        assert out.strip(), f"chronicle {shlex.join(argv)} printed nothing"
