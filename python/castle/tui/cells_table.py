"""The free-cell table: the cells and the foundations in the top row, the columns under them,
status and message lines."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal

from ..actions import Cancel, Pick, Put
from ..game.cells_game import CellsGame
from ..saves.records import Settings
from ..table.table import Table
from .board import COLUMN_WIDTH, CastleColumnView
from .cells_board import CellsFoundationsView, CellView
from .keys import CELLS_KEYS
from .table import TapScreen

#: The foundations' width in the top row: four cards and the cards up.
FOUNDATIONS_WIDTH = 28


class CellsTableScreen(TapScreen):
    """A free-cell game: the keys and the mouse of the castle table (:class:`TapScreen`), and
    the cells: ``c`` puts the selected card into a free cell, or (nothing selected from a
    column) selects the next cell's card; a cell is clicked, double-clicked and dragged as a
    column is. The columns' numbers run 1-9, 0 for the tenth."""

    BINDINGS: ClassVar[list[BindingType]] = CELLS_KEYS

    KIND = "cells"
    TOP_ROW = CellsFoundationsView
    PILE = CastleColumnView
    TOP_PARTS = ("#cells",)

    def __init__(self, table: Table, settings: Settings) -> None:
        assert isinstance(table.game, CellsGame)
        super().__init__(table, settings)

    @property
    def game(self) -> CellsGame:
        game = self.table.game
        assert isinstance(game, CellsGame)  # a new deal makes a new screen
        return game

    def compose_top(self) -> ComposeResult:
        columns, places = len(self.game.columns), len(self.table.piles())
        with Horizontal(id="cells"):
            yield from (CellView(i, columns) for i in range(columns, places))
            yield CellsFoundationsView()

    def compose_columns(self) -> ComposeResult:
        yield from (CastleColumnView(i) for i in range(len(self.game.columns)))

    def table_width(self) -> int:
        top = len(self.game.cells) * COLUMN_WIDTH + FOUNDATIONS_WIDTH
        return max(top, len(self.game.columns) * COLUMN_WIDTH) + 2

    def action_column(self, column: int) -> None:
        # The places past the columns are the cells: their key is c, not a digit.
        columns = len(self.game.columns)
        if column >= columns:
            self.say(f"no column {column + 1}: the columns are 1 to {columns}, the cells c")
            self.ding()
            return
        super().action_column(column)

    def action_cell(self) -> None:
        """The selected card into the first free cell; else the next cell's card selected."""
        view = self.table.view()
        cells = view.cells or ()
        first = len(view.columns)
        selected = self.table.selected
        if selected is not None and selected[0] < first:
            free = [first + i for i, cell in enumerate(cells) if not cell.cards]
            if not free:
                self.say("no cell is free")
                self.ding()
                return
            self.act(Put(free[0]))
            return
        held = [first + i for i, cell in enumerate(cells) if cell.cards]
        if not held:
            self.say("the cells are empty: select a column (its number), then c")
            return
        after = [place for place in held if selected is None or place > selected[0]]
        if selected is not None:
            self.table.act(Cancel())  # a pick now would move the selected card there
        self.act(Pick((after or held)[0]))


__all__ = ["CellsTableScreen"]
