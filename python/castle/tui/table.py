"""The tables: what the castle and Spider tables share (:class:`PlayScreen`: status and message
lines, the mouse's press, drag and drop, undo, hints, the menu, the guide) and the castle table
(:class:`TableScreen`). The game decides every rule: which moves are legal, where held cards may
go (``targets``), and why a move is refused. A table closes handing back where the player goes
next (:mod:`.goto`): a new deal, or what the results or the menu over it handed back."""

from __future__ import annotations

from collections.abc import Callable
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

from ..actions import (
    Cancel,
    DoubleTap,
    Drop,
    Pick,
    PlayHint,
    Put,
    Redo,
    TableAction,
    Tap,
    Undo,
)
from ..game.game import Game
from ..game.new_game import AnyGame
from ..game.plan import Hint
from ..saves.records import Settings
from ..solving.solve import FOUNDATION, Target
from ..table.table import Reply, Table
from ..table.view import Lift, View
from .board import COLUMN_WIDTH, CastleColumnView, FoundationsView, HeldCards, PileView
from .common import message_text
from .fold import FEWEST_ROWS
from .goto import Goto, NewDeal
from .guide import GuideScreen
from .keys import CASTLE_KEYS
from .menu import ConfirmScreen, MenuScreen, ask_new_deal
from .results import ResultsScreen

#: Lines of the screen besides the columns' cards: the status line, the foundations (or stock)
#: row and the blank under it, the columns' numbers, the message line and the footer. A column
#: taller than the rows left is folded (:mod:`.fold`), down to :data:`FEWEST_ROWS` lines.
TABLE_CHROME_ROWS = 6

#: Seconds a hint may take before the table says it is thinking: a quicker one shows no sign
#: (a sign that comes and goes at once would only flicker).
THINKING_DELAY = 0.3


@dataclass
class Held:
    """Cards the player has pressed on and holds (what :meth:`castle.Table.lift` says of
    them: where they may go, or why they cannot move as one)."""

    lift: Lift
    #: The pointer has left their column.
    dragged: bool = False


class PlayScreen(Screen[Goto]):
    """What both tables share: the status and message lines, acting on the game through its
    :class:`castle.Table` (a refusal rings and changes nothing; a win opens the results), the
    mouse's drag and drop, undo, redo, hint, new deal, menu, guide and quit. A table draws its
    top row (``show_top``) and turns its keys and clicks into actions. ``settings``: the
    player's (the app sets them anew when the menu changes them)."""

    #: A press and drag here moves cards, never selects text.
    ALLOW_SELECT = False
    #: The kind of game (``Played.KIND``) a table screen plays, and each kind's screen, entered
    #: as it is defined: the app opens the one for the game's kind without asking the game's type.
    KIND: ClassVar[str]
    FOR_KIND: ClassVar[dict[str, type[PlayScreen]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kind = cls.__dict__.get("KIND")
        if kind is not None:
            PlayScreen.FOR_KIND[kind] = cls

    def __init__(self, table: Table, settings: Settings) -> None:
        super().__init__()
        self.table = table
        self.settings = settings
        self.held: Held | None = None
        #: The game's moves when the hint being searched was asked; None: none is.
        self.hint_asked: int | None = None
        #: Whether the hint asked (or shown) peeks: h plays a shown hint of the kind the
        #: settings ask for, and asks anew once the menu has changed them.
        self.hint_peeks = False
        self.thinking_timer: Timer | None = None

    @property
    def game(self) -> AnyGame:
        return self.table.game

    #: The row above the columns (the foundations, or Spider's stock).
    TOP_ROW: ClassVar[type[Widget]]
    #: The widget that draws a column.
    PILE: ClassVar[type[PileView]]
    #: What else the top row holds, shown only when the table fits (selectors).
    TOP_PARTS: ClassVar[tuple[str, ...]] = ()

    def show_top(self, view: View) -> None:
        raise NotImplementedError

    def may_pick_up(self) -> bool:
        return True

    # --- the screen ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield from self.compose_top()
        with Horizontal(id="table"):
            yield from self.compose_columns()
        with Horizontal(id="message-row"):
            yield Static(id="message")
            yield Static("thinking…", id="thinking")
        yield Static(id="too-small")
        yield HeldCards()
        yield Footer(compact=True)

    def compose_top(self) -> ComposeResult:
        """The row above the columns."""
        yield self.TOP_ROW()

    def compose_columns(self) -> ComposeResult:
        """The columns: a pile view for each of the game's piles."""
        yield from (self.PILE(i) for i in range(len(self.table.piles())))

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
        """Every pile view, by its place's number (the columns, then any cells)."""
        return sorted(self.query(PileView), key=lambda view: view.index)

    def show_status(self) -> None:
        self.query_one("#status", Static).update(self.game.headline)

    def redraw(self) -> None:
        """The table as the game's view has it; cards held by the mouse are drawn picked up,
        and the places they may go marked (else those of the cards selected by keys)."""
        view = self.table.view()
        self.show_status()
        self.show_top(view)
        held = self.held.lift if self.held is not None else None
        if held is not None and held.refusal is not None:
            held = None
        targets = (held or view.selection or NO_LIFT).targets
        places = (*view.columns, *(view.cells or ()))
        for pile in self.column_views():
            column = places[pile.index]
            picked = held.count if held is not None and held.src == pile.index else column.picked
            pile.set_class(column.hinted, "hint")
            pile.show(column, picked, hinted_cards(view, pile.index))
        self.mark(list(targets))

    def fewest_rows(self) -> int:
        """The fewest rows the columns' cards fold into (:mod:`.fold`)."""
        return min(FEWEST_ROWS, max(down + len(cards) for down, cards in self.table.piles()))

    def table_width(self) -> int:
        """The columns the table needs on the screen."""
        return len(self.column_views()) * COLUMN_WIDTH + 2

    def fit(self) -> None:
        """The table, or what the terminal lacks for it: a table cut off would hide cards (a
        tall column folds, so that only a terminal smaller than any fold says so)."""
        width = self.table_width()
        height = self.fewest_rows() + TABLE_CHROME_ROWS
        size = self.size
        lacking: list[str] = []
        if size.width < width:
            lacking.append(f"{width} columns wide (this one is {size.width}): widen it")
        if size.height < height:
            lacking.append(f"{height} rows tall (this one is {size.height}): make it taller")
        fits = not lacking
        self.query_one("#too-small", Static).update(
            "" if fits else "The table needs a terminal " + "; and ".join(lacking) + "."
        )
        self.query_one("#too-small").display = not fits
        for part in ("#table", "#status", "#message-row", *self.TOP_PARTS):
            self.query_one(part).display = fits
        self.top_row().display = fits

    def say(self, message: str) -> None:
        """A message on the message line, cards drawn as on the table."""
        self.query_one("#message", Static).update(message_text(message))

    def act(self, action: TableAction) -> Reply:
        """Do a game action: refused, it changes nothing and rings (and the column whose cards
        go back shakes); done, the table redraws, and a win opens the results."""
        reply = self.table.act(action)
        if self.hint_asked is not None and self.game.moves != self.hint_asked:
            self.stop_thinking()  # the player has moved on: that hint would come too late
        self.say(reply.message)
        self.redraw()
        if not reply.done:
            self.ding()
            if reply.shake is not None:
                self.column_views()[reply.shake].shake()
            return reply
        self.fit()
        if self.game.is_won:
            self.ding()
            self.app.push_screen(ResultsScreen(self.table.view()), self.leave)
        return reply

    def ding(self) -> None:
        """The terminal's bell, if the player has the sound on."""
        if self.settings.sound:
            self.app.bell()

    def leave(self, where: Goto | None) -> None:
        """Go where a screen over the table sent the player (None: back to this table)."""
        if where is not None:
            self.dismiss(where)

    # --- the mouse: press, drag, drop ---------------------------------------------------------

    def on_pile_view_pressed(self, event: PileView.Pressed) -> None:
        self.let_go()
        if not self.may_pick_up():
            return
        count = self.held_count(event.column, event.card)
        if count is None:
            return
        self.table.act(Cancel())
        self.held = Held(self.table.lift(event.column, count))
        self.redraw()

    def held_count(self, column: int, card: int | None) -> int | None:
        """How many cards a press on card ``card`` of ``column`` (as drawn, bottom 0; None:
        below the cards) picks up: from it to the top; None for a face-down card or none."""
        down, cards = self.table.piles()[column]
        if not cards:
            return None
        if card is None:
            return 1
        if card < down:
            return None
        return down + len(cards) - card

    def on_pile_view_dragged(self, event: PileView.Dragged) -> None:
        held = self.held
        if held is None:
            return
        if not held.dragged:
            held.dragged = True
            if held.lift.refusal is not None:
                # These cards cannot move as one: they are not lifted.
                self.refuse(held, held.lift.refusal)
                return
            cards = " ".join(map(str, held.lift.cards))
            self.say(
                f"{cards}: let go over a marked place to move there"
                if held.lift.targets
                else f"{cards}: nowhere to go now"
            )
        if held.lift.refusal is not None:
            return
        self.query_one(HeldCards).carry(list(held.lift.cards), event.offset - Offset(2, 0))
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
        lift = held.lift
        if lift.refusal is not None:
            if not held.dragged:  # no move was seen before the release
                self.refuse(held, lift.refusal)
            return
        place = self.place_at(event.offset)
        if place == lift.src:
            self.say("put back")
            self.redraw()
        elif place is None:
            self.refuse(held, "the cards go back: drop them on a marked column")
        else:
            self.act(Drop(lift.src, place, lift.count))

    def refuse(self, held: Held, reason: str) -> None:
        """A drag refused: the cards go back, their column shakes, the reason is shown."""
        self.let_go()
        self.say(reason)
        self.ding()
        self.redraw()
        self.column_views()[held.lift.src].shake()

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

    # --- keys ---------------------------------------------------------------------------------

    def action_cancel(self) -> None:
        self.let_go()
        self.act(Cancel())

    def action_undo(self) -> None:
        self.act(Undo())

    def action_redo(self) -> None:
        self.act(Redo())

    def action_hint(self) -> None:
        """Ask for a hint; with a hint shown, play it (h, h, h... plays a game hint by hint).
        The solver runs in a thread (it lets go of the GIL), so the table stays live while it
        thinks: the player may move, undo, open the menu. Past
        :data:`THINKING_DELAY` a sign says it is thinking. h again while it thinks of this
        same position starts no second search (its answer is on the way; the sign shows at
        once): a second search would only halve the first's share of the machine. A hint
        that comes back after the player has moved is dropped, and h asks again."""
        acted = self.game.moves
        if self.hint_asked == acted:
            self.show_thinking()
            return
        peek = not self.settings.fair_hints
        if self.table.hint_action is not None and self.hint_peeks == peek:
            self.act(PlayHint())  # h again: the hint shown is played
            return
        self.stop_thinking()
        self.hint_asked = acted
        self.hint_peeks = peek
        self.thinking_timer = self.set_timer(THINKING_DELAY, self.show_thinking)
        self.run_worker(
            lambda: self.app.call_from_thread(self.show_hint, acted, *self.table.advice(peek)),
            thread=True,
            exclusive=True,
            group="hint",
        )

    def show_hint(self, acted: int, label: str, hint: Hint[Any]) -> None:
        if acted != self.hint_asked:
            return  # an earlier search's, asked before the player moved
        self.stop_thinking()
        reply = self.table.show_advice(label, hint, acted)
        if reply is None:
            return
        self.say(reply.message)
        self.redraw()
        if reply.question is not None:
            self.offer_new_deal(reply.question)

    def offer_new_deal(self, question: str) -> None:
        """The hint has no move left to give: ``question`` offers a new deal (the game counts
        as lost); no, and the game goes on as it was."""

        def ask(answer: Callable[[bool], None]) -> None:
            confirm = ConfirmScreen(question, "Deal again", "Keep playing")
            self.app.push_screen(confirm, lambda yes: answer(bool(yes)))

        self.new_deal_if(ask)

    def show_thinking(self) -> None:
        self.query_one("#thinking").display = True

    def stop_thinking(self) -> None:
        """No hint awaited: the sign goes, and so does its timer (a hint quicker than the
        delay never shows it)."""
        self.hint_asked = None
        if self.thinking_timer is not None:
            self.thinking_timer.stop()
            self.thinking_timer = None
        self.query_one("#thinking").display = False

    def action_new(self) -> None:
        """A new deal at the level; the player is asked first when that loses this game."""
        game = self.game
        self.new_deal_if(lambda answer: ask_new_deal(self, game.level, game, answer))

    def new_deal_if(self, ask: Callable[[Callable[[bool], None]], None]) -> None:
        """The clock stopped while ``ask(answer)`` asks the player: yes, a new deal at the
        level (the app records this game's loss); no, play goes on as it was."""
        game = self.game
        game.pause()

        def answer(yes: bool) -> None:
            if yes:
                self.dismiss(NewDeal(game.level))
            else:
                game.unpause()

        ask(answer)

    def action_menu(self) -> None:
        self.app.push_screen(MenuScreen(self.game, self.settings), self.leave)

    def action_guide(self) -> None:
        self.app.push_screen(GuideScreen(self.game))

    def action_quit(self) -> None:
        self.game.pause()  # saved, clock stopped
        self.app.exit()


class TapScreen(PlayScreen):
    """A table whose clicks tap (the castle and free-cell tables): a column's number selects
    its top card (again: one more card of its run), then another place's number moves the
    selected cards there, ``f`` sends the top card up, Enter taps it. The mouse: a click taps
    a column, a double click sends its top card up, a drag carries the cards from the one
    pressed to the top."""

    TOP_ROW = FoundationsView

    def __init__(self, table: Table, settings: Settings) -> None:
        super().__init__(table, settings)
        self.pending_tap: Timer | None = None

    def show_top(self, view: View) -> None:
        self.query_one(FoundationsView).show(view.foundations or {}, view.cards_up or 0)

    def action_column(self, column: int) -> None:
        self.act(Pick(column))

    def action_foundation(self) -> None:
        if self.table.selected is None:
            self.say("select a column first (its number), then f")
            return
        self.act(Put(FOUNDATION))

    def action_tap(self) -> None:
        if self.table.selected is not None:
            self.act(Tap(self.table.selected[0]))

    def on_pile_view_clicked(self, event: PileView.Clicked) -> None:
        if self.pending_tap is not None:
            self.pending_tap.stop()
            self.pending_tap = None
        column = event.column
        if event.double:
            self.act(DoubleTap(column))
            return

        def tap() -> None:
            self.pending_tap = None
            self.act(Tap(column))

        # The tap waits as long as a second click would still make a double click (Textual's
        # own threshold, which the app sets), so a double click never taps first.
        self.pending_tap = self.set_timer(self.app.CLICK_CHAIN_TIME_THRESHOLD, tap)


class TableScreen(TapScreen):
    """The castle game: the foundations, the eight columns, the status line and a message
    line; the keys and the mouse of :class:`TapScreen`."""

    BINDINGS: ClassVar[list[BindingType]] = CASTLE_KEYS

    KIND = "castle"
    PILE = CastleColumnView

    def __init__(self, table: Table, settings: Settings) -> None:
        assert isinstance(table.game, Game)
        super().__init__(table, settings)

    @property
    def game(self) -> Game:
        game = self.table.game
        assert isinstance(game, Game)  # a new deal makes a new screen
        return game


#: No cards held or selected: nowhere to mark.
NO_LIFT = Lift(0, 0, (), (), None)


def hinted_cards(view: View, column: int) -> tuple[int, ...]:
    """The first face-up card of ``column`` (an index of its cards) that the hint shown moves,
    if it moves a run from there: no fold may hide it."""
    hint = view.hint or {}
    count = hint.get("count")
    if hint.get("src") != column or not isinstance(count, int) or column >= len(view.columns):
        return ()
    return (len(view.columns[column].cards) - count,)


__all__ = ["PlayScreen", "TableScreen", "TapScreen"]
