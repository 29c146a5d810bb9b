"""The free-cell position the search and the replay move through, and its table keys.

Translation of ``rust/src/cells/state.rs``.
"""

from __future__ import annotations

from typing import Optional

from ...cards import SUITS, Card
from ...solving.cells import CellsDeal
from .variant import Rules, rules

#: A table key: the cells' card ids in order (0 for an empty cell), then each column that
#: holds cards, as its card ids, in order of its bottom card.
Key = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]
#: A key with every cell and column in its place (moves name them by place).
Placed = tuple[tuple[Optional[Card], ...], tuple[tuple[Card, ...], ...]]


def card_id(card: Card) -> int:
    """The core's card id (1..52, ``13 * suit + rank``), as the Rust key writes it."""
    return card.index + 1


class CellsState:
    """Columns (bottom card first), cells (``None``: empty) and foundations (top rank by suit
    letter, 0 = empty), with the variant's rules."""

    __slots__ = ("cells", "cols", "foundations", "rules", "variant")

    def __init__(
        self,
        variant: str,
        cols: list[list[Card]],
        cells: list[Card | None],
        foundations: dict[str, int],
    ) -> None:
        self.variant = variant
        self.rules: Rules = rules(variant)
        self.cols = cols
        self.cells = cells
        self.foundations = foundations

    @classmethod
    def from_deal(cls, deal: CellsDeal) -> CellsState:
        return cls(deal.variant, deal.columns, deal.cells, deal.foundations)

    @classmethod
    def from_placed(cls, variant: str, placed: Placed) -> CellsState:
        """The position a placed key of a position of ``variant`` stands for."""
        state = cls(variant, [], [], {})
        state.set_placed(placed)
        return state

    def copy(self) -> CellsState:
        cols = [list(col) for col in self.cols]
        return CellsState(self.variant, cols, list(self.cells), dict(self.foundations))

    def is_won(self) -> bool:
        """Every card on its foundation."""
        return all(top == 13 for top in self.foundations.values())

    def free_cells(self) -> int:
        return sum(1 for cell in self.cells if cell is None)

    def empty_columns(self) -> int:
        return sum(1 for col in self.cols if not col)

    def key(self) -> Key:
        """The key the search's table holds: positions that differ only in the order of their
        cells or of their columns share it (no rule tells cells, or columns, apart). The
        foundations are the cards not named. Columns sorted as tuples are in order of their
        bottom cards, each card being in one column only."""
        cells = tuple(sorted(0 if cell is None else card_id(cell) for cell in self.cells))
        cols = sorted(tuple(card_id(card) for card in col) for col in self.cols if col)
        return cells, tuple(cols)

    def placed_key(self) -> Placed:
        """The position with every cell and column in its place."""
        return tuple(self.cells), tuple(tuple(col) for col in self.cols)

    def set_placed(self, placed: Placed) -> None:
        """Becomes the position ``placed`` stands for (the search decodes a position at most
        steps): the foundations are each suit's lowest card out, less one."""
        cells, cols = placed
        self.cells = list(cells)
        self.cols = [list(col) for col in cols]
        foundations = dict.fromkeys(SUITS, 13)
        for col in cols:
            for card in col:
                foundations[card.suit] = min(foundations[card.suit], card.rank - 1)
        for cell in cells:
            if cell is not None:
                foundations[cell.suit] = min(foundations[cell.suit], cell.rank - 1)
        self.foundations = foundations
