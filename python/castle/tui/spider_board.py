"""The Spider table drawn as cards: ten columns (face-down cards as backs), the stock and the
runs taken off."""

from __future__ import annotations

from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.widget import Widget

from ..cards import Card
from .board import PileView, face

BACK = "#3a5fcd on #1d2f66"


class SpiderColumnView(PileView):
    """A Spider column: face-down cards as backs, then the face-up ones. A click on a face-up
    card asks for the run from it up (or drops the selected run here); a drag carries it."""

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.down: list[Card] = []
        self.up: list[Card] = []
        self.picked = 0

    def show(self, down: list[Card], up: list[Card], picked: int) -> None:
        self.down, self.up, self.picked = down, up, picked
        self.set_class(picked > 0, "selected")
        self.refresh()

    def cards_drawn(self) -> int:
        return len(self.down) + len(self.up)

    def render(self) -> Text:
        out = Text(f" {(self.index + 1) % 10}\n", style="dim")
        if not self.down and not self.up:
            out.append(" ·· ", style="dim")
            return out
        for _ in self.down:
            out.append(" ▒▒ ", style=BACK)
            out.append("\n")
        for i, card in enumerate(self.up):
            text, style = face(card)
            if i >= len(self.up) - self.picked:
                style += " reverse"
            out.append(text, style=style)
            out.append("\n")
        return out


class StockView(Widget):
    """The stock (a click deals) and the runs taken off."""

    DEFAULT_CSS = "StockView { height: 2; padding: 0 1; }"

    class Clicked(Message):
        pass

    def __init__(self) -> None:
        super().__init__(id="stock")
        self.stock = 0
        self.off: list[str] = []

    def show(self, stock: int, off: list[str]) -> None:
        self.stock, self.off = stock, off
        self.refresh()

    def render(self) -> Text:
        out = Text("Stock  ", style="dim")
        if self.stock:
            out.append(" ▒▒ " * (self.stock // 10), style=BACK)
            out.append(f"  {self.stock} cards (d deals)", style="dim")
        else:
            out.append("empty", style="dim")
        out.append("    Off  ", style="dim")
        for suit in self.off:
            text, style = face(Card(13, suit))
            out.append(text.replace("K", " "), style=style)
            out.append(" ")
        out.append(f"{len(self.off)}/8", style="dim")
        return out

    def on_click(self, event: Click) -> None:
        self.post_message(self.Clicked())


__all__ = ["SpiderColumnView", "StockView"]
