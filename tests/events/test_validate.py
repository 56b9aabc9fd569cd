"""Load-time validation helpers: each error names the path, the expected and the found."""

from __future__ import annotations

import pytest

from events.validate import ScenarioError, array, boolean, found, integer, obj, pair, text


def test_found_spells_json_values():
    assert [found(v) for v in (None, True, False, "x", 3, 2.5, [1, 2], {"a": 1}, (1,))] == [
        "null", "true", "false", "'x'", "3", "2.5", "a list of 2", "an object", "tuple",
    ]


def test_scenario_error_keeps_path_and_message():
    error = ScenarioError("$.a[1]", "expected an integer, got 'x'")
    assert str(error) == "$.a[1]: expected an integer, got 'x'"
    assert (error.path, error.message) == ("$.a[1]", "expected an integer, got 'x'")
    assert isinstance(error, ValueError)


def test_obj_requires_keys_and_refuses_unknown_ones():
    assert obj({"a": 1}, "$", ("a",), ("b",)) == {"a": 1}
    with pytest.raises(ScenarioError, match=r"^\$: missing required key 'a'$"):
        obj({}, "$", ("a",))
    with pytest.raises(ScenarioError, match=r"^\$\.c: unknown key \(expected one of: a, b\)$"):
        obj({"a": 1, "c": 2}, "$", ("a",), ("b",))
    with pytest.raises(ScenarioError, match=r"^\$: expected an object, got a list of 0$"):
        obj([], "$")


def test_integer_text_boolean_array_pair():
    assert integer(3, "$", 1, 3) == 3
    with pytest.raises(ScenarioError, match="expected an integer <= 3, got 4"):
        integer(4, "$", high=3)
    assert text("orange", "$", ("orange",)) == "orange"
    with pytest.raises(ScenarioError, match="expected one of orange, turquoise, got 'red'"):
        text("red", "$", ("orange", "turquoise"))
    assert boolean(False, "$") is False
    with pytest.raises(ScenarioError, match="expected true or false, got 0"):
        boolean(0, "$")
    assert array([1], "$", 1, 1) == [1]
    assert pair([1, -2], "$") == (1, -2)
    with pytest.raises(ScenarioError, match=r"^\$\[1\]: expected an integer, got 'b'$"):
        pair([1, "b"], "$")
