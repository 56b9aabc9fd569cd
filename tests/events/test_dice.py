"""The game's secret (CORE-1, CORE-2): commitment, per-command derivation, local seeds, sealed draws.

Each formula is recomputed here from its description in docs/protocol.md with the standard
library alone, so the documentation and the code cannot drift apart.
"""

from __future__ import annotations

import hashlib
import hmac

import pytest

from events.dice import SealedRng, SecretNeeded, check_secret, command_rng, commitment, local_secret
from events.rng import Rng

SECRET = "00112233445566778899aabbccddeeff" * 2
PINNED_ROLLS = [4, 2, 1, 4, 3, 5, 3, 5]


def test_core_1_commitment_is_sha256_of_the_documented_text():
    expected = hashlib.sha256(f"chronicle-commitment-v1:g-abc:{SECRET}".encode()).hexdigest()
    assert commitment(SECRET, "g-abc") == expected
    # Check: it binds the game id and every bit of the secret.
    assert commitment(SECRET, "g-abd") != expected
    assert commitment(SECRET[:-1] + "0", "g-abc") != expected


def test_core_1_command_rng_is_splitmix_from_the_first_8_bytes_of_hmac_sha256():
    for seq in (1, 2, 77, 10**9):
        digest = hmac.new(bytes.fromhex(SECRET), f"chronicle-dice-v1:{seq}".encode(), hashlib.sha256).digest()
        reference = Rng(int.from_bytes(digest[:8], "big"))
        derived = command_rng(SECRET, seq)
        assert [derived.next64() for _ in range(4)] == [reference.next64() for _ in range(4)]
        assert not derived.loaded


def test_core_1_command_rng_is_pinned():
    """A change of derivation would change every logged game's dice: it is caught here."""
    rng = command_rng(SECRET, 2)
    assert [rng.roll() for _ in range(8)] == PINNED_ROLLS


def test_core_1_each_seq_and_each_secret_gives_its_own_stream():
    firsts = {command_rng(SECRET, seq).next64() for seq in range(1, 201)}
    assert len(firsts) == 200
    others = {command_rng(local_secret(seed), 5).next64() for seed in range(200)}
    assert len(others) == 200


def test_core_1_a_secret_is_64_lowercase_hex_digits():
    assert check_secret(SECRET) == SECRET
    for bad, fault in ((SECRET[:-2], "62 characters"), (SECRET.upper(), "64 characters"), (7, "got int"),
                       (SECRET[:-1] + "g", "64 characters")):
        with pytest.raises(ValueError, match=fault):
            check_secret(bad)
    with pytest.raises(ValueError):
        commitment("00" * 16, "g")  # 128 bits: too short for this format
    with pytest.raises(ValueError):
        command_rng("xyz", 1)


def test_core_1_a_local_seed_gives_a_documented_secret():
    assert local_secret(7) == hashlib.sha256(b"chronicle-local-seed-v1:7").hexdigest()
    assert check_secret(local_secret(-3)) == local_secret(-3)
    assert local_secret(7) != local_secret(8)
    for bad in ("7", True, None):
        with pytest.raises(TypeError, match="a seed is an integer"):
            local_secret(bad)


def test_core_2_a_sealed_generator_refuses_every_draw():
    rng = SealedRng()
    for draw in (rng.next64, lambda: rng.below(6), rng.roll, lambda: rng.pick((1, 2))):
        with pytest.raises(SecretNeeded, match="not revealed yet"):
            draw()


def test_core_1_hmac_sha256_is_the_standard_hmac_for_every_key_length():
    """CORE-1: the dice's HMAC, written on hashlib alone for Brython, gives hmac.new's bytes."""
    import hashlib
    import hmac

    from events.dice import hmac_sha256

    for length in (0, 1, 31, 32, 33, 63, 64):
        key = bytes(range(length))
        for message in (b"", b"chronicle-dice-v1:1", bytes(range(200))):
            assert hmac_sha256(key, message) == hmac.new(key, message, hashlib.sha256).digest()
    with pytest.raises(ValueError, match="at most 64 bytes"):
        hmac_sha256(bytes(65), b"")
