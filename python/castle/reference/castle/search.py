"""The search, in three passes; the first two look for a win only, and the orbit pass goes
between them when the first runs dry.

The quick pass gives up completeness for speed: its table treats positions that differ only in
suits as one, so it never looks at a second position of the same shape. A win it finds is a
real win (its moves are legal moves from the deal); running out of moves there proves nothing.
It may expand ``QUICK_STATES`` positions; if it runs dry, the orbit pass (``orbits.py``)
``ORBITS_PER_QUICK`` orbits for each of them (its "no" is a proof and ends the solve); the beam
pass (``beam.py``) ``BEAM_STATES`` more. The complete pass then searches with exact keys
(``compact.py``'s, kept frame by frame), going on in layers (``layers.py``) once its table is
full: every position reachable from the deal is expanded at most once, so running out of moves
proves there is no win. Each pass ends at a fixed count of the solve's expansions or at
``max_states``, whichever comes first: a solve under ``max_states`` is the unlimited solve cut
short.

Translation of ``rust/src/castle/search.rs``; the walk is ``walk.py``, the layers' hand-off
``hand_off.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ...solving.deal import Deal
from ...solving.outcome import check_limits
from ...solving.solve import Move, Solution
from ..solver import Budget, Counter, Deadline, End, Start, Stop, finish
from .beam import beam_pass, shortest_beam
from .compact import Compact
from .hand_off import hand_off, rebuild
from .layers import Layered, layered
from .moves import replay
from .orbits import ORBITS_AFTER, orbit_pass
from .shorten import shorten
from .tries import Tries
from .walk import Stopped, walk

Pass = Literal["quick", "complete"]

#: Expansions the quick pass may use (fewer if ``max_states`` ends the solve first).
QUICK_STATES = 1_000_000
#: Expansions the beam pass may use after the quick pass (the same proviso).
BEAM_STATES = QUICK_STATES // 10
#: When the quick pass runs dry, the orbit pass may expand this many orbits for each position
#: the quick pass expanded (both search nearly the same suit-blind space).
ORBITS_PER_QUICK = 4


def solve(
    deal: Deal,
    *,
    max_states: int | None = None,
    max_seconds: float | None = None,
    max_cpu_seconds: float | None = None,
    short: bool = False,
    layers_after: int | None = None,
    orbits_after: int = ORBITS_AFTER,
) -> Solution:
    """Decide ``deal`` exactly as :func:`castle.solve` does: the quick pass, the orbit pass if
    it ran dry, the beam pass, then (unless one decided the deal) the complete pass; with
    ``short``, then beam searches for a shorter win while the limits allow. No memory bound:
    the tables here are plain sets, and the complete pass goes on in layers only once its table
    holds ``layers_after`` positions (as ``castle._core.solve``'s does then, or at its memory
    bound), and first tries the orbit pass at ``orbits_after``."""
    check_limits(max_states, max_seconds, max_cpu_seconds=max_cpu_seconds)
    start = Start.now()

    def deadline(fraction: float) -> Deadline:
        return Deadline.after(max_seconds, max_cpu_seconds, start, fraction)

    def until(states: int) -> int:
        # A pass ends when the solve has expanded ``states``, or at the caller's state limit.
        return states if max_states is None else min(states, max_states)

    counter = Counter()
    end = search(deal, "quick", Budget(until(QUICK_STATES), deadline(0.1)), counter)
    # A quick pass run dry hints that the deal is lost: the orbit pass then proves nearly every
    # such deal within its share, before the passes that can only find a win. Its time runs to
    # half the limit, so that a proof of a few seconds is not cut off on a loaded host.
    proved = False
    if end.kind == "exhausted":
        share = counter.expanded * ORBITS_PER_QUICK
        tried = orbit_pass(deal, Budget(max_states, deadline(0.5)), share, counter)
        proved = tried.kind == "exhausted"
        end = End("limit", [], tried.stop) if tried.kind == "limit" else End("exhausted", [])

    def goes_on(end: End[Move]) -> bool:
        return not (proved or end.kind == "won" or end.stop == Stop.INTERRUPTED)

    # The beam pass (its time up to 55% of the limit, past the orbit pass's). Enough for the
    # deals it wins; on the deals it cannot win, small beside the proof (a quarter of the quick
    # pass's states doubled the 99th percentile of Beleaguered Castle 1-2000).
    if goes_on(end):
        budget = Budget(until(counter.expanded + BEAM_STATES), deadline(0.55))
        end = beam_pass(deal, budget, counter)
    # The whole budget: the complete pass's, and the short mode's after it.
    budget = Budget(max_states, deadline(1.0))
    if goes_on(end):
        end = search(deal, "complete", budget, counter, layers_after, orbits_after)
    if end.kind == "won":
        moves = shorten(deal, end.path)
        if short:
            moves = shortest_beam(deal, moves, budget, counter)
        end = End("won", moves)

    def wins(moves: Sequence[Move]) -> bool:
        return replay(deal, moves).is_won()

    return finish(end, counter, start.wall, Solution, wins)


def search(
    deal: Deal,
    pass_: Pass,
    budget: Budget,
    counter: Counter,
    layers_after: int | None = None,
    orbits_after: int = ORBITS_AFTER,
) -> End[Move]:
    """One depth-first pass. Every new position reached is entered in the table and expanded
    once; ``counter`` counts expansions over all passes.

    The complete pass makes its tries (``tries.py``: the orbit pass, whose "no" ends the
    pass, then a beam, whose win does) when its table holds ``orbits_after`` positions, and
    again at each fourfold growth.
    It goes on in layers (``layers.py``) when its table is full (here: at
    ``layers_after`` positions), from where the walk stopped (:func:`hand_off`; the Rust
    pass does so when it has room for the table's positions, on disk or in a quarter of its
    bound, as in every test that compares the two), after the last tries' beams
    (``Tries.make_last``). A win found there is a position next to a win; the line to it is
    :func:`rebuild`'s."""
    if pass_ == "quick":
        return walk(deal, None, budget, counter)
    stopped: list[Stopped] = []
    tries = Tries(orbits_after)
    end = walk(
        deal,
        Compact(deal),
        budget,
        counter,
        most=layers_after,
        stopped=stopped,
        tries=tries,
    )
    if end.stop != Stop.MEMORY:
        return end
    seeded = hand_off(deal, stopped[0])
    if isinstance(seeded, Layered):
        found = seeded
    else:
        last = tries.make_last(len(stopped[0].table), deal, budget, counter)
        if last is not None:
            return last
        found = layered(deal, budget, counter, *seeded)
    if found.kind == "won":
        return rebuild(deal, found.key, budget, counter)
    return End(found.kind, [], found.stop)
