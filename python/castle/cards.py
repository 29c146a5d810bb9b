"""Cards as plain values. The text notation itself is parsed by the core."""

from __future__ import annotations

from dataclasses import dataclass

from . import _core
from .errors import BoardError

#: Suit letters in the core's order (its card index is ``13 * suit + rank - 1``).
SUITS = "CDHS"
RANKS = "A23456789TJQK"


@dataclass(frozen=True, order=True)
class Card:
    """One card: ``rank`` 1 (ace) to 13 (king), ``suit`` one of ``C D H S``."""

    rank: int
    suit: str

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse ``7H``, ``TD``, ``10d``, ``as``; raise :class:`BoardError` otherwise."""
        index = _core.parse_card(token)
        if index is None:
            raise BoardError("not a card (rank A 2-9 T J Q K, suit H C D S)", token=token)
        return CARDS[index]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with the core's index ``13 * suit + rank - 1``."""
        return CARDS[index]

    @property
    def index(self) -> int:
        return 13 * SUITS.index(self.suit) + self.rank - 1

    @property
    def is_red(self) -> bool:
        return self.suit in "DH"

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit


#: Every card, by core index.
CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
