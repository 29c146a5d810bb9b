"""The free-cell solver: depth-first searches (``dive``) over steps (a single card, a run moved
as a unit, or a card dug out from under others), each followed by the safe moves to the
foundations, over tables of positions keyed up to the order of the cells and of the columns,
each a turn at a time (``pack``). Eight dig dives find most wins; one complete dive takes every
single-card move: when it has run out, every position reachable from the deal (as the safe
moves leave it) has been expanded once, and there is no win.

Translation of ``rust/src/cells/search.rs``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...solving.cells import CellsDeal, CellsMove, CellsSolution
from ...solving.outcome import check_limits
from ..solver import Budget, Counter, Deadline, End, Start, finish
from .moves import replays_to_win
from .order import DIVE_WEIGHTS
from .pack import pack
from .shorten import shorten


def solve(
    deal: CellsDeal,
    *,
    max_states: int | None = None,
    max_seconds: float | None = None,
    max_cpu_seconds: float | None = None,
    short: bool = False,
) -> CellsSolution:
    """Decide ``deal`` exactly as :func:`castle.solve` does for the free-cell games: the dig
    dives of :data:`~.order.DIVE_WEIGHTS` and the complete dive, taking turns; with ``short``,
    the win made shorter. The same status, states and moves as the core."""
    check_limits(max_states, max_seconds, max_cpu_seconds=max_cpu_seconds)
    start = Start.now()
    counter = Counter()
    deadline = Deadline.after(max_seconds, max_cpu_seconds, start, 1.0)
    end = pack(deal, DIVE_WEIGHTS, Budget(max_states, deadline), counter)
    if end.kind == "won" and short:
        end = End("won", shorten(deal, end.path))

    def wins(moves: Sequence[CellsMove]) -> bool:
        return replays_to_win(deal, moves)

    return finish(end, counter, start.wall, CellsSolution.of_moves, wins)
