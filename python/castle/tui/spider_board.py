"""The Spider table drawn as cards: ten columns (face-down cards as backs), the stock and the
runs taken off."""

from __future__ import annotations

from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.widget import Widget

from ..cards import Card
from ..solving.spider import COLUMNS, RUNS
from .board import BACK, PileView, face


class SpiderColumnView(PileView):
    """A Spider column: face-down cards as backs, then the face-up ones. A click on a face-up
    card asks for the run from it up (or drops the selected run here); a drag carries it."""

    def label(self) -> str:
        return f"{self.index + 1:>2}"  # as the hints name it (key 0: 10)


class StockView(Widget):
    """The stock (a click deals) and the runs taken off; marked when the hint is a deal."""

    DEFAULT_CSS = """
    StockView { height: 2; padding: 0 1; }
    StockView.hint { background: $warning 30%; }
    """

    class Clicked(Message):
        pass

    def __init__(self) -> None:
        super().__init__(id="stock")
        self.stock = 0
        self.off: tuple[str, ...] = ()

    def show(self, stock: int, off: tuple[str, ...]) -> None:
        self.stock, self.off = stock, off
        self.refresh()

    def render(self) -> Text:
        out = Text("Stock  ", style="dim")
        if self.stock:
            out.append(" ▒▒ " * (self.stock // COLUMNS), style=BACK)  # a back a deal
            out.append(f"  {self.stock} cards (d deals)", style="dim")
        else:
            out.append("empty", style="dim")
        out.append("    Off  ", style="dim")
        for suit in self.off:
            text, style = face(Card(13, suit))
            out.append(text.replace("K", " "), style=style)
            out.append(" ")
        out.append(f"{len(self.off)}/{RUNS}", style="dim")
        return out

    def on_click(self, event: Click) -> None:
        self.post_message(self.Clicked())


__all__ = ["SpiderColumnView", "StockView"]
