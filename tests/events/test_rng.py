"""The dice: SplitMix64 pinned to its published outputs, unbiased bounds, and loaded dice for tests."""

from __future__ import annotations

import pytest

from events.rng import LoadedDiceExhausted, LoadedDiceMismatch, LoadedRng, Rng


def test_splitmix64_first_outputs_are_pinned():
    """The reference vectors of SplitMix64 (seed 0, and Vigna's seed 1234567): a change is caught."""
    rng = Rng(0)
    assert [rng.next64() for _ in range(5)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC, 0x1B39896A51A8749B,
    ]
    rng = Rng(1234567)
    assert [rng.next64() for _ in range(5)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431, 16408922859458223821,
    ]


def test_derived_draws_are_pinned():
    """below/roll sit on next64; their first outputs are pinned too (the server's dice, CORE-1)."""
    rng = Rng(42)
    assert [rng.below(10) for _ in range(10)] == [3, 1, 8, 4, 0, 2, 5, 8, 5, 4]
    assert [rng.roll() for _ in range(10)] == [6, 5, 3, 2, 3, 3, 6, 4, 4, 1]


def test_seeds_are_integers_reduced_to_64_bits():
    assert Rng(-1).state == (1 << 64) - 1
    assert Rng(1 << 64).state == 0
    for bad in ("7", 7.0, True, None):
        with pytest.raises(TypeError, match="seed must be an integer"):
            Rng(bad)


def test_below_stays_in_bounds():
    rng = Rng(5)
    for n in (1, 2, 3, 7, 1000, (1 << 63) + 1):
        assert all(0 <= rng.below(n) < n for _ in range(200))
    assert {rng.below(1) for _ in range(20)} == {0}
    for bad in (0, -3):
        with pytest.raises(ValueError, match=f"below\\(\\) needs a positive bound, got {bad}"):
            rng.below(bad)


def test_below_is_roughly_uniform():
    """A sanity check, not a statistics course: 6,000 draws of below(6) each land ~1,000 times."""
    rng = Rng(2024)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.below(6)] += 1
    assert all(850 < count < 1150 for count in counts), counts


def test_below_rejects_the_biased_tail():
    """With n just over 2**63, values at or above the limit are redrawn (no modulo bias)."""
    n = (1 << 63) + 1
    rng = Rng(0)
    limit = (1 << 64) - ((1 << 64) % n)
    raw = Rng(0)
    outputs = [raw.next64() for _ in range(20)]
    expected = next(value % n for value in outputs if value < limit)
    assert rng.below(n) == expected


def test_roll_and_pick():
    rng = Rng(9)
    assert all(1 <= rng.roll(4) <= 4 for _ in range(100))
    options = ("a", "b", "c")
    assert {rng.pick(options) for _ in range(100)} == set(options)
    with pytest.raises(ValueError, match="pick\\(\\) from no options"):
        rng.pick(())


def test_loaded_dice_roll_and_below_return_the_given_values():
    rng = LoadedRng((6, 1, 0))
    assert rng.loaded
    assert rng.roll() == 6
    assert rng.roll(6) == 1
    assert rng.below(3) == 0
    assert rng.used == 3


def test_loaded_pick_matches_on_the_face():
    rng = LoadedRng((4, (2, "turquoise"), 9))
    tokens = ((1, "orange"), (4, "orange"), (4, "turquoise"))
    assert rng.pick(tokens, face=lambda token: token[0]) == (4, "orange")
    assert rng.pick(((2, "orange"), (2, "turquoise"))) == (2, "turquoise")
    with pytest.raises(LoadedDiceMismatch, match=r"loaded value 9 is not among the options \[1, 4\]"):
        rng.pick(tokens, face=lambda token: token[0])
    with pytest.raises(ValueError, match="pick\\(\\) from no options"):
        rng.pick(())


def test_loaded_dice_fall_back_when_exhausted():
    fallback = Rng(3)
    expected = Rng(3)
    rng = LoadedRng((2,), fallback=fallback)
    assert rng.roll() == 2
    assert rng.roll() == expected.roll()
    assert rng.below(100) == expected.below(100)
    assert rng.pick(("x", "y", "z")) == expected.pick(("x", "y", "z"))


def test_loaded_dice_without_fallback_run_out():
    rng = LoadedRng((1,))
    rng.roll()
    with pytest.raises(LoadedDiceExhausted, match="no loaded value left for a d6 \\(given 1\\)"):
        rng.roll()
    with pytest.raises(LoadedDiceExhausted, match="a number below 4"):
        rng.below(4)
    with pytest.raises(LoadedDiceExhausted, match="a draw"):
        rng.pick((1, 2))


def test_loaded_values_that_cannot_come_up_are_refused():
    with pytest.raises(LoadedDiceMismatch, match="loaded value 7 cannot be rolled on a d6"):
        LoadedRng((7,)).roll()
    with pytest.raises(LoadedDiceMismatch, match="loaded value 0 cannot be rolled on a d6"):
        LoadedRng((0,)).roll()
    with pytest.raises(LoadedDiceMismatch, match=r"loaded value 5 is not in \[0, 5\)"):
        LoadedRng((5,)).below(5)
