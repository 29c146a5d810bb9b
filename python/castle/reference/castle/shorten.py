"""Making a found win shorter after the search: a depth-first win wanders. The shortest line
through the positions of the win is the breadth-first walk both games share
(:func:`castle.reference.solver.walk`); what is castle's is the key and the moves.

Translation of ``rust/src/castle/shorten.rs``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ...cards import Card
from ...solving.deal import Deal
from ...solving.solve import Move
from ..solver import walk
from .moves import all_legal, apply, undo
from .state import State

#: A position with its columns in place (moves name columns by place).
Placed = tuple[tuple[tuple[Card, ...], ...], tuple[tuple[str, int], ...]]


def placed(state: State) -> Placed:
    return tuple(map(tuple, state.columns)), tuple(sorted(state.foundations.items()))


def shorten(deal: Deal, moves: Sequence[Move]) -> list[Move]:
    """The shortest line through the positions of a winning line, where any legal move from
    one of them to another counts (in ``all_legal`` order, as in Rust, so the result is the
    same). Loops and detours drop out; every move stays legal where it is played, and the line
    still wins."""
    state = State.from_deal(deal)
    positions = [placed(state)]
    for move in moves:
        apply(state, move)
        positions.append(placed(state))

    def moves_from(i: int) -> Iterator[tuple[Move, Placed]]:
        columns, foundations = positions[i]
        state = State([list(c) for c in columns], dict(foundations))
        legal: list[Move] = []
        all_legal(state, legal)
        for move in legal:
            apply(state, move)
            yield move, placed(state)
            undo(state, move)

    return walk(positions, moves_from)
