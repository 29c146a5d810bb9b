"""Cards as plain values. The text notation itself is parsed by the core."""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass

from . import _core
from .errors import BoardError

#: Suit letters in the core's order (its card index is ``13 * suit + rank - 1``).
SUITS = "CDHS"
#: Ranks as the board text writes them (one letter each: the ten is ``T``).
RANKS = "A23456789TJQK"
#: Ranks and suits as a player reads them on a card, in every front end: the ten is ``10``.
RANK_FACES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_SUIT_LETTERS = frozenset(SUITS)


def shown(value: object) -> str:
    """``repr(value)`` for a message, cut short: a number of 400 digits, or a line of a
    megabyte, says no more at full length (and past 4,300 digits ``repr`` of an int raises)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 100:
        try:
            digits = str(value)
        except ValueError:  # Python's limit on int-to-text conversion
            return f"(a number of about {int(value.bit_length() * math.log10(2)):,} digits)"
        return f"{digits[:8]}...{digits[-4:]} ({len(digits.lstrip('-')):,} digits)"
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:40]}... ({len(text):,} characters)"


@dataclass(frozen=True, order=True)
class Card:
    """One card: ``rank`` 1 (ace) to 13 (king), ``suit`` one of ``C D H S``."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        # A card that is none of the 52 would print as another (rank 0 as a king) or not at all.
        rank = self.rank
        rank_ok = isinstance(rank, int) and not isinstance(rank, bool) and 1 <= rank <= 13
        if not rank_ok or not isinstance(self.suit, str) or self.suit not in _SUIT_LETTERS:
            raise BoardError(
                f"not a card: rank {shown(self.rank)}, suit {shown(self.suit)} "
                "(rank 1 to 13, suit one of C D H S)"
            )

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse ``7H``, ``TD``, ``10d``, ``as``; raise :class:`BoardError` otherwise."""
        try:
            index = _core.parse_card(token)
        except UnicodeEncodeError:  # a lone surrogate: no text the core can read
            index = None
        if index is None:
            raise BoardError(
                "not a card (rank A 2-9 T J Q K, suit H C D S)",
                token=token.encode("utf-8", "backslashreplace").decode("utf-8"),
            )
        return CARDS[index]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with the core's index ``13 * suit + rank - 1`` (0 to 51); raise
        :class:`BoardError` for anything else (-1 is no card, not the last one)."""
        try:
            number = -1 if isinstance(index, bool) else operator.index(index)
        except TypeError:
            number = -1
        if not 0 <= number < len(CARDS):
            raise BoardError(f"not a card index: {shown(index)} (0 to 51)")
        return CARDS[number]

    @property
    def index(self) -> int:
        return 13 * SUITS.index(self.suit) + self.rank - 1

    @property
    def is_red(self) -> bool:
        return self.suit in "DH"

    @property
    def face(self) -> str:
        """The card as a player reads it: ``10♦``, ``K♠`` (``str`` is the board text's ``TD``)."""
        return RANK_FACES[self.rank - 1] + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit


#: Every card, by core index.
CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
