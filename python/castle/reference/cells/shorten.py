"""Making a found win shorter after the search: the line wanders (a card to a cell and back
later), and the walk through its positions (:func:`castle.reference.solver.walk`) cuts every
detour.

Translation of ``rust/src/cells/shorten.rs``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ...solving.cells import CellsDeal, CellsMove
from ..solver import walk
from .moves import all_legal, apply, undo
from .state import CellsState, Placed


def shorten(deal: CellsDeal, moves: Sequence[CellsMove]) -> list[CellsMove]:
    """The shortest line through the positions of a winning line, where any legal single-card
    move from one of them to another counts (in ``all_legal`` order, as in Rust, so the line
    is the same)."""
    state = CellsState.from_deal(deal)
    line = [state.placed_key()]
    for m in moves:
        apply(state, m)
        line.append(state.placed_key())

    def moves_from(i: int) -> Iterator[tuple[CellsMove, Placed]]:
        here = CellsState.from_placed(deal.variant, line[i])
        legal: list[CellsMove] = []
        all_legal(here, legal)
        for m in legal:
            apply(here, m)
            yield m, here.placed_key()
            undo(here, m)

    return walk(line, moves_from)
