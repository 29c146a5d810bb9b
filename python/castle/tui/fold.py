"""A column folded to the rows a terminal has: a line a card while it fits; past that, the
face-down cards as one line with their count, then each long run as its two ends with the
count of the cards between, then the lowest face-up cards as one count. The top card, and the
cards the player has picked up or the hint moves, always keep a line of their own.

Which cards a folded line stands for is kept with it, so a click on it means those cards."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from ..cards import Card

#: The fewest rows a column of any height folds into: its face-down count, one fold, its top.
FEWEST_ROWS = 3

#: The shortest run folded: its two ends and the fold's line must save a line.
SHORTEST_FOLD = 4


@dataclass(frozen=True)
class Line:
    """One line of a folded column: ``count`` cards from ``first`` (the column's cards, bottom
    0, face-down ones first). ``kind``: ``"down"`` face-down cards, ``"card"`` one face-up
    card, ``"fold"`` face-up cards hidden inside a fold."""

    kind: Literal["down", "card", "fold"]
    first: int
    count: int = 1


Follows = Callable[[Card, Card], bool]


def in_suit(lower: Card, upper: Card) -> bool:
    """``upper`` lies on ``lower`` as a run in suit: one rank lower, the same suit."""
    return upper.suit == lower.suit and upper.rank == lower.rank - 1


def in_rank(lower: Card, upper: Card) -> bool:
    """``upper`` lies on ``lower`` one rank lower, whatever its suit."""
    return upper.rank == lower.rank - 1


def fold(down: int, cards: Sequence[Card], rows: int, keep: Collection[int] = ()) -> list[Line]:
    """The lines of a column of ``down`` face-down cards under ``cards`` (bottom first) in at
    most ``rows`` lines (``rows`` at least :data:`FEWEST_ROWS`; a column that fits is drawn a
    line a card). ``keep``: indices of ``cards`` that start a line of their own (the first card
    picked up, the first the hint moves)."""
    whole = [Line("down", i) for i in range(down)]
    whole += [Line("card", down + i) for i in range(len(cards))]
    if len(whole) <= rows:
        return whole
    base = down > 0
    fits = rows - (1 if base else 0)  # rows left for the face-up cards
    for follows in (in_suit, in_rank):
        folds = _fold_runs(cards, fits, keep, follows)
        if folds is not None:
            return _lines(down, len(cards), folds)
    # Past every run: the lowest face-up cards as one count, the rest a line each.
    hidden = max(0, len(cards) - (fits - 1))
    return _lines(down, len(cards), [(0, hidden)] if hidden > 1 else [])


def _runs(cards: Sequence[Card], keep: Collection[int], follows: Follows) -> list[range]:
    """The runs of ``cards`` by ``follows``, each also ended where a kept card starts."""
    runs: list[range] = []
    start = 0
    for i in range(1, len(cards) + 1):
        if i == len(cards) or i in keep or not follows(cards[i - 1], cards[i]):
            runs.append(range(start, i))
            start = i
    return runs


def _fold_runs(
    cards: Sequence[Card], rows: int, keep: Collection[int], follows: Follows
) -> list[tuple[int, int]] | None:
    """The folds (first hidden, count) that fit ``cards`` in ``rows``, folding the longest runs
    first; None when folding every run is not enough."""
    lines = len(cards)
    folds: list[tuple[int, int]] = []
    for run in sorted(_runs(cards, keep, follows), key=len, reverse=True):
        if lines <= rows or len(run) < SHORTEST_FOLD:
            break
        folds.append((run.start + 1, len(run) - 2))
        lines -= len(run) - 3
    return folds if lines <= rows else None


def _lines(down: int, count: int, folds: list[tuple[int, int]]) -> list[Line]:
    """The lines: the face-down cards as one, then the face-up cards, ``folds`` (first hidden
    face-up card, how many) as one line each."""
    lines = [Line("down", 0, down)] if down else []
    hidden = dict(folds)
    i = 0
    while i < count:
        if i in hidden:
            lines.append(Line("fold", down + i, hidden[i]))
            i += hidden[i]
        else:
            lines.append(Line("card", down + i))
            i += 1
    return lines


__all__ = ["FEWEST_ROWS", "Line", "fold", "in_rank", "in_suit"]
