"""The position the search moves through, and its transposition-table key.

Translation of ``rust/src/castle/state.rs``.
"""

from __future__ import annotations

from ...cards import Card
from ...solving.deal import Deal

#: Key entry of a card that is on a foundation.
NOT_IN_TABLEAU = 63
#: Key entry of a card at the bottom of a column.
BOTTOM = 0


class State:
    """Columns (bottom card first), foundations (top rank by suit letter), and the key.

    The key records, for every card, what lies under it: ``BOTTOM``, the id (1..52) of the card
    under it, or ``NOT_IN_TABLEAU``. It ignores the order of the columns yet is exact: the
    bottom cards start the columns and each card has at most one card on it, so the columns can
    be read back from it. ``push`` and ``pop`` keep it up to date.
    """

    __slots__ = ("below", "columns", "foundations", "in_tableau")

    def __init__(self, columns: list[list[Card]], foundations: dict[str, int]) -> None:
        self.columns: list[list[Card]] = [[] for _ in columns]
        self.foundations = dict(foundations)
        self.in_tableau = 0
        self.below = [NOT_IN_TABLEAU] * 52
        for col, cards in enumerate(columns):
            for card in cards:
                self.push(col, card)

    @classmethod
    def from_deal(cls, deal: Deal) -> State:
        return cls(deal.columns, deal.foundations)

    def copy(self) -> State:
        other = State.__new__(State)
        other.columns = [list(column) for column in self.columns]
        other.foundations = dict(self.foundations)
        other.in_tableau = self.in_tableau
        other.below = list(self.below)
        return other

    def top(self, col: int) -> Card | None:
        """The card that can move from ``col``, if the column is not empty."""
        column = self.columns[col]
        return column[-1] if column else None

    def is_won(self) -> bool:
        return self.in_tableau == 0

    def push(self, col: int, card: Card) -> None:
        under = self.top(col)
        self.below[card.index] = BOTTOM if under is None else under.index + 1
        self.columns[col].append(card)
        self.in_tableau += 1

    def pop(self, col: int) -> Card:
        card = self.columns[col].pop()
        self.below[card.index] = NOT_IN_TABLEAU
        self.in_tableau -= 1
        return card

    def rank_key(self) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """A coarser key that also forgets suits: the columns' rank sequences, sorted, and the
        foundations' ranks, sorted. Positions that differ only by suits share it (the quick pass
        of the search uses it; it is not exact)."""
        columns = sorted(tuple(card.rank for card in column) for column in self.columns)
        return tuple(columns), tuple(sorted(self.foundations.values()))

    def key(self) -> bytes:
        """The position's key, the same for the same columns in any order."""
        return bytes(self.below)
