"""The results of a win: the cards cascade off the table, then moves, time, score and the
level's statistics. A new deal or the levels: the screen hands that back (:mod:`.goto`)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static

from ..cards import SUITS, Card
from ..table.view import View
from ..words import clock_text
from .board import face
from .goto import Goto, Levels, NewDeal


class ResultsScreen(Screen[Goto]):
    """A win (``view``, the table's view of the won game): the kings fall off the
    foundations, then the figures."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", "New deal"),
        Binding("l", "levels", "Levels"),
        Binding("q", "app.quit", "Quit"),
    ]
    FRAMES = 24
    ROWS = 8

    def __init__(self, view: View) -> None:
        super().__init__()
        self.view = view
        self.frame = 0

    def compose(self) -> ComposeResult:
        yield Static(id="cascade")
        yield Static(self.results(), id="results")
        yield Footer()

    def results(self) -> Text:
        view = self.view
        out = Text("You won!\n\n", style="bold")
        out.append(f"Moves  {view.moves}\nTime   {clock_text(view.seconds)}\n")
        out.append(f"Score  {view.score}\n\n")
        if view.record is not None:  # the level's statistics, when the game is saved
            out.append(f"{view.level_name}: {view.record}\n")
        return out

    def on_mount(self) -> None:
        self.set_interval(0.06, self.cascade, repeat=self.FRAMES)

    def cascade(self) -> None:
        # The kings leave the foundations one after another and fall down the screen, a row
        # further each frame.
        self.frame += 1
        rows = [Text() for _ in range(self.ROWS)]
        for i, suit in enumerate(SUITS * 2):
            row = self.frame - 1 - 2 * i
            for r, line in enumerate(rows):
                if r == row:
                    text, style = face(Card(13 - i // 4, suit))
                    line.append(text, style=style)
                else:
                    line.append("    ")
                line.append("  ")
        self.query_one("#cascade", Static).update(Text("\n").join(rows))

    def action_new(self) -> None:
        self.dismiss(NewDeal(self.view.level))

    def action_levels(self) -> None:
        self.dismiss(Levels())


__all__ = ["ResultsScreen"]
