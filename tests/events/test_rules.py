"""Rejections and clause catalogues: every refusal cites a clause the catalogue knows."""

from __future__ import annotations

import pytest

from events.rules import Catalogue, Clause, Rejection


def test_rejection_reads_as_clause_and_reason():
    rejection = Rejection("GH-4", "hex (2,-1) is occupied by Bandit Guard 2")
    assert str(rejection) == "GH-4: hex (2,-1) is occupied by Bandit Guard 2"
    assert rejection == Rejection("GH-4", "hex (2,-1) is occupied by Bandit Guard 2")
    assert rejection.to_data() == {"type": "Rejection", "rule": "GH-4", "reason": "hex (2,-1) is occupied by Bandit Guard 2",
                                   "key": "", "params": []}


def test_catalogue_looks_clauses_up_by_id():
    catalogue = Catalogue((Clause("T-1", "One", "first"), Clause("T-2", "Two", "second")))
    assert "T-1" in catalogue and "T-3" not in catalogue
    assert catalogue["T-2"].title == "Two"
    assert catalogue.ids() == ["T-1", "T-2"]
    with pytest.raises(KeyError, match="no clause 'T-3' in this catalogue"):
        catalogue["T-3"]


def test_catalogue_refuses_a_clause_listed_twice():
    with pytest.raises(ValueError, match="clause T-1 is listed twice"):
        Catalogue((Clause("T-1", "One", "first"), Clause("T-1", "Again", "second")))
