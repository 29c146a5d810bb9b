"""The Spider table: the stock and the runs off, the ten columns, status and message lines."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from textual.binding import BindingType

from ..cards import Card
from ..errors import IllegalMoveError
from ..plan import Hint
from ..solve import Target
from ..spider_game import SpiderGame
from .board import PileView
from .common import castle_app
from .keys import SPIDER_KEYS
from .spider_board import SpiderColumnView, StockView
from .table import PlayScreen

#: The hints' labels: the fair hint sees what the player sees; the thoughtful one peeks.
FAIR_LABEL = "fair hint"
THOUGHTFUL_LABEL = "thoughtful hint (it peeked at the face-down cards)"


class SpiderTableScreen(PlayScreen):
    """A Spider game.

    Keys: a column's number (0 for the tenth) selects the longest run that can move from it
    (again: one card fewer), then another column's number moves the selected cards there;
    ``d`` deals, ``o`` takes a complete run off. The mouse: a click on a face-up card selects
    the run from it, a click on another column drops the selection there, a click on the
    stock deals; a drag carries the run from the card pressed.
    """

    BINDINGS: ClassVar[list[BindingType]] = SPIDER_KEYS

    TOP_ROW = StockView

    def __init__(self, game: SpiderGame) -> None:
        super().__init__(game)
        self.game: SpiderGame = game

    def piles(self) -> Iterable[PileView]:
        return [SpiderColumnView(i) for i in range(10)]

    def column_cards(self, column: int) -> list[Card]:
        return self.game.columns[column].up

    def tallest_column(self) -> int:
        return max(len(c.down) + len(c.up) for c in self.game.columns)

    def redraw(self) -> None:
        self.show_status()
        self.query_one(StockView).show(self.game.stock, self.game.off)
        columns = self.game.columns
        for view in self.query(SpiderColumnView):
            view.remove_class("hint")
            column = columns[view.index]
            view.show(column.down, column.up, self.picked_on(view.index))

    # --- the mouse ----------------------------------------------------------------------------

    def may_pick_up(self) -> bool:
        # With a run selected, a press is the start of the click that drops it.
        return self.selected is None

    def held_count(self, column: int, card: int | None) -> int | None:
        cards = self.game.columns[column]
        if not cards.up:
            return None
        if card is None:
            return 1
        if card < len(cards.down):
            return None  # a face-down card
        return len(cards.down) + len(cards.up) - card

    def lift_refusal(self, src: int, count: int) -> str | None:
        return self.game.lift_refusal(src, count)

    def drop(self, src: int, dst: Target, count: int) -> None:
        if not isinstance(dst, int):
            raise IllegalMoveError("Spider has no foundations to drop on: runs go off whole")
        self.game.move(src, dst, count)

    def on_pile_view_clicked(self, event: PileView.Clicked) -> None:
        column = event.column
        if self.selected is not None and self.selected != column:
            src, count = self.selected, self.picked
            self.act("", lambda: self.game.move(src, column, count))
            return
        cards = self.game.columns[column]
        if event.card is None or event.card < len(cards.down):
            self.action_cancel()
            return
        count = len(cards.down) + len(cards.up) - event.card
        if count > self.game.movable(column):
            self.say("only a run of one suit moves as one")
            self.action_cancel()
            return
        self.select(column, count)

    def on_stock_view_clicked(self, event: StockView.Clicked) -> None:
        self.action_deal()

    # --- keys ---------------------------------------------------------------------------------

    def select(self, column: int, count: int) -> None:
        self.selected, self.picked = column, count
        cards = self.game.columns[column].up[-count:]
        them = "them" if len(cards) > 1 else "it"
        self.say(f"{' '.join(map(str, cards))} selected: a column's number moves {them} there")
        self.redraw()

    def action_column(self, column: int) -> None:
        if self.selected is None:
            if not self.game.columns[column].up:
                self.say(f"column {column + 1} is empty")
                return
            self.select(column, self.game.movable(column))
        elif self.selected == column:
            self.select(column, self.picked - 1 or self.game.movable(column))
        else:
            src, count = self.selected, self.picked
            self.act("", lambda: self.game.move(src, column, count))

    def action_deal(self) -> None:
        self.act("dealt", self.game.deal_row)

    def action_off(self) -> None:
        columns = [self.selected] if self.selected is not None else range(10)
        core = self.game.position.core
        off = next((c for c in columns if core.is_legal("off", c, -1, 13)), None)
        if off is None:
            self.say("no complete K-A run of one suit to take off")
            return
        self.act("a run is off", lambda: self.game.take_off(off))

    def advise(self) -> tuple[str, Hint[Any]]:
        if castle_app(self).settings.fair_hints:
            return FAIR_LABEL, self.game.hint(fair=True)
        return THOUGHTFUL_LABEL, self.game.hint(max_seconds=1.5)


__all__ = ["SpiderTableScreen"]
