"""The complete pass's tries (the orbit pass, the plain walk, then beams): the reference follows
the Rust core expansion for expansion when a try's plain walk wins, and the win comes sooner
than the walk's."""

from __future__ import annotations

import castle
import pytest
from castle import _core, reference
from castle.reference.castle import search
from castle.reference.solver import Budget, Counter, Deadline
from castle.solve import make_move

#: The walk alone wins it after 4.9 million positions; with tries from 1,000 on, the plain walk
#: wins at the second tries (2,440 expansions in all).
LATE_WIN = ("beleaguered-castle", 2823)
TRIES_AT = 1_000


@pytest.mark.slow
def test_the_reference_follows_a_tries_plain_walk_to_its_win() -> None:
    deal = castle.Deal.from_number(*LATE_WIN)
    status, moves, states, _ = _core.complete_pass(deal.core, 200_000, None, None, None, TRIES_AT)
    alone = _core.complete_pass(deal.core, 100_000, None, None, None, 1 << 62)
    assert (status, alone[0]) == ("solved", "unknown")
    assert states < 5_000
    counter = Counter()
    end = search.search(
        deal, "complete", Budget(200_000, Deadline()), counter, orbits_after=TRIES_AT
    )
    assert (end.kind, counter.expanded) == ("won", states)
    assert end.path == [make_move(*m) for m in moves]
    assert reference.replay(deal, end.path).is_won()
