"""Load-time validation helpers: each error names the path, the expected and the found."""

from __future__ import annotations

import pytest

from events.validate import (
    COORD_LIMIT,
    SEAT_NAME_LIMIT,
    SHAPE,
    TEXT_LIMIT,
    BoundError,
    ScenarioError,
    array,
    boolean,
    check_shape,
    found,
    integer,
    listed_once,
    obj,
    pair,
    seat_name,
    text,
)


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


def test_bounds_past_an_upper_bound_raise_bound_error_with_its_code():
    """Issue 12: a value past a documented bound has its own code; a wrong shape stays bad-scenario."""
    with pytest.raises(BoundError, match=r"^\$\.n: expected an integer <= 3, got 4$") as raised:
        integer(4, "$.n", 1, 3)
    assert raised.value.code == "scenario-out-of-bounds" and ScenarioError("$", "x").code == "bad-scenario"
    with pytest.raises(BoundError, match="expected at most 2 items, got 3"):
        array([1, 2, 3], "$", 0, 2)
    with pytest.raises(ScenarioError) as fixed:
        array([1, 2, 3], "$", 2, 2)  # a pair of three is a wrong shape, not a bound
    assert not isinstance(fixed.value, BoundError)
    with pytest.raises(BoundError, match=f"at most {TEXT_LIMIT} characters, got {TEXT_LIMIT + 1}"):
        text("x" * (TEXT_LIMIT + 1), "$.name")
    assert text("x" * 500, "$", limit=500) == "x" * 500
    with pytest.raises(BoundError, match=r"^\$\[1\]: expected an integer from"):
        pair([0, COORD_LIMIT + 1], "$")
    with pytest.raises(BoundError, match=r"^\$\[0\]: expected an integer from"):
        pair([-COORD_LIMIT - 1, 0], "$")


def test_check_shape_refuses_depth_long_strings_lists_and_keys_with_a_path():
    check_shape({"a": [1, "x", {"b": None}], "notes": {"anything": [True, 2]}})
    deep: object = 0
    for _ in range(5000):  # far past the recursion limit: refused with a path, not a RecursionError
        deep = {"k": [deep]}
    with pytest.raises(BoundError, match=r"^\$\.k\[0\]\.k\[0\].*: expected at most 16 levels of nesting"):
        check_shape(deep)
    with pytest.raises(BoundError, match=r"^\$\.notes\[1\]: expected a string of at most"):
        check_shape({"notes": ["ok", "x" * (SHAPE["text"] + 1)]})
    with pytest.raises(BoundError, match=r"^\$\.rows: expected at most 1000 items"):
        check_shape({"rows": [0] * (SHAPE["items"] + 1)})
    with pytest.raises(BoundError, match=r"^\$: expected at most 100 keys"):
        check_shape({str(i): i for i in range(SHAPE["keys"] + 1)})
    with pytest.raises(BoundError, match=r"^\$\.a: expected a key of at most"):
        check_shape({"a": {"k" * (SHAPE["text"] + 1): 1}})
    with pytest.raises(ScenarioError, match="expected string keys, got 1"):
        check_shape({"a": {1: "x"}})  # JSON never has them; a Python caller might
    with pytest.raises(BoundError, match="values in all"):
        check_shape([[0] * 900 for _ in range(30)])


def test_listed_once_names_the_item_and_where_it_stands_again():
    listed_once("b", {"a"}, "$.x[1]", "seat 'b'")
    listed_once((1, 2), [(1, 3)], "$.x[1]", "hex [1, 2]", among="the pattern")
    with pytest.raises(ScenarioError) as error:
        listed_once("a", {"a": 1}, "$.x[1].id", "area 'a'")
    assert (error.value.path, error.value.message) == ("$.x[1].id", "area 'a' is listed twice")
    with pytest.raises(ScenarioError, match=r"^\$\.p\[2\]: hex \[0, 0\] is listed twice in the pattern$"):
        listed_once((0, 0), [(1, 0), (0, 0)], "$.p[2]", "hex [0, 0]", among="the pattern")


@pytest.mark.parametrize("name", ["red", "seat-2", "a_b", "Ж", "r" * SEAT_NAME_LIMIT])
def test_seat_name_takes_letters_digits_dash_and_underscore(name):
    assert seat_name(name, "$.seat") == name


@pytest.mark.parametrize("name", ["r d", "r/d", "r" * (SEAT_NAME_LIMIT + 1)])
def test_seat_name_refuses_other_characters_and_long_names(name):
    with pytest.raises(ScenarioError) as error:
        seat_name(name, "$.seats[0].seat")
    assert error.value.path == "$.seats[0].seat"
    assert error.value.message == f"a seat name is 1–24 letters, digits, - or _, got {name!r}"
