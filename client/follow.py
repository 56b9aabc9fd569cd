"""The page's own copy of a game: envelopes folded with ``events/``, every hash sent checked.

The server sends one ``events`` frame per command (``events/wire.py``): its envelopes, with the
first 96 bits of the state hash once, after the last. The page rebuilds the state with the very
reducers the server used and compares ``state_hash(state)`` with that check
(``events.wire.hash_matches``); once they agree, the envelope keeps the whole hash the page
computed, which is the logged one (so the log panel, the disputes and an export show the store's
hash). A match proves the page shows the game the server holds; a mismatch is shown, never
hidden. The envelopes between carry no hash (None): there is nothing to compare there, and they
are not hashed.

A page that joins a game folds the whole catch-up, checks the newest hash at once (the state on
screen), and checks the older frames' hashes in the background, a few per timer tick; every frame
that arrives live is checked as it comes. ``add`` takes a full envelope (a log line) instead.

A page joining a long game may start from the server's snapshot instead (``from_snapshot``,
issue 16): the state at the snapshot's seq, its hash recomputed and compared with the logged one
before anything is folded on it (``events/snapshot.py``); the envelopes before it are
``events.log.ELIDED`` (``base``: the snapshot's seq) until a second Follower has folded the whole
log in the background and takes its place (``client/pages/play.py``).
"""

from __future__ import annotations

from client.i18n import t
from events.canonical import state_hash
from events.log import ELIDED, Envelope, Table
from events.snapshot import decode_snapshot
from events.wire import frame_envelopes, hash_matches


class Gap(Exception):
    """An envelope arrived out of order: the page must ask again from the seq it holds."""

    def __init__(self, expected: int, got: object) -> None:
        super().__init__(f"expected seq {expected}, got seq {got}")
        self.expected = expected
        self.got = got


class Follower:
    """Folds envelopes in seq order; remembers the first hash mismatch."""

    def __init__(self, game: object) -> None:
        self.game = game
        self.table = None  # events.log.Table: the one fold-and-verify step (hashes checked here, lazily)
        self.state = None
        self.envelopes: list = []
        self.states: list = []  # states[i]: after envelopes[i] (immutable records share their parts)
        self.checked: list = []  # checked[i]: True once envelopes[i]'s hash was compared
        self.unchecked = 0  # lowest index that may still be unchecked
        self.mismatch = None  # (seq, logged hash, folded hash) of the first disagreement found
        self.base = 0  # the snapshot's seq this Follower started from (0: from the log's start)
        self.sent = 0  # hashes the server sent (counted as they come: a sum over 10,000 cost a draw ~100 ms)
        self.done = 0  # of those, hashes compared

    @classmethod
    def from_snapshot(cls, game: object, game_id: str, frame: dict) -> Follower:
        """A Follower at a ``snapshot`` frame's seq; raises DecodeError, or SnapshotError when the
        state's hash, recomputed here, is not the one logged at that seq (nothing is taken on trust)."""
        started, seq, state, logged = decode_snapshot(game, game_id, frame)
        follower = cls(game)
        follower.table = Table.from_snapshot(game, game_id, started, seq, state)
        follower.state = state
        follower.envelopes = follower.table.envelopes
        follower.states = [None] * (seq - 1) + [state]
        follower.checked = [False] * seq  # not folded here: checked by the Follower that folds the log
        follower.checked[-1] = True  # the snapshot's state: its hash was recomputed by decode_snapshot
        follower.unchecked = seq
        follower.base = seq
        follower.snapshot_hash = logged
        follower.sent = 2  # GameStarted's (not folded here) and the snapshot's
        follower.done = 1
        return follower

    snapshot_hash = None  # the hash logged at ``base``, which the snapshot's state was checked against

    def newest_hash(self) -> object:
        """The hash logged after the newest envelope held (the snapshot's, before anything followed it)."""
        if not self.envelopes:
            return None
        envelope = self.envelopes[-1]
        return self.snapshot_hash if envelope is ELIDED else envelope.hash

    @property
    def seq(self) -> int:
        return len(self.envelopes)

    def add(self, raw: dict) -> object:
        """Fold one envelope (a dict as sent); None if already held. Raises Gap, DecodeError or LogError."""
        seq = raw.get("seq") if isinstance(raw, dict) else None
        if isinstance(seq, int) and seq <= self.seq:
            return None  # a resend after reconnecting
        return self._fold(Envelope.from_dict(self.game, raw))

    def add_frame(self, frame: dict, game_id: str) -> list:
        """Fold an ``events`` frame; the envelopes not held before (a resend after reconnecting is
        skipped). Raises Gap, DecodeError (nothing folded) or LogError (what came before the fault stays folded)."""
        held = self.seq
        started = seats = None
        if held:  # GameStarted's time and seats: the base of the frame's times, what its seat indexes name
            first = self.envelopes[0]
            started, seats = first.at, getattr(first.event, "seats", None)
        envelopes = [envelope for envelope in frame_envelopes(self.game, game_id, frame, started, seats=seats)
                     if envelope.seq > held]
        if envelopes and envelopes[0].seq != held + 1:
            raise Gap(held + 1, envelopes[0].seq)
        return [self._fold(envelope) for envelope in envelopes]

    def add_envelopes(self, envelopes: list) -> None:
        """Fold envelopes another Follower decoded already (the tail of a snapshot join)."""
        for envelope in envelopes:
            self._fold(envelope)

    def _fold(self, envelope: Envelope) -> Envelope:
        if envelope.seq != self.seq + 1:
            raise Gap(self.seq + 1, envelope.seq)
        if self.table is None:
            self.table = Table(self.game, envelope.game)
        self.table.absorb(envelope, verify=False)  # continuity, GameStarted first, fold, SecretRevealed opened
        self.state = self.table.state
        self.envelopes = self.table.envelopes
        self.states.append(self.state)
        self.checked.append(envelope.hash is None)  # no hash sent: nothing to check
        if envelope.hash is not None:
            self.sent += 1
        return envelope

    def before(self, seq: int) -> object:
        """The state before the event at ``seq`` (None before GameStarted): what the log's words read."""
        return self.states[seq - 2] if 2 <= seq <= len(self.states) + 1 else None

    def check(self, seq: int) -> bool:
        """Compare the page's hash after ``seq`` with the one sent (a frame's 96-bit check, or a log
        line's whole hash); True if they match, and the envelope then holds the whole hash."""
        index = seq - 1
        folded = state_hash(self.states[index])
        envelope = self.envelopes[index]
        logged = envelope.hash
        if not self.checked[index] and logged is not None:
            self.done += 1
        self.checked[index] = True
        if not hash_matches(folded, logged):
            if self.mismatch is None or seq < self.mismatch[0]:
                self.mismatch = (seq, logged, folded)
            return False
        envelope.hash = folded  # the logged hash, whole: the frame sent its first 96 bits
        return True

    def check_latest(self) -> None:
        if self.seq and not self.checked[-1]:
            self.check(self.seq)

    def check_some(self, count: int) -> bool:
        """Check up to ``count`` older envelopes; True while some remain unchecked."""
        done = 0
        while self.unchecked < self.seq and done < count:
            if not self.checked[self.unchecked]:
                self.check(self.unchecked + 1)
                done += 1
            self.unchecked += 1
        return self.unchecked < self.seq

    def sent_count(self) -> int:
        """How many hashes the server sent (one per frame; every envelope's when ``add`` took log lines;
        after a snapshot join, GameStarted's and the snapshot's, checked when it was decoded)."""
        return self.sent

    def checked_count(self) -> int:
        """How many hashes sent were compared."""
        return self.done

    def status(self) -> str:
        """``hash ✓ seq N``, or the first mismatch, for the status bar (in the reader's language)."""
        if self.mismatch is not None:
            seq, logged, folded = self.mismatch
            return t("hash.mismatch", seq=seq, server=logged[:12] + "…", page=folded[:12] + "…")
        if self.seq == 0:
            return t("hash.waiting")
        return t("hash.ok", seq=self.seq)
