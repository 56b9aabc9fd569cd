"""server/gcpolicy.py: the survivors of a full collection frozen, a whole collection at each doubling (issue 16)."""

from __future__ import annotations

import gc
import weakref

import pytest

from server import gcpolicy

FULL = {"generation": 2, "collected": 0, "uncollectable": 0}


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref:
    """A garbage-to-be cycle of two objects, held by nothing but itself once returned; a weak reference to it."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture
def unfrozen():
    gc.collect()
    gc.unfreeze()
    yield
    gc.unfreeze()
    gc.collect()


def test_issue16_survivors_are_frozen_and_old_cycles_wait_for_the_whole_collection(unfrozen):
    policy = gcpolicy.FreezeSurvivors()
    keep = [Node() for _ in range(1000)]  # the live heap the first whole collection leaves
    policy("stop", FULL)  # after the first full collection, which saw everything
    assert gc.get_freeze_count() > 0 and not policy.whole
    base = policy.base
    old = cycle()  # frozen with the next survivors: a cycle that becomes garbage only later
    held = [Node() for _ in range(10)]
    held.append(old())
    policy("stop", FULL)
    assert gc.get_freeze_count() >= base and not policy.whole
    held.clear()
    gc.collect()  # a full collection that does not visit the frozen part
    assert old() is not None
    young = cycle()
    gc.collect()
    assert young() is None  # a cycle younger than the last freeze is collected as before
    grown = [Node() for _ in range(2 * base)]  # the frozen part doubles: the next collection is whole
    policy("stop", FULL)
    assert policy.whole and gc.get_freeze_count() == 0
    gc.collect()
    assert old() is None  # the old cycle reclaimed by the whole collection
    policy("stop", FULL)
    assert not policy.whole and policy.base >= len(keep) + len(grown)


def test_issue16_a_whole_collection_at_least_every_whole_every(unfrozen):
    policy = gcpolicy.FreezeSurvivors()
    policy("stop", FULL)
    wholes = 0
    for _ in range(3 * gcpolicy.WHOLE_EVERY):
        policy("stop", FULL)
        wholes += policy.whole
    assert wholes >= 3


def test_issue16_young_collections_and_other_phases_change_nothing(unfrozen):
    policy = gcpolicy.FreezeSurvivors()
    for generation in (0, 1):
        policy("stop", dict(FULL, generation=generation))
    policy("start", FULL)
    assert gc.get_freeze_count() == 0 and policy.frozen == 0


def test_issue16_gc_freeze_variable_switches_it_off_and_refuses_nonsense():
    assert gcpolicy.install({"CHRONICLE_GC_FREEZE": "0"}) is None
    assert gcpolicy.enabled_from_env({}) is True
    assert gcpolicy.enabled_from_env({"CHRONICLE_GC_FREEZE": "off"}) is False
    with pytest.raises(ValueError, match="CHRONICLE_GC_FREEZE: expected 1 or 0, got 'sometimes'"):
        gcpolicy.enabled_from_env({"CHRONICLE_GC_FREEZE": "sometimes"})


def test_issue16_install_is_once_and_uninstall_restores(unfrozen):
    try:
        first = gcpolicy.install({})
        assert first is not None and gcpolicy.install({}) is first
        assert gc.callbacks.count(first) == 1
    finally:
        gcpolicy.uninstall()
    assert first not in gc.callbacks and gc.get_freeze_count() == 0


def test_issue16_chronicle_serve_refuses_a_bad_gc_freeze_value(tmp_path):
    import subprocess
    import sys

    from tests.server_fixture import ROOT

    done = subprocess.run([sys.executable, "-m", "server.cli.main", "serve", "--port", "0", "--db",
                           str(tmp_path / "x.db")], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "CHRONICLE_GC_FREEZE": "maybe"})
    assert done.returncode == 4 and "CHRONICLE_GC_FREEZE: expected 1 or 0, got 'maybe'" in done.stderr


def test_issue16_bench_load_times_each_of_its_collections(unfrozen):
    from bench.load import collector_pauses

    pauses: list = []
    timer = collector_pauses(pauses)
    gc.callbacks.append(timer)
    try:
        gc.collect()
        gc.collect(0)
    finally:
        gc.callbacks.remove(timer)
    assert len(pauses) == 2 and all(0 <= pause < 60 for pause in pauses)
