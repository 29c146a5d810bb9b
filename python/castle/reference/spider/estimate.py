"""How near a win a Spider position looks.

Translation of ``rust/src/spider/estimate.rs``, less what makes it fast there (a child's estimate
and 64-bit hash worked out from its parent's columns): here each position is counted whole.
"""

from __future__ import annotations

from dataclasses import dataclass

from .state import Col, SpiderState


@dataclass(frozen=True)
class Weights:
    """What the estimate charges for each thing between a position and a win."""

    down: int
    rank_break: int
    suit_break: int
    empty: int
    stock: int

    def column(self, col: Col) -> int:
        """What ``col`` adds to the estimate; each card on the table costs half a point."""
        if not col.cards:
            return -self.empty
        cost = self.down * col.down + len(col.cards) // 2
        up = col.face_up()
        for lower, upper in zip(up, up[1:]):
            if lower.rank != upper.rank + 1:
                cost += self.rank_break
            elif lower.suit != upper.suit:
                cost += self.suit_break
        return cost

    def estimate(self, state: SpiderState) -> int:
        """How far ``state`` looks from a win, as ``spider/estimate.rs`` counts it."""
        columns = sum(self.column(c) for c in state.cols)
        return columns + self.stock * len(state.stock_left())


WEIGHTS = Weights(down=6, rank_break=3, suit_break=4, empty=0, stock=3)


def estimate(state: SpiderState) -> int:
    """:data:`WEIGHTS`' estimate of ``state``."""
    return WEIGHTS.estimate(state)
