"""The Spider table: the stock and the runs off, the ten columns, status and message lines."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import BindingType

from ..actions import DealRow, Pick, TakeOff
from ..game.spider_game import SpiderGame
from ..saves.records import Settings
from ..table.table import Table
from ..table.view import View
from .board import PileView
from .keys import SPIDER_KEYS
from .spider_board import SpiderColumnView, StockView
from .table import PlayScreen


class SpiderTableScreen(PlayScreen):
    """A Spider game.

    Keys: a column's number (0 for the tenth) selects the longest run that can move from it
    (again: one card fewer), then another column's number moves the selected cards there;
    ``d`` deals, ``o`` takes a complete run off. The mouse: a click on a face-up card selects
    the run from it, a click on another column drops the selection there, a click on the
    stock deals; a drag carries the run from the card pressed.
    """

    BINDINGS: ClassVar[list[BindingType]] = SPIDER_KEYS

    KIND = "spider"
    TOP_ROW = StockView
    PILE = SpiderColumnView

    def __init__(self, table: Table, settings: Settings) -> None:
        assert isinstance(table.game, SpiderGame)
        super().__init__(table, settings)

    @property
    def game(self) -> SpiderGame:
        game = self.table.game
        assert isinstance(game, SpiderGame)  # a new deal makes a new screen
        return game

    def show_top(self, view: View) -> None:
        stock = self.query_one(StockView)
        stock.show(view.stock or 0, view.off or ())
        # A hinted deal is marked where it is made, as a hinted move's columns are.
        stock.set_class(view.hint is not None and view.hint["action"] == DealRow.NAME, "hint")

    # --- the mouse ----------------------------------------------------------------------------

    def may_pick_up(self) -> bool:
        # With a run selected, a press is the start of the click that drops it.
        return self.table.selected is None

    def on_pile_view_clicked(self, event: PileView.Clicked) -> None:
        column = event.column
        selected = self.table.selected
        if selected is not None and selected[0] != column:
            self.act(Pick(column))  # the selection goes there
            return
        count = self.held_count(column, event.card)
        if event.card is None or count is None:
            self.action_cancel()
            return
        self.act(Pick(column, count))

    def on_stock_view_clicked(self, event: StockView.Clicked) -> None:
        self.action_deal()

    # --- keys ---------------------------------------------------------------------------------

    def action_column(self, column: int) -> None:
        self.act(Pick(column))

    def action_deal(self) -> None:
        self.act(DealRow())

    def action_off(self) -> None:
        self.act(TakeOff())


__all__ = ["SpiderTableScreen"]
