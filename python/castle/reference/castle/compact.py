"""The compact exact key: 3 bits a card, relative to the deal a search started from.

In the castle games one card moves at a time, onto a card one rank higher (any suit), into an
empty column, or onto its foundation. So a card lies on what it was dealt on (a card, a
column's bottom, or its foundation), on one of the four cards one rank higher, on a column's
bottom, or on its foundation, and nothing else: three bits say which (``DEALT``, ``ON_SUIT`` +
suit, ``BOTTOM``, ``ON_FOUNDATION``). Like the State's key, it says what lies under every card
and nothing more (the columns unordered), and it tells exactly the same positions apart.

A key is an int with the Rust ``CompactKey``'s bits: card index ``i`` (``Card.index``, the
Rust ``Card::index()``) at bit ``3 * i`` for ``i < 42``, at bit ``128 + 3 * (i - 42)`` for the
rest, and ``PRESENT`` at bit ``128 + 31``: the two agree bit for bit.

Translation of ``rust/src/castle/compact.rs``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import CARDS, SUITS, Card
from ...solving.deal import Deal
from ...solving.solve import Move
from .state import BOTTOM as KEY_BOTTOM
from .state import NOT_IN_TABLEAU, State

#: A compact key (the Rust ``CompactKey``: ``low`` is bits 0..128, ``high`` bits 128..160).
CompactKey = int

#: The card lies on what it was dealt on: the same card, a column's bottom, or its foundation.
DEALT = 0
#: ``ON_SUIT + s``: on the card one rank higher of suit ``s`` (which it was not dealt on).
ON_SUIT = 1
#: At a column's bottom (it was not dealt there).
BOTTOM = 5
#: On its foundation (it was not dealt there).
ON_FOUNDATION = 6

#: Cards ``0..LOW_CARDS`` (by index) in the low 128 bits (``low``), the rest in ``high``.
LOW_CARDS = 42
#: Set in every key, so that 0 is never a key (a table may take it for an empty slot).
PRESENT = 1 << (128 + 31)
#: Where each card's three bits start, by card index.
SHIFT = tuple(3 * i if i < LOW_CARDS else 128 + 3 * (i - LOW_CARDS) for i in range(52))


def card_code(key: CompactKey, card: Card) -> int:
    """The three bits of ``card`` in ``key`` (the Rust ``CompactKey::code``)."""
    return (key >> SHIFT[card.index]) & 7


class Compact:
    """The deal a search started from, which the compact keys of its positions are relative to."""

    __slots__ = ("all_up", "dealt", "ncols", "one_way")

    def __init__(self, deal: Deal) -> None:
        self.ncols = len(deal.columns)
        # For each card (by index), the State key field it was dealt with: BOTTOM (0), the id
        # of the card it was dealt on, or NOT_IN_TABLEAU.
        self.dealt = [NOT_IN_TABLEAU] * 52
        for column in deal.columns:
            under = KEY_BOTTOM
            for card in column:
                self.dealt[card.index] = under
                under = card.index + 1
        # Every card on its foundation: never reached, but where encode() places the tableau's
        # cards from.
        self.all_up = PRESENT
        for i in range(52):
            if self.dealt[i] != NOT_IN_TABLEAU:
                self.all_up |= ON_FOUNDATION << SHIFT[i]
        # Cards dealt on a card not one rank higher: once they leave it they never lie on it
        # again (what layer() counts).
        self.one_way = [
            0 < under != NOT_IN_TABLEAU and CARDS[under - 1].rank != CARDS[i].rank + 1
            for i, under in enumerate(self.dealt)
        ]

    def dealt_key(self) -> CompactKey:
        """The deal's own key: every card where it was dealt (the Rust ``Compact::dealt``)."""
        return PRESENT

    def code(self, card: Card, under: int) -> int:
        """The code of ``card`` lying on ``under`` (a State key field: BOTTOM, a card id, or
        NOT_IN_TABLEAU). The first reading that fits wins, so each position has one key."""
        if under == self.dealt[card.index]:
            return DEALT
        if under == KEY_BOTTOM:
            return BOTTOM
        if under == NOT_IN_TABLEAU:
            return ON_FOUNDATION
        assert CARDS[under - 1].rank == card.rank + 1
        return ON_SUIT + (under - 1) // 13

    def under(self, card: Card, code: int) -> int:
        """What ``code`` says lies under ``card``, as a State key field."""
        if code == DEALT:
            return self.dealt[card.index]
        if code == BOTTOM:
            return KEY_BOTTOM
        if code == ON_FOUNDATION:
            return NOT_IN_TABLEAU
        assert card.rank < 13 and ON_SUIT <= code < BOTTOM
        return 13 * (code - ON_SUIT) + card.rank + 1  # the id of rank + 1 of that suit

    def encode(self, state: State) -> CompactKey:
        """The compact key of ``state`` (a position reached from this deal), from its columns."""
        key = self.all_up
        for column in state.columns:
            under = KEY_BOTTOM
            for card in column:
                i = card.index
                up = DEALT if self.dealt[i] == NOT_IN_TABLEAU else ON_FOUNDATION
                key ^= (up ^ self.code(card, under)) << SHIFT[i]
                under = i + 1
        return key

    def encode_key(self, exact: bytes) -> CompactKey:
        """The same, from the position's exact key (``State.key()``)."""
        key = self.dealt_key()
        for card in CARDS:
            key |= self.code(card, exact[card.index]) << SHIFT[card.index]
        return key

    def place(self, key: CompactKey, card: Card, under: int) -> CompactKey:
        """``key`` with ``card`` now lying on ``under`` (a State key field): what a search
        keeping the key beside its position does at each move."""
        return key ^ ((card_code(key, card) ^ self.code(card, under)) << SHIFT[card.index])

    def on_one_way(self, card: Card, under: int) -> bool:
        """Whether ``card``, lying on ``under`` (a State key field), lies on a card it was dealt
        on that is not one rank higher: once it leaves, it never lies there again."""
        return self.one_way[card.index] and under == self.dealt[card.index]

    def marks(self, index: int, code: int) -> tuple[bool, bool]:
        """Whether card ``index`` with code ``code`` is on its foundation (not dealt there), and
        whether it has left a card it was dealt on that is not one rank higher: the two things
        no move undoes."""
        return code == ON_FOUNDATION, code != DEALT and self.one_way[index]

    def facts(self, key: CompactKey) -> int:
        """What can never be undone in the position: bit ``i`` for card ``i`` on its foundation,
        bit ``64 + i`` for card ``i`` off a one-way dealt parent. A position leads to ``key``
        only if its facts are a subset of ``key``'s."""
        facts = 0
        for i in range(52):
            up, left = self.marks(i, (key >> SHIFT[i]) & 7)
            facts |= up << i | left << (64 + i)
        return facts

    def layer(self, key: CompactKey) -> int:
        """The layer of irreversibility: the facts counted, the cards on their foundations
        (less those dealt there) plus the cards that have left a card they were dealt on that
        is not one rank higher. No move makes it smaller."""
        return bin(self.facts(key)).count("1")

    def decode(self, key: CompactKey) -> State:
        """The position ``key`` stands for, its columns in a canonical order: by bottom card
        (by id), the empty ones last."""
        # What lies under each card, turned round to what lies on each card (by id).
        on: list[Card | None] = [None] * 53
        bottoms: list[Card] = []
        foundations = dict.fromkeys(SUITS, 0)
        for card in CARDS:  # in id order
            under = self.under(card, card_code(key, card))
            if under == KEY_BOTTOM:
                bottoms.append(card)
            elif under == NOT_IN_TABLEAU:
                foundations[card.suit] = max(foundations[card.suit], card.rank)
            else:
                on[under] = card
        columns: list[list[Card]] = []
        for bottom in bottoms:
            column = [bottom]
            while (above := on[column[-1].index + 1]) is not None:
                column.append(above)
            columns.append(column)
        columns += [[] for _ in range(self.ncols - len(columns))]
        return State(columns, foundations)


def child_key(compact: Compact, key: CompactKey, state: State, line: Sequence[Move]) -> CompactKey:
    """The compact key of ``state``, reached by ``line`` (a move and its automatic moves, or
    the deal's automatic moves) from the position of compact key ``key``: each card moved now
    lies on what ``state``'s exact key says (a card moved twice, as a move and then up, is
    placed twice, the last time right)."""
    for move in line:
        key = compact.place(key, move.card, state.below[move.card.index])
    return key
