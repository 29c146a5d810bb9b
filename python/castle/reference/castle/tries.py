"""The complete pass's tries: as its table grows (at ``ORBITS_AFTER`` positions, then at each
fourfold growth), the walk stops to try the orbit pass (a proof sooner), then a beam (a win
sooner), each within a share of what the table holds, the beams wider from try to try; the
walk then goes on where it stopped.

Translation of ``rust/src/castle/tries.rs``: the same shares, widths and order, so the same
expansions. The Rust beam may also run out of memory (a try that decides nothing); the
reference has no memory bound.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...deal import Deal
from ...solve import Move
from ..solver import Budget, Counter, End, Stop
from .beam import beam_search
from .orbits import orbit_pass

#: The orbit pass may expand a position for every this many in the table.
ORBIT_SHARE = 4
#: The beam may expand a position for every this many in the table.
BEAM_SHARE = 8
#: The first try's beam width, and how many times wider each next try's is.
FIRST_WIDTH = 1_000
WIDER = 10
#: A beam's width is at most its share over this, so that it can end within it.
DEPTHS = 40


@dataclass(frozen=True)
class Due:
    """The tries due now: the table holds ``positions``, and ``before`` tries were made
    before."""

    positions: int
    before: int

    def beam_share(self) -> int:
        """The expansions this try's beam may make."""
        return self.positions // BEAM_SHARE

    def width(self) -> int:
        """This try's beam width: the next of the widths, as far as its share allows."""
        widest: int = FIRST_WIDTH * WIDER**self.before
        return max(1, min(widest, self.beam_share() // DEPTHS))


def make(deal: Deal, budget: Budget, due: Due, counter: Counter) -> End[Move] | None:
    """Make the tries ``due``: the end of the pass if one decided the deal or a limit of the
    whole solve stopped it, else None, and the walk goes on."""
    tried = orbit_pass(deal, budget, due.positions // ORBIT_SHARE, counter)
    if tried.kind == "exhausted":
        return End("exhausted", [])
    if tried.kind == "limit":
        return End("limit", [], tried.stop)
    until = counter.expanded + due.beam_share()
    most = until if budget.max_states is None else min(budget.max_states, until)
    end = beam_search(deal, due.width(), float("inf"), Budget(most, budget.deadline), counter)
    if end.kind == "won":
        return end
    if end.kind == "exhausted":
        return None
    if end.stop == Stop.STATES and (
        budget.max_states is None or counter.expanded < budget.max_states
    ):
        return None
    return end
