"""Logs as files: JSON Lines in, ``events.log.Envelope``s out, and back.

One envelope per line, always spelt the same way (keys sorted, no spaces, non-ASCII text as
UTF-8, ``\\n`` line ends), so that writing what was read gives the same bytes and a diff of two
logs shows only what differs. The rule system is the one the first line's ``GameStarted`` names
(``data.game``) at the rules version it names (``data.rules_version``), and every error names the file and the line, such as ``g.jsonl line 7: ...``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from events.game import GameStarted
from events.log import Envelope, LogError, Table, encode_envelope
from events.record import DecodeError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from events.game import Game



class LogFileError(ValueError):
    """A file that is not a readable log, with the file (and line) named."""


def dumps(envelope: Envelope) -> str:
    """One envelope as one line of JSON (without its newline): ``events.log.encode_envelope``."""
    return encode_envelope(envelope)


def write(path: str | os.PathLike, envelopes: Iterable[Envelope]) -> None:
    """Write a whole log. A temporary file renamed into place means a failure never leaves half a log."""
    path = Path(path)
    text = "".join(dumps(envelope) + "\n" for envelope in envelopes)
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        with open(temporary, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise LogFileError(f"{path}: cannot write: {error.strerror or error}") from None


def read(path: str | os.PathLike) -> tuple[Game, list[Envelope]]:
    """(the log's rule system, its envelopes), checked line by line."""
    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        raise LogFileError(f"{path}: cannot read: {error.strerror or error}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        raise LogFileError(f"{path} line {line}: not UTF-8 text (byte {raw[error.start]:#04x})") from None
    # split("\n"), not splitlines(): U+2028 and U+0085 are legal unescaped inside a JSON string.
    return parse(text.split("\n"), str(path))


def json_lines(lines: Iterable[str], name: str, error: type[Exception] = LogFileError) -> Iterator[tuple]:
    """``(number, where, value)`` for each line of JSON Lines that is not blank, ``where`` being
    ``"<name> line <number>"`` (numbers count the blank lines too); a line that is not JSON raises
    ``error`` saying where. Logs read through it, and so do ``chronicle play``'s commands files."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{name} line {number}"
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as fault:
            raise error(f"{where}: not valid JSON: {fault.msg} at column {fault.colno}") from None
        yield number, where, raw


def parse(lines: Iterable[str], name: str = "<log>") -> tuple[Game, list[Envelope]]:
    """Envelopes from JSON Lines; blank lines are skipped, line numbers count them all."""
    game = None
    envelopes: list[Envelope] = []
    first_line = 0
    for number, where, raw in json_lines(lines, name):
        if not isinstance(raw, dict):
            raise LogFileError(f"{where}: expected an envelope (a JSON object), got {_kind(raw)}")
        if game is None:
            game = _game_of(raw, where)
            first_line = number
        try:
            envelope = Envelope.from_dict(game, raw)
        except DecodeError as error:
            raise LogFileError(f"{where}: {error}") from None
        expected = len(envelopes) + 1
        if envelope.seq != expected:
            if not envelopes:
                raise LogFileError(f"{where}: a log starts at seq 1, got seq {envelope.seq}")
            raise LogFileError(f"{where}: seq {envelope.seq} follows seq {expected - 1}: expected seq {expected}")
        if envelopes and isinstance(envelope.event, GameStarted):
            raise LogFileError(f"{where}: GameStarted may only be the first event (seq 1), found at seq {envelope.seq}")
        if envelopes and envelope.game != envelopes[0].game:
            raise LogFileError(f"{where}: game {envelope.game!r} differs from {envelopes[0].game!r} "
                               f"on line {first_line}: one log holds one game")
        envelopes.append(envelope)
    if game is None:
        raise LogFileError(f"{name}: the log is empty: expected a GameStarted envelope on line 1")
    return game, envelopes


def _game_of(raw: dict, where: str) -> Game:
    """The rule system named by the first envelope, which must be GameStarted."""
    import events.games

    if raw.get("type") != "GameStarted":
        raise LogFileError(f"{where}: the first event must be GameStarted, got {raw.get('type')!r}")
    data = raw.get("data")
    name = data.get("game") if isinstance(data, dict) else None
    if not isinstance(name, str):
        raise LogFileError(f"{where}: $.data.game: expected the name of a rule system, got {name!r}")
    try:
        game = events.games.load(name)
    except KeyError as error:
        raise LogFileError(f"{where}: $.data.game: {error.args[0]}") from None
    # A log is played under the rules version it names, however old (issue 19); one this code
    # never released is read with the newest rules, and ``audit`` says which it was played under.
    version = data.get("rules_version")
    known = [released.rules_version for released in game.versions()]
    return game.version(version) if version in known else game


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "a list"}.get(
        type(value), type(value).__name__
    )


def restore(game: Game, envelopes: list[Envelope], name: str = "<log>") -> Table:
    """The envelopes folded into a ``Table``, every logged hash checked; errors name the file and seq.

    An event that today's rules cannot fold at all (a tampered scenario, a field of the wrong
    type) is a divergence like a wrong hash: ``Table.restore`` reports it as ``LogError`` with its seq.
    """
    try:
        return Table.restore(game, envelopes[0].game, envelopes, verify=True)
    except LogError as error:
        raise LogError(f"{name}: {error}") from None
