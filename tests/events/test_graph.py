"""Paths on a graph of places: reach within N steps, what a move may enter and leave, and ties."""

from __future__ import annotations

from events.geometry.graph import graph_from_links, graph_within

#  1 - 2 - 3 - 4
#  |       |
#  5 - 6 - 7
LINKS = ((1, 2), (2, 3), (3, 4), (1, 5), (5, 6), (6, 7), (7, 3))
TABLE = graph_from_links((1, 2, 3, 4, 5, 6, 7, 8), LINKS)


def test_graph_from_links_is_undirected_sorted_and_deduplicated():
    table = graph_from_links((1, 2, 3), ((2, 1), (1, 2), (3, 1)))
    assert table == {1: (2, 3), 2: (1,), 3: (1,)}
    assert TABLE[8] == ()
    assert TABLE[3] == (2, 4, 7)


def test_graph_within_gives_every_place_in_one_to_n_steps_with_its_path():
    assert graph_within(TABLE, 1, 1) == {2: (2,), 5: (5,)}
    assert graph_within(TABLE, 1, 2) == {2: (2,), 5: (5,), 3: (2, 3), 6: (5, 6)}
    reach = graph_within(TABLE, 1, 3)
    assert reach[4] == (2, 3, 4) and reach[7] == (2, 3, 7)
    assert 1 not in reach
    assert graph_within(TABLE, 1, 0) == {}


def test_graph_within_breaks_ties_by_sorted_neighbours():
    """7 is 3 steps from 1 both ways (via 2,3 and via 5,6): the lower-numbered route wins."""
    assert graph_within(TABLE, 1, 3)[7] == (2, 3, 7)
    diamond = graph_from_links(("a", "b", "c", "d"), (("a", "c"), ("a", "b"), ("c", "d"), ("b", "d")))
    assert graph_within(diamond, "a", 2)["d"] == ("b", "d")


def test_may_continue_stops_a_move_in_a_place():
    """A place that ends a move (a face-down Location) can be entered but not passed through."""
    reach = graph_within(TABLE, 1, 3, may_continue=lambda place: place != 2)
    assert reach == {2: (2,), 5: (5,), 6: (5, 6), 7: (5, 6, 7)}
    assert graph_within(TABLE, 1, 4, may_continue=lambda place: place != 2)[3] == (5, 6, 7, 3)


def test_the_start_is_always_left():
    assert graph_within(TABLE, 2, 1, may_continue=lambda place: False) == {1: (1,), 3: (3,)}


def test_may_enter_keeps_a_move_out_of_a_place():
    reach = graph_within(TABLE, 1, 4, may_enter=lambda place: place != 2)
    assert reach == {5: (5,), 6: (5, 6), 7: (5, 6, 7), 3: (5, 6, 7, 3)}


def test_first_steps_replace_the_starts_neighbours():
    """A start that is no node (the Camp) leads only to the given first steps."""
    reach = graph_within(TABLE, None, 2, first_steps=(4, 6))
    assert reach == {4: (4,), 6: (6,), 3: (4, 3), 5: (6, 5), 7: (6, 7)}


def test_shortest_paths_of_the_whole_graph():
    """With a step bound of the graph's size every place reachable at all is found, by its shortest path."""
    everything = len(TABLE) + 1
    reach = graph_within(TABLE, 1, everything)
    assert reach[4] == (2, 3, 4) and 8 not in reach
    assert {place: len(path) for place, path in reach.items()} == {2: 1, 5: 1, 3: 2, 6: 2, 4: 3, 7: 3}
    assert graph_within(TABLE, 1, everything, may_continue=lambda place: place != 2)[4] == (5, 6, 7, 3, 4)
    assert graph_within(TABLE, None, everything, first_steps=(7,))[1] == (7, 3, 2, 1)

def test_graph_within_is_bounded_by_the_graph_not_by_max_steps():
    """Issue 12 finding 2: a search loops at most once per place, whatever ``max_steps`` says."""
    import threading

    result: dict = {}
    worker = threading.Thread(target=lambda: result.update(graph_within(TABLE, 1, 10**18)), daemon=True)
    worker.start()
    worker.join(10)  # a hang detector, not a timing: the unbounded loop would run for ever
    assert not worker.is_alive()
    assert result == graph_within(TABLE, 1, len(TABLE))
    assert graph_within(TABLE, 1, 10**18, first_steps=(4,)) == graph_within(TABLE, 1, len(TABLE) + 1, first_steps=(4,))
