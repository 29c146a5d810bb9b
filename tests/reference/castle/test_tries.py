"""The complete pass's tries (the orbit pass, then a beam): the reference follows the Rust
core expansion for expansion when a try's beam wins, and the win comes sooner than the walk's."""

from __future__ import annotations

import castle
import pytest
from castle import _core, reference
from castle.reference.castle import search
from castle.reference.solver import Budget, Counter, Deadline
from castle.solve import make_move

#: The walk alone wins it after 35,275 positions; with tries from 1,000 on, a beam wins.
LATE_WIN = ("beleaguered-castle", 405)
TRIES_AT = 1_000


@pytest.mark.slow
def test_the_reference_follows_a_tries_beam_to_its_win() -> None:
    deal = castle.Deal.from_number(*LATE_WIN)
    status, moves, states, _ = _core.complete_pass(deal.core, 200_000, None, None, None, TRIES_AT)
    alone = _core.complete_pass(deal.core, 200_000, None, None, None, 1 << 62)
    assert status == alone[0] == "solved"
    assert states * 4 < alone[2]
    counter = Counter()
    end = search.search(
        deal, "complete", Budget(200_000, Deadline()), counter, orbits_after=TRIES_AT
    )
    assert (end.kind, counter.expanded) == ("won", states)
    assert end.path == [make_move(*m) for m in moves]
    assert reference.replay(deal, end.path).is_won()
