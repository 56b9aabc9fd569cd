"""The wire: the server's msgspec codec and the browser's pure decoder agree on every envelope and frame."""

from __future__ import annotations

import json

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import events.games
from events import wire
from events.bots import playout
from events.game import SecretRevealed
from events.log import Envelope, Table, decode_envelope, encode_envelope
from events.rng import LoadedRng, Rng
from server import frames, logfile
from server.scenarios import builtin_scenarios, load

GAME = events.games.load("mecha")
_, SAMPLE = load("mecha/sample")


def first_scenario(name: str) -> dict:
    return load(next(s for s in builtin_scenarios() if s.startswith(f"{name}/")))[1]


def random_game(name: str, seed: int, picks: list[int]) -> Table:
    """A game played with the given choices among the legal commands; some mecha throws loaded."""
    game = events.games.load(name)
    table = Table.create(game, "g-wiretest00", first_scenario(name), seed, at="2026-01-01T00:00:00.000000Z")
    for number, pick in enumerate(picks):
        if game.is_over(table.state):
            break
        seats = [seat for seat in game.turn(table.state) if game.legal(table.state, seat)]
        if not seats:
            break
        seat = seats[pick % len(seats)]
        options = game.legal(table.state, seat)
        rng = None
        if name == "mecha" and pick % 3 == 0 and table.state.bag:  # loaded dice: the envelope carries "dice"
            rng = LoadedRng((table.state.bag[pick % len(table.state.bag)][0],),
                            fallback=table.rng())
        # Times as the server spells them (sent as µs since the start), spelt otherwise (sent as text), none.
        at = (f"2026-01-01T00:{number // 60:02d}:{number % 60:02d}.{pick * 97 % 10**6:06d}Z", None,
              "2026-01-01T00:00:01Z")[pick % 3]
        table.submit(seat, options[pick // 7 % len(options)], f"c-{number}", at=at, rng=rng)
    return table


def same(a: Envelope, b: Envelope) -> bool:
    return (a.to_dict() == b.to_dict() and a.event == b.event and a.command == b.command and a.dice == b.dice
            and type(a.event) is type(b.event))


def same_but_hash(a: Envelope, b: Envelope) -> bool:
    """Equal envelopes, but that ``a`` came in a frame: its hash is None unless it ended the frame, and
    then the first 96 bits of ``b``'s (``wire.hash_matches``)."""
    return (a.hash is None or wire.hash_matches(b.hash, a.hash)) and same(_with_hash(a, b.hash), b)


def _with_hash(envelope: Envelope, hash_: str) -> Envelope:
    return Envelope(envelope.game, envelope.seq, envelope.event, envelope.seat, envelope.command_id,
                    envelope.command, envelope.dice, envelope.rule, hash_, envelope.at)


@pytest.mark.parametrize("name", events.games.NAMES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), picks=st.lists(st.integers(0, 10_000), max_size=30))
def test_wire_one_frame_per_command_reads_back_the_same_envelopes_in_msgspec_and_the_pure_reader(name, seed, picks):
    game = events.games.load(name)
    table = random_game(name, seed, picks)
    batches = wire.frame_batches(table.envelopes)
    assert [e for batch in batches for e in batch] == table.envelopes
    for batch in batches:
        # One command's envelopes (and what follows it commandless), as a seat and as a spectator see them.
        for seat in (None, *game.seats(table.state)[:1]):
            sent = [game.visible(envelope, seat) for envelope in batch]
            started, seats = table.envelopes[0].at, table.envelopes[0].event.seats
            frame = frames.events_frame(game, sent, started, seats)
            # The server side (tests, the bench): msgspec's decoder, then the pure reader.
            decoded = frames.decode_server_frame(frame)
            assert isinstance(decoded, frames.Events) and decoded.count() == len(sent)
            by_msgspec = frames.frame_envelopes(game, table.game_id, decoded, started, seats)
            # The browser side: json.loads, then the pure reader of events/ (the first frame needs no
            # start and no seats: GameStarted names them).
            first = batch[0].seq == 1
            by_browser = wire.frame_envelopes(game, table.game_id, json.loads(frame), None if first else started,
                                              seats=None if first else seats)
            assert by_browser[-1].hash == sent[-1].hash[:24]  # the hash once, after the last event: 96 bits
            assert all(envelope.hash is None for envelope in by_browser[:-1])
            for mine, theirs, original in zip(by_msgspec, by_browser, sent):
                assert same_but_hash(mine, original) and same_but_hash(theirs, original)
            # The command, its seat, id and time are written once per run, not once per event.
            for envelope in sent:  # the store's codec: msgspec is a fast path to the reference spelling
                text = encode_envelope(envelope)
                assert frames.encode_envelope(envelope) == text == logfile.dumps(envelope)
                assert same(frames.decode_envelope(game, text), envelope)
                assert same(msgspec.json.decode(text, type=frames.EnvelopeWire) and decode_envelope(game, text),
                            envelope)
            keys = [(e.seat, e.command_id, e.command, e.at) for e in sent]
            assert len(json.loads(frame)) - 2 == 1 + sum(1 for a, b in zip(keys, keys[1:]) if a != b)


@pytest.mark.parametrize("name", events.games.NAMES)
def test_one_codec_byte_for_byte_on_whole_games_of_every_game(name):
    """Whole games to their end (SecretRevealed included, CORE-2), command ids beyond ASCII and control
    characters: msgspec and the reference codec of events/log.py give the same bytes and envelopes."""
    game = events.games.load(name)
    for seed in range(3):
        table = Table.create(game, "g-codec\u00e9", first_scenario(name), seed, at="2026-01-01T00:00:00Z")
        chooser = Rng(seed)
        playout(table, {}, chooser, 2000, prefix="c é \u2028 \x7f \t 😀 </script>")
        assert isinstance(table.envelopes[-1].event, SecretRevealed)
        for envelope in table.envelopes:
            for sent in (envelope, game.visible(envelope, None), game.visible(envelope, game.seats(table.state)[0])):
                text = encode_envelope(sent)
                assert frames.encode_envelope(sent) == text
                assert same(frames.decode_envelope(game, text), decode_envelope(game, text))
                assert encode_envelope(decode_envelope(game, text)) == text


def test_server_frames_have_the_protocol_shapes():
    assert json.loads(frames.encode(frames.Welcome("g-x", "mecha", None, 3, "2026-01-01T00:00:00.000000Z",
                                                   ("red", "blue"), "0123456789ab"))) == {
        "type": "welcome", "game": "g-x", "rules": "mecha", "seat": None, "head": 3,
        "started": "2026-01-01T00:00:00.000000Z", "seats": ["red", "blue"], "build": "0123456789ab"}
    # The events frame is the one array: decoded apart from the tagged union (tests and the bench).
    decoded = frames.decode_server_frame('[13,"q6urq6urq6urq6ur",[0,"c",null,null,[13,0,1,2]],1]')
    assert isinstance(decoded, frames.Events) and (decoded.seq, decoded.count(), decoded.ack) == (13, 1, True)
    assert decoded.ack_frame() == frames.Ack("c", 13, 13) and decoded.as_list()[-1] == 1
    assert isinstance(frames.decode_server_frame(b'{"type":"ack","id":"c","first":2,"last":3}'), frames.Ack)
    assert json.loads(frames.encode(frames.Ack("c-1", 2, 3))) == {"type": "ack", "id": "c-1", "first": 2, "last": 3}
    assert json.loads(frames.encode(frames.Rejected("c-1", "MV-3", "why"))) == {
        "type": "rejected", "id": "c-1", "rule": "MV-3", "reason": "why", "key": "", "params": {}}
    assert json.loads(frames.encode(frames.Rejected("c-1", "MV-3", "why", "reject.x", {"n": 2}))) == {
        "type": "rejected", "id": "c-1", "rule": "MV-3", "reason": "why", "key": "reject.x", "params": {"n": 2}}
    assert json.loads(frames.error_frame("bad-frame", "what")) == {
        "type": "error", "code": "bad-frame", "message": "what", "id": None}


@pytest.mark.parametrize("raw, path", [
    ('{"type": "hello", "since": -1}', "$.since"),
    ('{"type": "command", "id": "' + "x" * 65 + '", "command": {"type": "Pass"}}', "$.id"),
    ('{"type": "command", "id": "c", "command": {"type": "Pass", "data": []}}', "$.command.data"),
    ('{"type": "command", "id": "c", "command": {"data": {}}}', "$.command"),
])
def test_decode_errors_carry_the_path(raw, path):
    with pytest.raises(frames.FrameError) as raised:
        frames.decode_client_frame(raw)
    assert raised.value.code == "bad-frame" and path in raised.value.message


def test_decode_envelope_refuses_a_malformed_envelope():
    from events.record import DecodeError

    with pytest.raises(DecodeError, match=r"\$.seq"):
        frames.decode_envelope(GAME, '{"game": "g", "seq": 0, "type": "TurnPassed", "data": {}, "hash": "h"}')
    with pytest.raises(DecodeError, match="unknown field"):
        frames.decode_envelope(GAME, '{"game": "g", "seq": 1, "type": "T", "data": {}, "hash": "h", "extra": 1}')


def test_nesting_is_bounded_with_the_path_where_it_was_passed():
    """Issue 12, finding 6: decoders recurse, so depth is checked first (frames.MAX_JSON_DEPTH)."""
    from server.frames import MAX_JSON_DEPTH, nesting_fault

    assert nesting_fault('{"type":"command","id":"c","command":{"type":"Move","data":{"to":[[1]]}}}') is None
    assert nesting_fault("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH) is None
    assert nesting_fault("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)).startswith("$[0][0]")
    # Brackets, commas and escaped quotes inside strings are not structure.
    assert nesting_fault('{"a":"[[[[[[","b\\"":[1,{"c":[[[[' + "]" * 4 + "}]}", 4) == "$.b\\\"[1].c[0]: JSON nested deeper than 4 levels"
    assert nesting_fault('["[[[[[[[[[[", "\\"[[[[[["]', 2) is None
    with pytest.raises(frames.FrameError) as refused:
        frames.decode_client_frame('{"type":"hello","since":0,"token":' + "[" * 1200 + "]" * 1200 + "}")
    assert refused.value.code == "bad-frame" and refused.value.message.startswith("$.token[0]")
