"""An orbit's canonical form (``orbits.py``): which cards of a position are free, and the
position's key up to swapping free cards of one rank, with the relabeling that takes it there.

Translation of ``rust/src/castle/canon.rs`` (which makes the same key faster: heads of columns
compared before the columns, the suits dealt out by bit tricks).
"""

from __future__ import annotations

from ...cards import CARDS, Card
from .compact import Compact, CompactKey
from .state import State


def free_cards(compact: Compact, state: State) -> set[int]:
    """The free cards of ``state`` (by index): in the tableau, above the next card of their
    suit's foundation, neither on nor under a card they were dealt on that is not one rank
    higher."""
    tableau: set[int] = set()
    pinned: set[int] = set()
    for column in state.columns:
        for j, card in enumerate(column):
            tableau.add(card.index)
            if card.rank <= state.foundations[card.suit] + 1:
                pinned.add(card.index)
            if j > 0 and compact.on_one_way(card, column[j - 1].index + 1):
                pinned |= {card.index, column[j - 1].index}
    return tableau - pinned


def canon(compact: Compact, state: State, free: set[int]) -> tuple[CompactKey, dict[int, int]]:
    """The key of ``state``'s orbit, and the relabeling that takes ``state`` to it (each free
    card's index to the index of the card it becomes), given its free cards
    (:func:`free_cards`). The canonical member: each column read bottom up as pinned cards and
    ranks of free cards, the columns in that order, then the free cards of each rank dealt out
    in it, lowest index first."""
    # Above every index, so that a pinned card sorts first.
    tokens = [
        tuple(64 + c.rank if c.index in free else c.index for c in column)
        for column in state.columns
    ]
    order = sorted(range(len(state.columns)), key=lambda col: (tokens[col], col))
    left = sorted(free)
    relabel: dict[int, int] = {}
    columns: list[list[Card]] = []
    for col in order:
        out: list[Card] = []
        for card in state.columns[col]:
            if card.index in free:
                put = next(i for i in left if CARDS[i].rank == card.rank)
                left.remove(put)
                relabel[card.index] = put
                out.append(CARDS[put])
            else:
                out.append(card)
        columns.append(out)
    return compact.encode(State(columns, state.foundations)), relabel
