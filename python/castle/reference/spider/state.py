"""The Spider position and its table key.

Translation of ``rust/src/spider/state.rs``.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from ...cards import Card
from ...solving.spider import SpiderDeal

COLUMNS = 10
RUNS = 8


@dataclass
class Col:
    """One column: its cards bottom first, the first ``down`` of them face down."""

    cards: list[Card] = field(default_factory=list)
    down: int = 0

    def top(self) -> Card | None:
        return self.cards[-1] if self.cards else None

    def face_up(self) -> list[Card]:
        return self.cards[self.down :]

    def run_len(self) -> int:
        """How many top cards form a run that may move as one: face up, each one rank below
        the card under it, all of one suit."""
        up = self.face_up()
        n = 1 if up else 0
        while n < len(up):
            lower, upper = up[-n - 1], up[-n]
            if lower.suit != upper.suit or lower.rank != upper.rank + 1:
                break
            n += 1
        return n


@dataclass
class SpiderState:
    cols: list[Col]
    #: The whole stock in dealing order; ``stock[dealt:]`` is still in it.
    stock: list[Card]
    dealt: int = 0
    #: Suit letters of the runs taken off, in order.
    off: list[str] = field(default_factory=list)

    @classmethod
    def from_deal(cls, deal: SpiderDeal) -> SpiderState:
        return cls(
            [Col(c.down + c.up, len(c.down)) for c in deal.columns],
            deal.stock,
            0,
            list(deal.off),
        )

    def copy(self) -> SpiderState:
        return SpiderState(
            [Col(list(c.cards), c.down) for c in self.cols], self.stock, self.dealt, list(self.off)
        )

    def stock_left(self) -> list[Card]:
        return self.stock[self.dealt :]

    def is_won(self) -> bool:
        return len(self.off) == RUNS

    def key(self) -> Hashable:
        """Every column's cards (face-down ones, then face-up ones) and how many deals are
        done. The columns keep their places while the stock holds cards (a deal puts the k-th
        card on the k-th column); once it is empty they are sorted, as in the Rust key."""
        columns = [
            (tuple(map(card_id, c.cards[: c.down])), tuple(map(card_id, c.cards[c.down :])))
            for c in self.cols
        ]
        if not self.stock_left():
            columns.sort()
        return (tuple(columns), self.dealt // COLUMNS)


def card_id(card: Card) -> int:
    """The core's card id (1..52), as the Rust key writes it."""
    return card.index + 1
