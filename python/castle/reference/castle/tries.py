"""The complete pass's tries: as its table grows (at ``ORBITS_AFTER`` positions, then at each
fourfold growth), the walk stops to try the orbit pass (a proof sooner), then the plain walk
(``walk.py``'s ``plain_walk``) and beams (a win sooner), each within a share of what the table
holds, the plain walk until it has once had ``PLAIN_MOST`` expansions and again from a table of
``PLAIN_LATE`` on, a beam run dry followed by one twice as wide; the walk then goes on where it
stopped. When the table is full, before the layers, the last tries are beams alone
(``Tries.make_last``).

Translation of ``rust/src/castle/tries.rs``: the same shares, widths and order, so the same
expansions. The Rust beam and plain walk may also run out of memory (a try that decides
nothing); the reference has no memory bound.
"""

from __future__ import annotations

from ...solving.deal import Deal
from ...solving.solve import Move
from ..solver import Budget, Counter, End, Stop
from .beam import beam_search
from .orbits import orbit_pass
from .walk import PlainWalk

#: The table grows this many times over from one tries to the next.
GROWTH = 4
#: The orbit pass may expand a position for every this many in the table.
ORBIT_SHARE = 16
#: The plain walk may expand this many positions for every one in the table...
PLAIN_SHARE = 2
#: ... and at most this many (fc-solve's default search stops at 200,000).
PLAIN_MOST = 1 << 18
#: From a table this large on, the plain walk is made again at each tries within the table's
#: size: the walk's equal on the hardest deals.
PLAIN_LATE = 1 << 25
#: The beams may expand a position for every this many in the table.
BEAM_SHARE = 8
#: The first beam's width, at most; a beam run dry is followed by one twice as wide.
FIRST_WIDTH = 1_000
#: A beam still going after this many expansions a unit of its width wanders: one twice as
#: wide follows it, as one run dry.
WANDERS = 256
#: The first beam is at most the second tries' share over this wide (the first may cut it off;
#: it is tried again there).
DEPTHS = 64


class Tries:
    """When the complete pass's tries are due (``at`` positions in its table), the width its
    next beam tries, and whether the plain walk may be made again (it has not run dry) and has
    had its most before ``PLAIN_LATE``."""

    def __init__(self, at: int) -> None:
        self.at = at
        self.width = max(1, min(at * GROWTH // BEAM_SHARE // DEPTHS, FIRST_WIDTH))
        self.plain = True
        self.plain_had_most = False
        self.made = False

    def plain_share(self, positions: int) -> int | None:
        """The plain walk's share at tries with ``positions`` in the table, if it is to be
        made: twice the table, up to ``PLAIN_MOST`` once; from ``PLAIN_LATE`` on, the table."""
        if not self.plain:
            return None
        if positions >= PLAIN_LATE:
            return positions
        if not self.plain_had_most:
            return min(positions * PLAIN_SHARE, PLAIN_MOST)
        return None

    def due(self, positions: int) -> bool:
        """Whether the tries are due, the table holding ``positions`` (the next then at
        ``GROWTH`` times as many)."""
        if positions < self.at:
            return False
        self.at *= GROWTH
        self.made = True
        return True

    def make(
        self, positions: int, deal: Deal, budget: Budget, counter: Counter, plain_walk: PlainWalk
    ) -> End[Move] | None:
        """Make the tries due with ``positions`` in the table: the end of the pass if one
        decided the deal or a limit of the whole solve stopped it, else None, and the walk
        goes on."""
        tried = orbit_pass(deal, budget, positions // ORBIT_SHARE, counter)
        if tried.kind == "exhausted":
            return End("exhausted", [])
        if tried.kind == "limit":
            return End("limit", [], tried.stop)

        most = self.plain_share(positions)
        if most is not None:
            end = plain_walk(deal, share(budget, most, counter), counter)
            if end.kind == "won":
                return end
            if end.kind == "exhausted":
                self.plain = False
            elif end.stop == Stop.STATES and by_share(budget, counter):
                self.plain_had_most |= most >= PLAIN_MOST
            else:
                return end
        return self.beams(deal, positions // BEAM_SHARE, budget, counter)

    def make_last(
        self, positions: int, deal: Deal, budget: Budget, counter: Counter
    ) -> End[Move] | None:
        """The last tries, when the table is full at ``positions``, before the layers: beams
        alone, within the share the next tries would have had (``GROWTH`` times this
        table's); only after tries were made."""
        if not self.made:
            return None
        return self.beams(deal, positions * GROWTH // BEAM_SHARE, budget, counter)

    def beams(self, deal: Deal, most: int, budget: Budget, counter: Counter) -> End[Move] | None:
        """Beams, each run dry (or wandering past ``WANDERS`` expansions a unit of its width)
        followed by one twice as wide, until one wins or ``most`` expansions are spent."""
        beams = share(budget, most, counter)
        while True:
            beam = share(beams, self.width * WANDERS, counter)
            end = beam_search(deal, self.width, float("inf"), beam, counter)
            if end.kind == "won":
                return end
            if end.kind == "exhausted" or (end.stop == Stop.STATES and by_share(beams, counter)):
                self.width *= 2
                continue
            if end.stop == Stop.STATES and by_share(budget, counter):
                return None
            return end


def share(budget: Budget, most: int, counter: Counter) -> Budget:
    """A share of ``most`` of the whole solve's expansions from here, cut off at the solve's
    limit."""
    until = counter.expanded + most
    return Budget(
        until if budget.max_states is None else min(budget.max_states, until),
        budget.deadline,
    )


def by_share(budget: Budget, counter: Counter) -> bool:
    """Whether a try was cut off by its share, not by the solve's limit."""
    return budget.max_states is None or counter.expanded < budget.max_states
