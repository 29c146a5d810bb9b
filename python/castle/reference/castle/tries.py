"""The complete pass's tries: as its table grows (at ``ORBITS_AFTER`` positions, then at each
fourfold growth), the walk stops to try the orbit pass (a proof sooner), then beams (a win
sooner), each within a share of what the table holds, a beam run dry followed by one twice as
wide; the walk then goes on where it stopped.

Translation of ``rust/src/castle/tries.rs``: the same shares, widths and order, so the same
expansions. The Rust beam may also run out of memory (a try that decides nothing); the
reference has no memory bound.
"""

from __future__ import annotations

from ...deal import Deal
from ...solve import Move
from ..solver import Budget, Counter, End, Stop
from .beam import beam_search
from .orbits import orbit_pass

#: The table grows this many times over from one tries to the next.
GROWTH = 4
#: The orbit pass may expand a position for every this many in the table.
ORBIT_SHARE = 4
#: The beams may expand a position for every this many in the table.
BEAM_SHARE = 8
#: The first beam's width, at most; a beam run dry is followed by one twice as wide.
FIRST_WIDTH = 1_000
#: The first beam is at most the second tries' share over this wide (the first may cut it off;
#: it is tried again there).
DEPTHS = 64


class Tries:
    """When the complete pass's tries are due (``at`` positions in its table), and the width
    its next beam tries."""

    def __init__(self, at: int) -> None:
        self.at = at
        self.width = max(1, min(at * GROWTH // BEAM_SHARE // DEPTHS, FIRST_WIDTH))

    def due(self, positions: int) -> bool:
        """Whether the tries are due, the table holding ``positions`` (the next then at
        ``GROWTH`` times as many)."""
        if positions < self.at:
            return False
        self.at *= GROWTH
        return True

    def make(
        self, positions: int, deal: Deal, budget: Budget, counter: Counter
    ) -> End[Move] | None:
        """Make the tries due with ``positions`` in the table: the end of the pass if one
        decided the deal or a limit of the whole solve stopped it, else None, and the walk
        goes on."""
        tried = orbit_pass(deal, budget, positions // ORBIT_SHARE, counter)
        if tried.kind == "exhausted":
            return End("exhausted", [])
        if tried.kind == "limit":
            return End("limit", [], tried.stop)
        until = counter.expanded + positions // BEAM_SHARE
        most = until if budget.max_states is None else min(budget.max_states, until)
        share = Budget(most, budget.deadline)
        while True:
            end = beam_search(deal, self.width, float("inf"), share, counter)
            if end.kind == "won":
                return end
            if end.kind == "exhausted":
                self.width *= 2
                continue
            if end.stop == Stop.STATES and (
                budget.max_states is None or counter.expanded < budget.max_states
            ):
                return None
            return end
