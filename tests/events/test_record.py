"""Records: immutable, compared by value, and rebuilt from plain data with errors that name a path."""

from __future__ import annotations

import pytest

from events.record import DecodeError, Record, Registry, from_data, to_data


class Point(Record):
    __slots__ = ("x", "y")
    __match_args__ = __slots__
    TYPE = "Point"
    DEFAULTS = {"y": 0}

    def __init__(self, x: int, y: int) -> None:
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y", y)


class Path(Record):
    __slots__ = ("name", "points")
    __match_args__ = __slots__
    TYPE = "Path"

    def __init__(self, name: str, points: tuple) -> None:
        if not isinstance(name, str):
            raise TypeError(f"name must be a string, got {name!r}")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "points", points)


class Other(Record):
    __slots__ = ("x", "y")
    TYPE = "Other"

    def __init__(self, x: int, y: int) -> None:
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y", y)


class Empty(Record):
    __slots__ = ()
    TYPE = "Empty"


REGISTRY = Registry("shape", (Point, Path))


def test_setting_or_deleting_an_attribute_raises():
    point = Point(1, 2)
    with pytest.raises(AttributeError, match="Point is immutable: cannot set 'x'"):
        point.x = 5
    with pytest.raises(AttributeError, match="cannot set 'z'"):
        point.z = 5
    with pytest.raises(AttributeError, match="Point is immutable: cannot delete 'x'"):
        del point.x
    assert point.x == 1


class Plain(Record):
    """Filled the way every record of the games is: plain assignments in ``__init__``."""

    __slots__ = ("a", "b", "c")
    __match_args__ = __slots__
    TYPE = "Plain"

    def __init__(self, a: int, b: str = "b", c: tuple = ()) -> None:
        self.a = a
        self.b = b
        self.c = c


class Wider(Plain):
    """A record class that adds nothing: its base's ``__init__`` fills it."""

    __slots__ = ()
    TYPE = "Wider"


@pytest.mark.parametrize("make", [
    lambda: Plain(1, "x", (2,)),
    lambda: Plain(a=1, c=(2,), b="x"),
    lambda: Plain(0).but(a=1, b="x", c=(2,)),
    lambda: Registry("plain", (Plain,)).build({"type": "Plain", "a": 1, "b": "x", "c": [2]}),
], ids=["positional", "keywords", "but", "built"])
def test_a_record_filled_by_plain_assignments_is_its_own_class_and_refuses_assignment(make):
    record = make()
    assert type(record) is Plain and record == Plain(1, "x", (2,))
    assert record.fields() == (1, "x", (2,))
    with pytest.raises(AttributeError, match="Plain is immutable: cannot set 'a'"):
        record.a = 5
    with pytest.raises(AttributeError, match="Plain is immutable: cannot delete 'b'"):
        del record.b
    with pytest.raises(AttributeError, match="immutable"):
        record.__class__ = Plain._twin  # nor turned back into the class that takes assignments
    assert record.a == 1 and type(record) is Plain


def test_a_record_class_without_its_own_init_is_filled_by_its_base_and_sealed_as_itself():
    record = Wider(3)
    assert type(record) is Wider and (record.a, record.b, record.c) == (3, "b", ())
    assert record != Plain(3)
    with pytest.raises(AttributeError, match="Wider is immutable"):
        record.c = (1,)


def test_a_record_given_the_wrong_arguments_raises_type_error_naming_its_init():
    with pytest.raises(TypeError, match=r"__init__\(\) missing 1 required positional argument: 'a'"):
        Plain()
    with pytest.raises(TypeError, match="unexpected keyword argument 'd'"):
        Plain(1, d=2)
    with pytest.raises(TypeError, match="Plain has no field 'd'"):
        Plain(1).but(d=2)


def test_the_unsealed_twin_is_no_record_type_of_its_own():
    assert Plain._twin.__name__ == "Plain" and Plain._twin.__slots__ == ()
    assert "Plain" in Registry("plain", (Plain,)) and Registry("plain", (Plain,)).by_type["Plain"] is Plain
    assert Plain._twin is not Wider._twin and issubclass(Plain._twin, Plain)


def test_equality_and_hash_follow_the_fields():
    assert Point(1, 2) == Point(1, 2)
    assert Point(1, 2) != Point(2, 1)
    assert hash(Point(1, 2)) == hash(Point(1, 2))
    assert len({Point(1, 2), Point(1, 2), Point(2, 1)}) == 2
    assert Empty() == Empty() and not (Empty() != Empty())


def test_records_of_different_types_never_compare_equal():
    assert Point(1, 2) != Other(1, 2)
    assert not (Point(1, 2) == Other(1, 2))
    assert Point(1, 2) != (1, 2)
    assert hash(Point(1, 2)) != hash(Other(1, 2))


def test_repr_and_fields():
    assert repr(Point(1, 2)) == "Point(x=1, y=2)"
    assert Path("p", (Point(0, 0),)).fields() == ("p", (Point(0, 0),))
    assert repr(Empty()) == "Empty()"


def test_match_args_allow_positional_patterns():
    match Point(3, 4):
        case Point(x, y):
            assert (x, y) == (3, 4)


def test_to_data_and_back_round_trip():
    path = Path("zigzag", (Point(0, 0), Point(1, -1), None, True, ("a", 2)))
    data = path.to_data()
    assert data == {
        "type": "Path", "name": "zigzag",
        "points": [{"type": "Point", "x": 0, "y": 0}, {"type": "Point", "x": 1, "y": -1}, None, True, ["a", 2]],
    }
    assert REGISTRY.build(data) == path
    assert from_data(to_data((1, (2, 3)))) == (1, (2, 3))


def test_to_data_refuses_values_a_record_may_not_hold():
    for bad in (1.5, [1], {1}, {"a": 1}):
        with pytest.raises(TypeError, match="a record field may hold int, str, bool, None, tuple or record, not"):
            Point(bad, 0).to_data()


def test_build_fills_declared_defaults():
    assert REGISTRY.build({"type": "Point", "x": 4}) == Point(4, 0)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "$: expected an object with a 'type', got a list"),
        (None, "$: expected an object with a 'type', got null"),
        ("Point", "$: expected an object with a 'type', got a string"),
        ({"x": 1}, "$.type: unknown shape type None (known: Path, Point)"),
        ({"type": "Circle"}, "$.type: unknown shape type 'Circle' (known: Path, Point)"),
        ({"type": 3}, "$.type: unknown shape type 3"),
        ({"type": "Point", "x": 1, "z": 2}, "$: shape 'Point' has no field 'z'"),
        ({"type": "Path", "points": []}, "$: shape 'Path' is missing field 'name'"),
        # a foreign field in a missing one's place (the count is right): the foreign one is named
        ({"type": "Path", "name": "p", "pointz": []}, "$: shape 'Path' has no field 'pointz'"),
        ({"type": "Point", "x": 1.5}, "$.x: floats are not allowed (got 1.5)"),
        ({"type": "Path", "name": "p", "points": [{"type": "Point", "x": 0.0}]}, "$.points[0].x: floats are not allowed"),
        ({"type": "Path", "name": "p", "points": [{"type": "Hex"}]}, "$.points[0].type: unknown shape type 'Hex'"),
        ({"type": "Path", "name": 5, "points": []}, "$: shape 'Path': name must be a string, got 5"),
    ],
)
def test_build_errors_name_the_path(data, message):
    with pytest.raises(DecodeError) as caught:
        REGISTRY.build(data)
    assert str(caught.value).startswith(message), str(caught.value)


def test_build_error_path_can_be_given():
    with pytest.raises(DecodeError, match=r"^\$\.events\[3\]\.type: unknown"):
        REGISTRY.build({"type": "Nope"}, "$.events[3]")


def test_nested_objects_need_a_registry():
    with pytest.raises(DecodeError, match=r"\$\[0\]: nested objects need a registry"):
        from_data([{"type": "Point"}])


def test_registry_refuses_missing_and_clashing_tags():
    registry = Registry("shape", (Point,))
    registry.add(Point)  # the same class again is harmless
    assert registry.names() == ["Point"]
    assert "Point" in registry and "Path" not in registry

    class Untagged(Record):
        __slots__ = ()

    class Impostor(Record):
        __slots__ = ()
        TYPE = "Point"

    with pytest.raises(ValueError, match="Untagged has no TYPE tag"):
        registry.add(Untagged)
    with pytest.raises(ValueError, match="shape type 'Point' is registered twice"):
        registry.add(Impostor)


def test_a_record_class_must_declare_its_slots():
    """A subclass without __slots__ would read the base's and lose its field list: refused at once."""
    with pytest.raises(TypeError, match="record Loose must declare __slots__"):
        class Loose(Record):
            TYPE = "Loose"


def test_but_copies_with_the_named_fields_changed_and_leaves_the_original():
    point = Point(1, 2)
    moved = point.but(y=5)
    assert moved == Point(1, 5)
    assert point == Point(1, 2)
    assert point.but() == point and point.but() is not point


def test_but_refuses_a_field_the_record_does_not_have():
    with pytest.raises(TypeError, match="no field 'z'"):
        Point(1, 2).but(z=3)


# --- kinds of fields (issue 13) ----------------------------------------------------------------------


class Go(Record):
    __slots__ = ("to", "path", "fast")
    __match_args__ = __slots__
    TYPE = "Go"
    KINDS = {"to": "tuple[int, int]", "path": "tuple[tuple[int, int], ...] | None", "fast": "bool | str"}
    DEFAULTS = {"path": None}

    def __init__(self, to: tuple, path: tuple | None, fast: bool) -> None:
        object.__setattr__(self, "to", to)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "fast", fast)


GOING = Registry("command", (Go,))


def test_kinds_let_through_what_they_declare_and_build_tuples():
    assert GOING.build({"type": "Go", "to": [1, 2], "path": [[1, 1], [1, 2]], "fast": True}) == Go(
        (1, 2), ((1, 1), (1, 2)), True)
    assert GOING.build({"type": "Go", "to": [0, -3], "path": None, "fast": "very"}) == Go((0, -3), None, "very")
    assert GOING.build({"type": "Go", "to": [0, 0], "path": [], "fast": False}).path == ()
    assert GOING.build({"type": "Go", "to": [0, 0], "fast": False}).path is None  # a default is not checked


@pytest.mark.parametrize(("data", "message"), [
    ({"to": "B2"}, '$.to: expected a list of 2, got "B2"'),
    ({"to": [1]}, "$.to: expected a list of 2, got a list of 1"),
    ({"to": [1, True]}, "$.to[1]: expected an integer, got true"),
    ({"to": [1, 2.0]}, "$.to[1]: floats are not allowed (got 2.0)"),
    ({"path": [[1, 1], [2, None]]}, "$.path[1][1]: expected an integer, got null"),
    ({"path": {"x": 1}}, "$.path: expected a list or null, got an object"),
    ({"fast": 1}, "$.fast: expected true or false or a string, got 1"),
    ({"to": ["x" * 500, 1]}, '$.to[0]: expected an integer, got "' + "x" * 40 + '…"'),
    ({"to": ['say "hi"', 1]}, '$.to[0]: expected an integer, got "say \\"hi\\""'),
    ({"fast": 10 ** 40}, "$.fast: expected true or false or a string, got an integer of over 18 digits"),
])
def test_a_field_of_the_wrong_kind_names_its_path_what_was_expected_and_what_came(data, message):
    with pytest.raises(DecodeError) as raised:
        GOING.build(dict({"type": "Go", "to": [0, 0], "path": None, "fast": False}, **data))
    assert str(raised.value) == message


@pytest.mark.parametrize(("kind", "problem"), [
    ("float", "unknown kind 'float'"),
    ("list[int]", "unknown kind 'list'"),
    ("tuple[int", "expected ',' or ']'"),
    ("int |", "ends too soon"),
    ("tuple[...]", "'...' follows the one item kind"),
    ("tuple[int, int, ...]", "'...' follows the one item kind"),
    ("int str", "unexpected 'str'"),
])
def test_an_unknown_kind_is_refused_when_the_class_is_defined(kind, problem):
    with pytest.raises(TypeError, match=problem):
        type("Bad", (Record,), {"__slots__": ("x",), "TYPE": "Bad", "KINDS": {"x": kind}})


def test_kinds_must_name_every_field_once():
    with pytest.raises(TypeError, match=r"KINDS must name every field once \(x, y\)"):
        type("Bad", (Record,), {"__slots__": ("x", "y"), "TYPE": "Bad", "KINDS": {"x": "int"}})
    with pytest.raises(TypeError, match="KINDS must name every field once"):
        type("Bad", (Record,), {"__slots__": ("x",), "TYPE": "Bad", "KINDS": {"x": "int", "z": "int"}})


def test_a_kind_in_words_and_its_parse():
    from events.record import describe_kind, parse_kind

    assert parse_kind("int | None") == ("or", (("int",), ("None",)))
    assert parse_kind("tuple[str, ...]") == ("tuple", ("str",))
    assert parse_kind("tuple[int, tuple[str, ...] | None]") == ("fixed", (("int",), ("or", (("tuple", ("str",)), ("None",)))))
    assert describe_kind(parse_kind("int | str | None")) == "an integer, a string or null"
    assert parse_kind("bool") is parse_kind("bool")  # parsed once per text


def test_but_reads_fields_the_same_way_on_both_runtimes_paths(monkeypatch):
    """``but`` and ``fields`` read all fields with ``operator.attrgetter`` in CPython and one by one
    with ``object.__getattribute__`` where the runtime is Brython (issue 16): the same values."""
    import events.record as record

    assert record._reader is not None  # CPython: a class with __slots__ = () has no __dict__ here
    assert Path._read is not None

    monkeypatch.setattr(record, "_reader", None)  # as in Brython, for the classes defined now

    class Slow(Record):
        __slots__ = ("name", "points", "closed")
        TYPE = "Slow"

        def __init__(self, name: str, points: tuple, closed: bool) -> None:
            object.__setattr__(self, "name", name)
            object.__setattr__(self, "points", points)
            object.__setattr__(self, "closed", closed)

    assert Slow._read is None
    slow = Slow("p", ((1, 2),), False)
    copy = slow.but(closed=True, name="q")
    assert copy.fields() == ("q", ((1, 2),), True) and slow.fields() == ("p", ((1, 2),), False)
    assert Path("p", ()).but(points=(Point(1, 2),)).fields() == ("p", (Point(1, 2),))
    with pytest.raises(TypeError, match="Slow has no field 'width'"):
        slow.but(width=3)


def test_a_record_class_gets_its_canonical_tables_on_its_first_hash():
    """Issue 16: ``events.canonical``'s key tables are made on a class's first hash (``layout``), not
    when the class is defined (most classes a page defines are never hashed)."""
    from events.canonical import record_json

    class Plain(Record):
        __slots__ = ("zeta", "alpha")
        TYPE = "Plain"

        def __init__(self, zeta: int, alpha: int) -> None:
            object.__setattr__(self, "zeta", zeta)
            object.__setattr__(self, "alpha", alpha)

    # Check: defined, not laid out; hashed, its keys in sorted order with "type" among them.
    assert Plain._keyed is None
    plain = Plain(1, 2)
    assert record_json(plain) == '{"alpha":2,"type":"Plain","zeta":1}'
    assert Plain._keyed == (("alpha", '"alpha":'), (None, '"type":'), ("zeta", '"zeta":'))
    assert Plain._where == {"zeta": (2, '"zeta":'), "alpha": (0, '"alpha":')}
    # Check: a copy reusing its source's texts (``but``, the incremental hash) spells the changed
    # field at its place, and a class defined after it starts without tables of its own.
    assert record_json(plain.but(zeta=5)) == '{"alpha":2,"type":"Plain","zeta":5}'

    class Other(Record):
        __slots__ = ("b",)
        TYPE = "Other"

        def __init__(self, b: int) -> None:
            object.__setattr__(self, "b", b)

    assert Other._keyed is None and record_json(Other(3)) == '{"b":3,"type":"Other"}'
