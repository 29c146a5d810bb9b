"""The order the search takes positions in: how far from a win each looks (after the safe
moves), an estimate with weights.

Translation of ``rust/src/cells/order.rs``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...solving.cells import CellsMove
from .moves import auto_moves, fits, undo
from .state import CellsState
from .steps import Step, apply_step, undo_step


@dataclass(frozen=True)
class Weights:
    """What the estimate weighs."""

    #: Each card not yet up.
    out: int
    #: Each card lying above a card that is next on its foundation.
    above_next: int
    #: Each card in a column not on the card it would be built on.
    unordered: int
    #: Each empty cell (taken off).
    free_cell: int
    #: Each empty column (taken off).
    empty_column: int
    #: Each card lying above a lower card of its own suit.
    over_lower: int
    #: Each card lying above a lower card of any suit.
    over_lower_rank: int


#: The weights of the solver's dives (``pack``), in the order they take their turns, as
#: ``DIVE_WEIGHTS`` in ``order.rs``; the complete dive takes the first.
DIVE_WEIGHTS = (
    Weights(
        out=3,
        above_next=1,
        unordered=2,
        free_cell=7,
        empty_column=8,
        over_lower=0,
        over_lower_rank=1,
    ),
    Weights(
        out=1,
        above_next=1,
        unordered=2,
        free_cell=6,
        empty_column=8,
        over_lower=0,
        over_lower_rank=2,
    ),
    Weights(
        out=5,
        above_next=4,
        unordered=0,
        free_cell=1,
        empty_column=6,
        over_lower=4,
        over_lower_rank=0,
    ),
    Weights(
        out=4,
        above_next=2,
        unordered=0,
        free_cell=4,
        empty_column=6,
        over_lower=8,
        over_lower_rank=0,
    ),
    Weights(
        out=2,
        above_next=2,
        unordered=1,
        free_cell=3,
        empty_column=10,
        over_lower=6,
        over_lower_rank=0,
    ),
    Weights(
        out=2,
        above_next=0,
        unordered=0,
        free_cell=6,
        empty_column=12,
        over_lower=2,
        over_lower_rank=3,
    ),
    Weights(
        out=10,
        above_next=2,
        unordered=2,
        free_cell=3,
        empty_column=6,
        over_lower=2,
        over_lower_rank=3,
    ),
    Weights(
        out=4,
        above_next=2,
        unordered=0,
        free_cell=3,
        empty_column=6,
        over_lower=2,
        over_lower_rank=3,
    ),
)

#: The first dive's weights.
WEIGHTS = DIVE_WEIGHTS[0]


def estimate(state: CellsState, w: Weights) -> int:
    """How far from a win ``state`` looks: lower is nearer."""
    foundations = state.foundations
    up = sum(foundations.values())
    above_next = unordered = empty = over_lower = over_lower_rank = 0
    for col in state.cols:
        if not col:
            empty += 1
            continue
        # The lowest rank of each suit seen so far, bottom up, and of all.
        lowest = dict.fromkeys("CDHS", 14)
        lowest_rank = 14
        for i, card in enumerate(col):
            if lowest_rank < card.rank:
                over_lower_rank += 1
            else:
                lowest_rank = card.rank
            if lowest[card.suit] < card.rank:
                over_lower += 1
            else:
                lowest[card.suit] = card.rank
            if foundations[card.suit] + 1 == card.rank:
                above_next += len(col) - 1 - i
            if w.unordered and i > 0 and not fits(state, card, col[i - 1]):
                unordered += 1
    return (
        w.out * (52 - up)
        + w.above_next * above_next
        + w.unordered * unordered
        - w.free_cell * state.free_cells()
        - w.empty_column * empty
        + w.over_lower * over_lower
        + w.over_lower_rank * over_lower_rank
    )


def rank_steps(
    state: CellsState, steps: list[Step], w: Weights, each: Callable[[int, Step], None]
) -> Step | None:
    """Each of ``steps`` made from ``state`` (left as it was found) with its safe moves, and
    ``each`` told its estimate; the first that wins, if one does, ends it.

    The core does not make a quiet step (one that puts no card up and leaves no safe move,
    ``is_quiet``): it reckons its estimate from the parent's columns, the parts of the columns
    it touches alone changing. The values are the same, so here it is simply the estimate
    after each step and every safe move."""
    made: list[CellsMove] = []
    for child in steps:
        made.clear()
        apply_step(state, child)
        auto_moves(state, made)
        if state.is_won():
            return child
        each(estimate(state, w), child)
        while made:
            undo(state, made.pop())
        undo_step(state, child)
    return None
