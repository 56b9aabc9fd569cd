"""Every Rejection the games' tests produce is checked as a message (issue 17): the English
catalogue's text of its key, with its params, is its reason, and the key is in all three catalogues
(``tests/test_reject_i18n.py``'s ``check_rejection``, run after each test on what it made); and it
names things, never their ids (``check_names``)."""

from __future__ import annotations

import pytest

from events.rules import Rejection
from tests.test_reject_i18n import check_names, check_rejection

# A record's own ``__init__`` is kept as ``_fill`` in CPython, where ``Record.__new__`` runs it
# (events/record.py): that is the step to wrap.
_init = Rejection._fill


@pytest.fixture(autouse=True)
def every_rejection_is_a_message_worded_as_its_reason(monkeypatch):
    made: list = []

    def init(self, rule, reason, key="", params=()):
        _init(self, rule, reason, key, params)
        if key:  # a refusal without a message is the AST scan's to find (a game not converted yet)
            made.append(self)

    monkeypatch.setattr(Rejection, "_fill", init)
    yield made
    for rejection in made:
        check_rejection(rejection)
        check_names(rejection)
