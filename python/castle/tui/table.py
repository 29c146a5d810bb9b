"""The tables: what the castle and Spider tables share (:class:`PlayScreen`: status and message
lines, the mouse's press, drag and drop, undo, hints, the menu, the guide) and the castle table
(:class:`TableScreen`). The game decides every rule: which moves are legal, where held cards may
go (``targets``), and why a move is refused."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.events import Resize
from textual.geometry import Offset
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer, Static

from ..cards import Card
from ..errors import CastleError
from ..game import Game
from ..new_game import AnyGame
from ..plan import Hint
from ..solve import FOUNDATION, Target
from ..view import status_line
from .board import COLUMN_WIDTH, ColumnView, FoundationsView, HeldCards, PileView
from .common import castle_app, message_text
from .guide import GuideScreen
from .keys import CASTLE_KEYS
from .menu import MenuScreen
from .results import ResultsScreen

#: Lines of the screen besides the columns' cards: the status line, the foundations (or stock)
#: row and the blank under it, the columns' numbers, the message line and the footer.
TABLE_CHROME_ROWS = 6

@dataclass
class Held:
    """Cards the player has pressed on and holds: the top ``count`` of column ``src``."""

    src: int
    count: int
    cards: list[Card]
    #: Where they may go (the game says); none when they cannot move as one.
    targets: list[Target]
    #: Why they cannot move as one (None: they can).
    refusal: str | None
    #: The pointer has left their column.
    dragged: bool = False


class PlayScreen(Screen[None]):
    """What both tables share: the status and message lines, acting on the game (a refusal
    rings and changes nothing; a win opens the results), the mouse's drag and drop, undo,
    redo, hint, new deal, menu, guide and quit. A table draws itself in ``redraw`` and says
    what the mouse may hold (``held_count``)."""

    #: A press and drag here moves cards, never selects text.
    ALLOW_SELECT = False

    def __init__(self, game: AnyGame) -> None:
        super().__init__()
        self.game: AnyGame = game
        self.selected: int | None = None
        self.picked = 0
        self.held: Held | None = None

    #: The row above the columns (the foundations, or Spider's stock).
    TOP_ROW: ClassVar[type[Widget]]

    # --- what each table says -----------------------------------------------------------------

    def piles(self) -> Iterable[PileView]:
        raise NotImplementedError

    def redraw(self) -> None:
        raise NotImplementedError

    def column_cards(self, column: int) -> list[Card]:
        """The cards of ``column`` a player may hold (the face-up ones), bottom first."""
        raise NotImplementedError

    def tallest_column(self) -> int:
        """The most cards a column draws."""
        raise NotImplementedError

    def held_count(self, column: int, card: int | None) -> int | None:
        """How many cards a press on card ``card`` of ``column`` (as drawn, bottom 0; None:
        below the cards) picks up: from it to the top; None when it picks up nothing."""
        raise NotImplementedError

    def lift_refusal(self, src: int, count: int) -> str | None:
        """Why the top ``count`` cards of ``src`` cannot move as one (the game's reason), or
        None."""
        raise NotImplementedError

    def drop(self, src: int, dst: Target, count: int) -> None:
        """Move the held cards to ``dst`` (the game refuses what is not legal)."""
        raise NotImplementedError

    def may_pick_up(self) -> bool:
        return True

    # --- the screen ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield self.TOP_ROW()
        with Horizontal(id="table"):
            yield from self.piles()
        yield Static(id="message")
        yield Static(id="too-small")
        yield HeldCards()
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.game.unpause()
        self.redraw()
        self.fit()
        self.set_interval(1, self.show_status)

    def on_screen_resume(self) -> None:
        self.fit()

    def on_resize(self, event: Resize) -> None:
        self.fit()

    def top_row(self) -> Widget:
        return self.query_one(self.TOP_ROW)

    def column_views(self) -> list[PileView]:
        return list(self.query(PileView))

    def show_status(self) -> None:
        self.query_one("#status", Static).update(status_line(self.game))

    def fit(self) -> None:
        """The table, or what the terminal lacks for it: a table cut off would hide cards."""
        width = len(self.column_views()) * COLUMN_WIDTH + 2
        height = self.tallest_column() + TABLE_CHROME_ROWS
        size = self.size
        lacking = []
        if size.width < width:
            lacking.append(f"{width} columns wide (this one is {size.width}): widen it")
        if size.height < height:
            lacking.append(f"{height} rows tall (this one is {size.height}): make it taller")
        fits = not lacking
        self.query_one("#too-small", Static).update(
            "" if fits else "The table needs a terminal " + "; and ".join(lacking) + "."
        )
        self.query_one("#too-small").display = not fits
        for part in ("#table", "#status", "#message"):
            self.query_one(part).display = fits
        self.top_row().display = fits

    def say(self, message: str) -> None:
        """A message on the message line, cards drawn as on the table."""
        self.query_one("#message", Static).update(message_text(message))

    def act(self, what: str, do: Callable[[], object], *, shake: int | None = None) -> None:
        """Run a game action: refused, it changes nothing and rings (and column ``shake``
        shakes); done, the table redraws, and a win opens the results."""
        self.selected, self.picked = None, 0
        app = castle_app(self)
        try:
            do()
        except CastleError as e:
            self.say(f"{e}")
            app.ding()
            self.redraw()
            if shake is not None:
                self.column_views()[shake].shake()
            return
        self.say(what)
        self.redraw()
        self.fit()
        if self.game.is_won:
            app.ding()
            app.push_screen(ResultsScreen(self.game))

    # --- the mouse: press, drag, drop ---------------------------------------------------------

    def on_pile_view_pressed(self, event: PileView.Pressed) -> None:
        self.let_go()
        if not self.may_pick_up():
            return
        count = self.held_count(event.column, event.card)
        if count is None:
            return
        self.selected, self.picked = None, 0
        cards = self.column_cards(event.column)[-count:]
        refusal = self.lift_refusal(event.column, count)
        targets = [] if refusal else self.game_targets(event.column, count)
        self.held = Held(event.column, count, cards, targets, refusal)
        self.mark(targets)
        self.redraw()

    def game_targets(self, src: int, count: int) -> list[Target]:
        return list(self.game.targets(src, count))

    def on_pile_view_dragged(self, event: PileView.Dragged) -> None:
        held = self.held
        if held is None:
            return
        if not held.dragged:
            held.dragged = True
            if held.refusal is not None:
                # These cards cannot move as one: they are not lifted.
                self.refuse(held, held.refusal)
                return
            cards = " ".join(map(str, held.cards))
            self.say(
                f"{cards}: let go over a marked place to move there"
                if held.targets
                else f"{cards}: nowhere to go now"
            )
        if held.refusal is not None:
            return
        self.query_one(HeldCards).carry(held.cards, event.offset - Offset(2, 0))
        over = self.place_at(event.offset)
        for i, view in enumerate(self.column_views()):
            view.set_class(i == over, "over")
        self.top_row().set_class(over == FOUNDATION, "over")

    def on_pile_view_released(self, event: PileView.Released) -> None:
        held = self.held
        self.let_go()
        if held is None:
            return
        if not event.dragged:
            self.redraw()  # a click: it follows
            return
        if held.refusal is not None:
            if not held.dragged:  # no move was seen before the release
                self.refuse(held, held.refusal)
            return
        place = self.place_at(event.offset)
        if place == held.src:
            self.say("put back")
            self.redraw()
        elif place is None:
            self.refuse(held, "the cards go back: drop them on a marked column")
        else:
            src, count = held.src, held.count
            self.act("", lambda: self.drop(src, place, count), shake=src)

    def refuse(self, held: Held, reason: str) -> None:
        """A drag refused: the cards go back, their column shakes, the reason is shown."""
        self.let_go()
        self.say(reason)
        castle_app(self).ding()
        self.redraw()
        self.column_views()[held.src].shake()

    def place_at(self, offset: Offset) -> Target | None:
        """The column (or the foundations row) at ``offset`` on the screen; None elsewhere."""
        for view in self.column_views():
            if view.region.contains_point(offset):
                return view.index
        top = self.top_row()
        if isinstance(top, FoundationsView) and top.region.contains_point(offset):
            return FOUNDATION
        return None

    def mark(self, targets: list[Target]) -> None:
        for view in self.column_views():
            view.set_class(view.index in targets, "target")
        self.top_row().set_class(FOUNDATION in targets, "target")

    def let_go(self) -> None:
        """No cards held: the marks and the held cards go."""
        self.held = None
        self.mark([])
        for view in self.column_views():
            view.remove_class("over")
        self.top_row().remove_class("over")
        self.query_one(HeldCards).drop()

    def picked_on(self, column: int) -> int:
        """How many top cards of ``column`` to draw selected (held or chosen by keys)."""
        if self.held is not None and self.held.src == column and self.held.refusal is None:
            return self.held.count
        return self.picked if column == self.selected else 0

    # --- keys ---------------------------------------------------------------------------------

    def action_cancel(self) -> None:
        self.selected, self.picked = None, 0
        self.let_go()
        self.say("")
        self.redraw()

    def action_undo(self) -> None:
        self.act("undone", self.game.undo)

    def action_redo(self) -> None:
        self.act("redone", self.game.redo)

    def advise(self) -> tuple[str, Hint[Any]]:
        """What ``h`` shows: a label and the hint."""
        return "hint", self.game.hint(max_seconds=1.5)

    def action_hint(self) -> None:
        # The solver runs in a thread (it lets go of the GIL), so the table stays live while it
        # thinks; a hint that comes back after the player has acted is dropped.
        self.say("thinking…")
        acted = self.game.moves
        self.run_worker(
            lambda: self.app.call_from_thread(self.show_hint, acted, *self.advise()),
            thread=True,
            exclusive=True,
            group="hint",
        )

    def show_hint(self, acted: int, label: str, hint: Hint[Any]) -> None:
        if self.game.moves != acted:
            return
        self.say(f"{label}: {hint}")
        if hint.move is not None:
            for i, view in enumerate(self.column_views()):
                if i in (hint.move.src, hint.move.dst):
                    view.add_class("hint")

    def action_new(self) -> None:
        """A new deal at the level; the player is asked first when that loses this game."""
        game = self.game
        game.pause()

        def kept() -> None:
            game.unpause()

        castle_app(self).new_deal(game.level, game, on_keep=kept)

    def action_menu(self) -> None:
        self.app.push_screen(MenuScreen(self.game))

    def action_guide(self) -> None:
        self.app.push_screen(GuideScreen(self.game))

    def action_quit(self) -> None:
        self.game.pause()  # saved, clock stopped
        self.app.exit()


class TableScreen(PlayScreen):
    """The castle game: the foundations, the eight columns, the status line and a message
    line.

    Keys: a column's number selects its top card (again: one more card of its run), then
    another column's number moves the selected cards there, ``f`` sends the top card up,
    Enter taps it. The mouse: a click taps a column, a double click sends its top card up, a
    drag carries the cards from the one pressed to the top.
    """

    BINDINGS: ClassVar[list[BindingType]] = CASTLE_KEYS

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.game: Game = game
        self.pending_tap: Timer | None = None

    TOP_ROW = FoundationsView

    def piles(self) -> Iterable[PileView]:
        return [ColumnView(i) for i in range(len(self.game.columns))]

    def column_cards(self, column: int) -> list[Card]:
        return self.game.columns[column]

    def tallest_column(self) -> int:
        return max(len(cards) for cards in self.game.columns)

    def redraw(self) -> None:
        self.show_status()
        self.query_one(FoundationsView).show(self.game.foundations)
        for view in self.query(ColumnView):
            view.remove_class("hint")
            view.show(self.game.columns[view.index], self.picked_on(view.index))

    def held_count(self, column: int, card: int | None) -> int | None:
        cards = self.game.columns[column]
        if not cards:
            return None
        return 1 if card is None else len(cards) - card

    def drop(self, src: int, dst: Target, count: int) -> None:
        self.game.move(src, dst, count)

    def lift_refusal(self, src: int, count: int) -> str | None:
        return self.game.lift_refusal(src, count)

    def action_column(self, column: int) -> None:
        if self.selected is None:
            if not self.game.columns[column]:
                self.say(f"column {column + 1} is empty")
                return
            self.selected, self.picked = column, 1
            self.say(f"{self.game.columns[column][-1]} selected: a column's number moves it there")
        elif self.selected == column:
            cards = self.game.columns[column]
            run = self.picked + 1
            self.picked = run if run <= self.game.run_length(column) else 1
            self.say(f"{' '.join(map(str, cards[-self.picked :]))} selected")
        else:
            src, count = self.selected, self.picked
            self.act("", lambda: self.game.move(src, column, count))
            return
        self.redraw()

    def action_foundation(self) -> None:
        if self.selected is None:
            self.say("select a column first (1-8), then f")
            return
        src = self.selected
        self.act("", lambda: self.game.move(src, FOUNDATION))

    def action_tap(self) -> None:
        if self.selected is not None:
            src = self.selected
            self.act("", lambda: self.game.tap(src))

    def on_pile_view_clicked(self, event: PileView.Clicked) -> None:
        if self.pending_tap is not None:
            self.pending_tap.stop()
            self.pending_tap = None
        column = event.column
        if event.double:
            self.act("", lambda: self.game.double_tap(column))
            return

        def tap() -> None:
            self.pending_tap = None
            self.act("", lambda: self.game.tap(column))

        # The tap waits as long as a second click would still make a double click (Textual's
        # own threshold, which the app sets), so a double click never taps first.
        self.pending_tap = self.set_timer(self.app.CLICK_CHAIN_TIME_THRESHOLD, tap)


__all__ = ["PlayScreen", "TableScreen"]
