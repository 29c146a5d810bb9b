"""The free-cell reference's depth-first try (castle.reference.cells.dive): stopped now and
then, it goes on where it stopped."""

from __future__ import annotations

import pytest
from castle import CellsDeal
from castle.reference.cells import replay
from castle.reference.cells.dive import Dive
from castle.reference.cells.order import WEIGHTS
from castle.reference.solver import Budget, Counter, Deadline, Stop


@pytest.mark.parametrize("number", [1, 2, 3])
def test_a_dive_goes_on_where_it_stopped(number: int) -> None:
    deal = CellsDeal.from_number("freecell", number)
    straight = Counter()
    once = Dive(deal, WEIGHTS).go(Budget(None, Deadline()), straight)
    # Won after many stops (92 to 414 positions).
    assert once.kind == "won" and straight.expanded > 70
    assert replay(deal, once.path).is_won()
    dive, stopped = Dive(deal, WEIGHTS), Counter()
    while True:
        until = stopped.expanded + 7
        end = dive.go(Budget(until, Deadline()), stopped)
        if not (end.kind == "limit" and end.stop == Stop.STATES):
            break
        assert stopped.expanded == until
    assert (end.kind, end.path, stopped.expanded) == ("won", once.path, straight.expanded)
