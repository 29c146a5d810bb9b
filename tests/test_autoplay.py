"""Deals played to the end by hints alone (castle.autoplay)."""

from __future__ import annotations

import pytest
from castle import Deal
from castle.autoplay import autoplay_castle
from verdicts import known


@pytest.mark.slow
def test_autoplay_wins_what_the_solver_wins() -> None:
    for number, verdict in known("streets-and-alleys", range(9, 13)).items():
        result = autoplay_castle(Deal.from_number("streets-and-alleys", number))
        assert result.won == (verdict == "winnable"), number
        assert result.status == ("solved" if verdict == "winnable" else "unsolvable")
