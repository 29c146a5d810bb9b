"""The table drawn as cards: the foundations row and the eight columns."""

from __future__ import annotations

from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.widget import Widget

from ..cards import RANKS, SUITS, Card

SYMBOLS = dict(zip(SUITS, "♣♦♥♠"))
#: Card faces: black or red ink on a white card.
BLACK = "bold #000000 on #f4f4f4"
RED = "bold #c0001a on #f4f4f4"


def face(card: Card) -> tuple[str, str]:
    """A card's face, four cells wide (``10`` is written ``T``), and its style."""
    return f" {RANKS[card.rank - 1]}{SYMBOLS[card.suit]} ", RED if card.is_red else BLACK


class ColumnView(Widget):
    """One column, bottom card at the top of the screen; a click taps it, a double click
    sends its top card to the foundation."""

    DEFAULT_CSS = """
    ColumnView { width: 6; height: 100%; padding: 0 1 0 1; }
    ColumnView.selected { background: $primary 30%; }
    ColumnView.hint { background: $warning 30%; }
    """

    class Clicked(Message):
        def __init__(self, column: int, double: bool) -> None:
            super().__init__()
            self.column = column
            self.double = double

    def __init__(self, index: int) -> None:
        super().__init__(id=f"column-{index + 1}")
        self.index = index
        self.cards: list[Card] = []
        #: How many top cards are selected (0: none).
        self.picked = 0

    def show(self, cards: list[Card], picked: int) -> None:
        self.cards = cards
        self.picked = picked
        self.set_class(picked > 0, "selected")
        self.refresh()

    def render(self) -> Text:
        out = Text(f" {self.index + 1}\n", style="dim")
        if not self.cards:
            out.append(" ·· ", style="dim")
            return out
        for i, card in enumerate(self.cards):
            text, style = face(card)
            if i >= len(self.cards) - self.picked:
                style += " reverse"
            out.append(text, style=style)
            out.append("\n")
        return out

    def on_click(self, event: Click) -> None:
        self.post_message(self.Clicked(self.index, event.chain >= 2))


class FoundationsView(Widget):
    """The four foundations, each showing its top card."""

    DEFAULT_CSS = "FoundationsView { height: 2; padding: 0 1; }"

    def __init__(self) -> None:
        super().__init__(id="foundations")
        self.foundations: dict[str, int] = {}

    def show(self, foundations: dict[str, int]) -> None:
        self.foundations = foundations
        self.refresh()

    def render(self) -> Text:
        out = Text("Foundations  ", style="dim")
        for suit in SUITS:
            rank = self.foundations.get(suit, 0)
            if rank:
                text, style = face(Card(rank, suit))
                out.append(text, style=style)
            else:
                out.append(f" ·{SYMBOLS[suit]} ", style="dim")
            out.append(" ")
        return out


__all__ = ["ColumnView", "FoundationsView", "face"]
