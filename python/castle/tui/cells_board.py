"""The free-cell table's top row drawn as cards: each cell (a pile of one card, pressed,
dragged and clicked as a column is) and the foundations, narrow enough for eight cells at 80
columns."""

from __future__ import annotations

from rich.text import Text

from ..cards import SUIT_SYMBOLS, SUITS, Card
from .board import CastleColumnView, FoundationsView, face

#: The lines of the top row: a label line, then the cards.
TOP_ROWS = 2


class CellView(CastleColumnView):
    """One cell: its label (``c1``, as hints name it ``cell 1``) over its card or a dot. It is
    a place of the table as a column is (place ``columns + i``): a click taps its card, a
    double click sends it up, a drag carries it."""

    DEFAULT_CSS = f"""
    CellView {{ height: {TOP_ROWS}; }}
    """

    def __init__(self, index: int, columns: int) -> None:
        super().__init__(index)
        self.columns = columns

    def label(self) -> str:
        return f"c{self.index - self.columns + 1}"


class CellsFoundationsView(FoundationsView):
    """The four foundations under their key (``f``), and the cards up."""

    DEFAULT_CSS = f"""
    CellsFoundationsView {{ width: 1fr; height: {TOP_ROWS}; padding: 0 0 0 2; }}
    """

    def render(self) -> Text:
        out = Text(" f  foundations\n", style="dim")
        for suit in SUITS:
            rank = self.foundations.get(suit, 0)
            if rank:
                text, style = face(Card(rank, suit))
                out.append(text, style=style)
            else:
                out.append(f" ·{SUIT_SYMBOLS[suit]} ", style="dim")
            out.append(" ")
        out.append(f" up {self.cards_up}", style="dim")
        return out


__all__ = ["TOP_ROWS", "CellView", "CellsFoundationsView"]
