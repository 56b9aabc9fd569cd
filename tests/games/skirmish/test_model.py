"""The skirmish records as declarations (STYLE habit 4): every record class is registered or a state part."""

from __future__ import annotations

from events.games.skirmish import model
from events.games.skirmish.model import COMMANDS, EVENTS, Activation, Door, Figure, Grid, State
from tests.games.tables import unregistered_records


def test_every_record_class_is_registered():
    """A record class in model.py that no registry knows could never be decoded: all but the
    state's parts (and their memoising base), which are only ever folded from events, never decoded."""
    assert unregistered_records(model, EVENTS, COMMANDS) == {State, Grid, Figure, Door, Activation}
