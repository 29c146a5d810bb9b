"""Move ordering: which move the search tries first. It decides how fast a win is found, never
whether one is.

Translation of ``rust/src/castle/order.rs`` (its ``plain_moves`` makes the moves in the plain
order as ``generate`` then ``plain_order`` sort them here).
"""

from __future__ import annotations

from typing import Literal

from ...cards import Card
from ...solving.solve import FOUNDATION, Move
from .moves import fits_foundation, fits_on
from .state import State


def need(state: State, card: Card) -> int:
    """How many ranks ``card`` is from going up: 1 = it fits its foundation now."""
    return card.rank - state.foundations[card.suit]


def most_needed(state: State, cards: list[Card]) -> tuple[int, int]:
    """The most needed card among ``cards`` (bottom first): its need and how many cards lie on
    it. Ties go to the higher card."""
    best = (99, 0)
    for i, card in enumerate(cards):
        n = need(state, card)
        if n <= best[0]:
            best = (n, len(cards) - 1 - i)
    return best


class ColumnFacts:
    """What the ordering reads of each column, computed once per position."""

    __slots__ = ("lowest_need", "under_top")

    def __init__(self, state: State) -> None:
        # The most needed card under the top card; (0, 0) for a column a move empties.
        self.under_top = [(0, 0)] * len(state.columns)
        # The need of the most needed card in the whole column (14 for an empty column).
        self.lowest_need = [14] * len(state.columns)
        for col, cards in enumerate(state.columns):
            if not cards:
                continue
            # One pass over the cards under the top; the whole column adds only the top.
            lowest = need(state, cards[-1])
            if len(cards) > 1:
                self.under_top[col] = most_needed(state, cards[:-1])
                lowest = min(lowest, self.under_top[col][0])
            self.lowest_need[col] = lowest


def priority(state: State, facts: ColumnFacts, move: Move) -> int:
    """Lower is tried first; ties keep generation order.

    Classes, best first: 0 a foundation move; 1 a move that empties its column or uncovers a
    card that can go up at once; 2 a move onto a card; 3 a move into an empty column; 4 a card
    leaving a card one rank higher for another such card. Within a class: from the column whose
    most needed card is most needed and nearest the top; onto the column that buries the least
    needed cards; onto a card of the same suit.
    """
    if move.dst == FOUNDATION:
        return 0
    column = state.columns[move.src]
    below = column[-2] if len(column) >= 2 else None
    target = state.top(move.dst)
    if below is None or fits_foundation(state, below):
        klass = 1
    elif target is not None and fits_on(move.card, below):
        klass = 4
    elif target is not None:
        klass = 2
    else:
        klass = 3
    source_need, source_depth = facts.under_top[move.src]
    buried = 14 - facts.lowest_need[move.dst]
    other_suit = 0 if target is not None and target.suit == move.card.suit else 1
    return klass * 4096 + (source_need * 8 + source_depth) * 16 + buried + other_suit


#: The order a walk tries a position's moves in: ``order_moves``'s or ``plain_order``'s.
Order = Literal["castle", "plain"]


def order_moves(state: State, moves: list[Move], start: int) -> None:
    """Sort ``moves[start:]`` into search order (a stable sort, like the Rust one)."""
    facts = ColumnFacts(state)
    moves[start:] = sorted(moves[start:], key=lambda m: priority(state, facts, m))


def bottom(state: State, col: int) -> tuple[int, int]:
    """Where column ``col`` comes in the plain order: by its bottom card's rank, then its suit
    in fc-solve's order (hearts, clubs, diamonds, spades); an empty column first."""
    cards = state.columns[col]
    return (cards[0].rank, "HCDS".index(cards[0].suit)) if cards else (0, 0)


def plain_order(state: State, moves: list[Move], start: int) -> None:
    """Sort ``moves[start:]`` into the plain order, fc-solve's: every move to a foundation,
    then every move into an empty column, then every move onto a card; within a kind by the
    column moved from, then by the column moved to, the columns by their bottom cards."""

    def key(move: Move) -> tuple[int, tuple[int, int], tuple[int, int]]:
        if move.dst == FOUNDATION:
            return (0, bottom(state, move.src), (0, 0))
        kind = 1 if state.top(move.dst) is None else 2
        return (kind, bottom(state, move.src), bottom(state, move.dst))

    moves[start:] = sorted(moves[start:], key=key)
