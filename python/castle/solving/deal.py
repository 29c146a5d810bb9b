"""Deals: PySolFC's numbered deals of each variant, board text, and random deals."""

from __future__ import annotations

import random as _random
from bisect import bisect_left
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, Literal, TypeVar

from .. import _core
from ..cards import CARDS, SUITS, Card, shown
from ..errors import BoardError, VariantError
from ..variants import DEFAULT_VARIANT, check_variant
from .board_family import check_family

#: Deal numbers run from 1 to this.
MAX_DEAL_NUMBER: int = _core.MAX_DEAL_NUMBER
#: Deal.random draws numbers from 1 to this (the range every PySolFC build can show).
RANDOM_DEAL_MAX = 2**31 - 1
#: The columns of a castle game's table (the core's number; every castle variant has eight).
COLUMNS: int = _core.CASTLE_COLUMNS


def check_deal_number(number: int, last: int = MAX_DEAL_NUMBER) -> int:
    """``number`` if it is a deal number (a whole number 1 to ``last``, by default
    :data:`MAX_DEAL_NUMBER`), else raise :class:`BoardError` (the core could not even take
    2**64)."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise BoardError(f"deal number must be a whole number, not {shown(number)}")
    if number < 1:
        # Not the largest number any game takes: the game may not be known yet.
        raise BoardError(f"deal number {shown(number)} is out of range: deals are numbered from 1")
    if number > last:
        raise BoardError(f"deal number {shown(number)} is out of range (1 to {last})")
    return int(number)


def check_text(text: str) -> None:
    """Raise :class:`BoardError`, naming the line and token, if ``text`` holds a lone
    surrogate (``"\\udcff"``, what Python makes of a byte that is not UTF-8): no card can be
    written with it, and the core reads only text that is UTF-8. The token is given with the
    surrogate escaped, so that printing it cannot fail in turn."""
    if not isinstance(text, str):
        return  # the core refuses it with a TypeError
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        start = end = e.start
        while start > 0 and not text[start - 1].isspace():
            start -= 1
        while end < len(text) and not text[end].isspace():
            end += 1
        token = text[start:end]
        raise BoardError(
            "not text: a lone surrogate (a byte that is not UTF-8?), not a card",
            line=text.count("\n", 0, e.start) + 1,
            token=token.encode("utf-8", "backslashreplace").decode("utf-8"),
        ) from None


#: The native deal a deal wraps (castle's, Spider's or the free-cell games'), and a deal of
#: any kind.
C = TypeVar("C", _core.Deal, _core.SpiderDeal, _core.CellsDeal)
D = TypeVar("D", bound="DealOf[Any]")


class DealOf(Generic[C]):
    """What the deals of every family share: the native deal each wraps, dealt by number,
    read from board text, or picked at random."""

    __slots__ = ("_deal",)

    #: The native deal class, the board family its text belongs to (for the error that says
    #: a board is the other family's), the variant :meth:`random` deals without one, and the
    #: check of a variant's name.
    _CORE: ClassVar[Any]
    _FAMILY: ClassVar[Literal["castle", "spider", "cells"]]
    _DEFAULT_VARIANT: ClassVar[str]

    def __init__(self, core: C) -> None:
        self._deal: C = core

    @staticmethod
    def _check_variant(variant: str) -> str:
        raise NotImplementedError

    @classmethod
    def from_number(cls: type[D], variant: str, number: int) -> D:
        """Deal ``number`` (1 to :data:`MAX_DEAL_NUMBER`) of ``variant``; any other number (0,
        negative, too large, a bool or a float) raises :class:`BoardError`."""
        cls._check_variant(variant)
        return cls(cls._CORE.from_number(variant, check_deal_number(number)))

    @classmethod
    def from_text(cls: type[D], text: str, variant: str | None = None) -> D:
        """Parse board text (docs/guide/board-text.md); without ``variant``, the cards say which
        (see the class). Raises :class:`BoardError` naming the line and token at fault, or
        saying that the text is the other family's board."""
        if variant is not None:
            cls._check_variant(variant)
        check_text(text)
        try:
            return cls(cls._CORE.from_text(text, variant))
        except _core.BoardTextError as e:
            check_family(text, cls._FAMILY)
            message, line, token = e.args
            raise BoardError(message, line=line, token=token) from None

    @classmethod
    def random(cls: type[D], variant: str | None = None, seed: int | None = None) -> D:
        """A numbered deal of ``variant`` (None: the default one) picked at random
        (reproducibly, given ``seed``)."""
        variant = cls._DEFAULT_VARIANT if variant is None else variant
        cls._check_variant(variant)
        rng = _random.Random(seed) if seed is not None else _random.SystemRandom()
        return cls.from_number(variant, rng.randint(1, RANDOM_DEAL_MAX))

    @property
    def variant(self) -> str:
        return str(self._deal.variant)

    @property
    def number(self) -> int | None:
        """The deal's number, or ``None`` for a position read from text."""
        number: int | None = self._deal.number
        return number

    def to_text(self) -> str:
        """Board text (for castle, the layout PySolFC and fc-solve read)."""
        return str(self._deal.to_text())

    @property
    def core(self) -> C:
        """The native deal (for castle's own modules)."""
        return self._deal

    def __eq__(self, other: object) -> bool:
        # Two deals of one family are equal when they lay out the same cards: the same text.
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, DealOf)
        return (self.variant, self.to_text()) == (other.variant, other.to_text())

    def __hash__(self) -> int:
        return hash(self.to_text())

    def __repr__(self) -> str:
        name = type(self).__name__
        if self.number is not None:
            return f"{name}.from_number({self.variant!r}, {self.number})"
        return f"{name}.from_text({self.to_text()!r}, variant={self.variant!r})"


#: The other families' variants, and the class their deals are: ``Deal`` takes castle's only.
_OTHER_DEALS: dict[str, str] = {
    **{variant: "castle.SpiderDeal" for variant in _core.spider_variants()},
    **{variant: "castle.CellsDeal" for variant in _core.cells_variants()},
}


class Deal(DealOf[_core.Deal]):
    """A position of a castle game: 8 columns (bottom card first) and four foundations.

    Build one with :meth:`from_number`, :meth:`from_text` or :meth:`random`. Board text without
    a variant: an ace in a column means Streets and Alleys, anything else Beleaguered Castle
    (Citadel plays by the same rules).
    """

    __slots__ = ()

    _CORE = _core.Deal
    _FAMILY = "castle"
    _DEFAULT_VARIANT = DEFAULT_VARIANT

    @staticmethod
    def _check_variant(variant: str) -> str:
        other = _OTHER_DEALS.get(variant)
        if other is not None:
            raise VariantError(f"{variant!r} is not a castle game: its deals are {other}'s")
        return check_variant(variant)

    @property
    def columns(self) -> list[list[Card]]:
        """The 8 columns, each bottom card first (the last card is the one that moves)."""
        return [[CARDS[i] for i in column] for column in self._deal.columns]

    @property
    def foundations(self) -> dict[str, int]:
        """Top rank on each suit's foundation, by suit letter (0 = empty)."""
        return dict(zip(SUITS, self._deal.foundations))


def parse_deal_range(text: str) -> Sequence[int]:
    """``"1-1000"``, ``"17"`` or ``"1-10,48,100-120"`` as deal numbers, in the order given,
    each once: a deal given twice, or in ranges that overlap (``1-3,2-4``), counts once.
    Anything else raises :class:`BoardError` (a ``ValueError``)."""
    numbers: list[int] = []
    # What the ranges read so far took: disjoint, in order (lows[i]-highs[i]), so that a part
    # is placed by a binary search, not a scan of every part before (the retries of a survey
    # give thousands of single deals).
    lows: list[int] = []
    highs: list[int] = []
    for part in text.split(","):
        part = part.strip()
        lo, sep, hi = part.partition("-")
        try:
            if not part.isascii():  # int() would read Arabic-Indic digits too
                raise ValueError
            first = int(lo)
            last = int(hi) if sep else first
        except ValueError:  # also a number of over 4,300 digits
            raise BoardError(
                f"not a deal range: {shown(part)} (use N, N-M, or a list of them; digits 0-9)"
            ) from None
        if not 1 <= first <= last <= MAX_DEAL_NUMBER:
            raise BoardError(f"not a deal range: {shown(part)} (numbers 1 to 2**63-1, low-high)")
        if last - first >= 10_000_000:
            raise BoardError(f"deal range {shown(part)} is too large (at most 10,000,000 deals)")
        # The numbers of first-last that no earlier range took, then first-last taken.
        i = j = bisect_left(highs, first)
        start = first
        while j < len(lows) and lows[j] <= last:
            numbers.extend(range(start, lows[j]))
            start = max(start, highs[j] + 1)
            j += 1
        numbers.extend(range(start, last + 1))
        if i < j:
            first, last = min(first, lows[i]), max(last, highs[j - 1])
        lows[i:j] = [first]
        highs[i:j] = [last]
    return numbers


__all__ = ["MAX_DEAL_NUMBER", "Deal", "parse_deal_range"]
