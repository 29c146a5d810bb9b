"""``castle play``: the full-screen player (Textual).

Screens: the level picker (each level's statistics, and Continue when a game is unfinished),
the table, the menu (it pauses the clock) and the results. Every action goes through
:class:`castle.Game`, which saves after each one.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ..cards import SUITS, Card
from ..errors import CastleError
from ..game import Game, Hint
from ..levels import LEVELS, level
from ..new_game import AnyGame, new_game
from ..playclock import Clock
from ..saves import SaveStore
from ..solve import FOUNDATION
from ..spider_game import SpiderGame, SpiderHint
from .board import ColumnView, FoundationsView, face
from .spider_board import SpiderColumnView, StockView

#: A second click within this many seconds makes a double click: the single click's tap
#: waits this long for it.
DOUBLE_CLICK_SECONDS = 0.3


def clock_text(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds), 60)
    return f"{minutes}:{seconds:02d}"


def plural(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


class CastleApp(App[None]):
    """The player. ``game`` starts at once; without it the level picker comes first."""

    TITLE = "castle"
    CSS = """
    Screen { background: #0b5d2a; }
    #status { height: 1; padding: 0 1; background: #083d1c; color: #f0f0f0; }
    #message { height: 1; padding: 0 1; color: #ffe680; }
    #table { height: 1fr; }
    #picker, #menu { width: 80; height: auto; max-height: 20; margin: 1 2; }
    #title, #results { padding: 1 2; color: #f0f0f0; }
    MenuScreen { align: center middle; }
    """

    def __init__(
        self,
        store: SaveStore,
        game: AnyGame | None = None,
        *,
        clock: Clock = time.monotonic,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__()
        self.store = store
        self.first_game = game
        self.clock = clock
        self.rng = rng
        #: A terminal bell on refused moves and on a win.
        self.sound = True
        #: Spider hints from what the player can see only (``castle.fair``), not every card.
        self.fair_hints = False

    def on_mount(self) -> None:
        for notice in self.store.notices:
            self.notify(f"{notice}; starting afresh", severity="warning", timeout=10)
        self.store.notices.clear()
        if self.first_game is not None:
            self.push_screen(table_for(self.first_game))
        else:
            self.push_screen(LevelPicker())

    def ding(self) -> None:
        if self.sound:
            self.bell()

    def new_game(self, level_id: str) -> None:
        """A new deal at the level (an unfinished game is recorded as lost), on the table."""
        self.show(table_for(new_game(level_id, self.store, clock=self.clock, rng=self.rng)))

    def show(self, screen: Screen[None]) -> None:
        """Make ``screen`` the one screen in play (the menu or results above it go)."""
        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.switch_screen(screen)


class LevelPicker(Screen[None]):
    """Each level with its statistics; Continue when a saved game is unfinished."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "app.quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Static(Text("castle: pick a level, then Enter to play", style="bold"), id="title")
        options = []
        app = self.app
        assert isinstance(app, CastleApp)
        saved = Game.resume(app.store, clock=app.clock, paused=True)
        self.saved = saved if saved is not None and not saved.is_won else None
        if self.saved is not None:
            what = f"deal {self.saved.deal.number}" if self.saved.deal.number else "a deal"
            options.append(
                Option(
                    f"Continue   {level(self.saved.level).name}, {what}, "
                    f"{plural(self.saved.moves, 'move')}, {clock_text(self.saved.seconds)}",
                    id="continue",
                )
            )
        for chosen in LEVELS.values():
            record = app.store.record(chosen.id)
            options.append(
                Option(f"{chosen.name:<9}{chosen.blurb}\n           {record}", id=chosen.id)
            )
        yield OptionList(*options, id="picker")
        yield Footer()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        app = self.app
        assert isinstance(app, CastleApp)
        if event.option.id == "continue" and self.saved is not None:
            app.show(table_for(self.saved))
        elif event.option.id is not None:
            app.new_game(event.option.id)


#: The keys every table shares.
PLAY_BINDINGS = [
    Binding("escape", "cancel", "Cancel", show=False),
    Binding("u,ctrl+z", "undo", "Undo"),
    Binding("r,ctrl+y", "redo", "Redo", show=False),
    Binding("h", "hint", "Hint"),
    Binding("n", "new", "New deal"),
    Binding("m", "menu", "Menu"),
    Binding("q", "quit", "Quit"),
]


class PlayScreen(Screen[None]):
    """What both tables share: the status and message lines, acting on the game (a refusal
    rings and changes nothing; a win opens the results), undo, redo, hint, new deal, menu and
    quit. A table draws itself in ``redraw`` and names its column views in ``column_views``."""

    def __init__(self, game: AnyGame) -> None:
        super().__init__()
        self.game: AnyGame = game
        self.selected: int | None = None
        self.picked = 0

    def on_mount(self) -> None:
        self.game.unpause()
        self.redraw()
        self.set_interval(1, self.show_status)

    def redraw(self) -> None:
        raise NotImplementedError

    def column_views(self) -> list[Widget]:
        raise NotImplementedError

    def status_tail(self) -> str:
        """What the status line ends with (the castle and Spider tables differ)."""
        return ""

    def show_status(self) -> None:
        game = self.game
        where = f"deal {game.deal.number}" if game.deal.number is not None else "custom deal"
        self.query_one("#status", Static).update(
            f"{level(game.level).name} · {where} · moves {game.moves} · "
            f"time {clock_text(game.seconds)} · score {game.score}{self.status_tail()}"
        )

    def say(self, message: str) -> None:
        self.query_one("#message", Static).update(message)

    def act(self, what: str, do: Callable[[], object]) -> None:
        """Run a game action: refused, it changes nothing and rings; done, the table redraws,
        and a win opens the results."""
        self.selected, self.picked = None, 0
        app = self.app
        assert isinstance(app, CastleApp)
        try:
            do()
        except CastleError as e:
            self.say(f"{e}")
            app.ding()
            self.redraw()
            return
        self.say(what)
        self.redraw()
        if self.game.is_won:
            app.ding()
            app.push_screen(ResultsScreen(self.game))

    def action_cancel(self) -> None:
        self.selected, self.picked = None, 0
        self.say("")
        self.redraw()

    def action_undo(self) -> None:
        self.act("undone", self.game.undo)

    def action_redo(self) -> None:
        self.act("redone", self.game.redo)

    def advise(self) -> tuple[str, Hint | SpiderHint]:
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

    def show_hint(self, acted: int, label: str, hint: Hint | SpiderHint) -> None:
        if self.game.moves != acted:
            return
        self.say(f"{label}: {hint}")
        if hint.move is not None:
            for i, view in enumerate(self.column_views()):
                if i in (hint.move.src, hint.move.dst):
                    view.add_class("hint")

    def action_new(self) -> None:
        app = self.app
        assert isinstance(app, CastleApp)
        app.new_game(self.game.level)

    def action_menu(self) -> None:
        self.app.push_screen(MenuScreen(self.game))

    def action_quit(self) -> None:
        self.game.pause()  # saved, clock stopped
        self.app.exit()


class TableScreen(PlayScreen):
    """The game: the foundations, the eight columns, the status line and a message line.

    Keys: a column's number selects its top card (again: one more card of its run), then
    another column's number moves the selected cards there, ``f`` sends the top card up,
    Enter taps it.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n), f"column({n - 1})", show=False) for n in range(1, 9)),
        Binding("f", "foundation", "Foundation"),
        Binding("enter,space", "tap", "Tap", show=False),
        *PLAY_BINDINGS,
    ]

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.game: Game = game
        self.pending_tap: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield FoundationsView()
        with Horizontal(id="table"):
            for i in range(len(self.game.columns)):
                yield ColumnView(i)
        yield Static(id="message")
        yield Footer()

    def status_tail(self) -> str:
        return f" · cards up {self.game.progress}/52"

    def column_views(self) -> list[Widget]:
        return list(self.query(ColumnView))

    def redraw(self) -> None:
        self.show_status()
        self.query_one(FoundationsView).show(self.game.foundations)
        for view in self.query(ColumnView):
            view.remove_class("hint")
            view.show(
                self.game.columns[view.index], self.picked if view.index == self.selected else 0
            )

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

    def on_column_view_clicked(self, event: ColumnView.Clicked) -> None:
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

        self.pending_tap = self.set_timer(DOUBLE_CLICK_SECONDS, tap)


class MenuScreen(ModalScreen[None]):
    """The menu: the clock stops while it is open."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,m", "close", "Resume")]

    def __init__(self, game: AnyGame) -> None:
        super().__init__()
        self.game = game
        self.spider = isinstance(game, SpiderGame)

    def compose(self) -> ComposeResult:
        app = self.app
        assert isinstance(app, CastleApp)
        yield OptionList(
            Option("Resume", id="resume"),
            Option("New deal", id="new"),
            Option(f"Sound: {'on' if app.sound else 'off'} (a terminal bell)", id="sound"),
            *([Option(hints_label(app.fair_hints), id="hints")] if self.spider else []),
            Option("Levels", id="levels"),
            Option("Quit (the game is saved)", id="quit"),
            id="menu",
        )

    def on_mount(self) -> None:
        self.game.pause()

    def action_close(self) -> None:
        self.game.unpause()
        self.dismiss()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        app = self.app
        assert isinstance(app, CastleApp)
        choice = event.option.id
        if choice == "resume":
            self.action_close()
        elif choice == "new":
            app.new_game(self.game.level)
        elif choice == "sound":
            app.sound = not app.sound
            event.option_list.replace_option_prompt(
                "sound", f"Sound: {'on' if app.sound else 'off'} (a terminal bell)"
            )
        elif choice == "hints":
            app.fair_hints = not app.fair_hints
            event.option_list.replace_option_prompt("hints", hints_label(app.fair_hints))
        elif choice == "levels":
            app.show(LevelPicker())
        elif choice == "quit":
            app.exit()


def hints_label(fair: bool) -> str:
    if fair:
        return "Hints: fair (they see only what you see)"
    return "Hints: thoughtful (they see every card)"


class ResultsScreen(Screen[None]):
    """A win: the cards cascade off the table, then moves, time, score and the level's
    statistics."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", "New deal"),
        Binding("l", "levels", "Levels"),
        Binding("q", "app.quit", "Quit"),
    ]
    FRAMES = 24
    ROWS = 8

    def __init__(self, game: AnyGame) -> None:
        super().__init__()
        self.game = game
        self.frame = 0

    def compose(self) -> ComposeResult:
        yield Static(id="cascade")
        yield Static(self.results(), id="results")
        yield Footer()

    def results(self) -> Text:
        app = self.app
        assert isinstance(app, CastleApp)
        game = self.game
        out = Text("You won!\n\n", style="bold")
        out.append(f"Moves  {game.moves}\nTime   {clock_text(game.seconds)}\n")
        out.append(f"Score  {game.score}\n\n")
        out.append(f"{level(game.level).name}: {app.store.record(game.level)}\n")
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
        app = self.app
        assert isinstance(app, CastleApp)
        app.new_game(self.game.level)

    def action_levels(self) -> None:
        app = self.app
        assert isinstance(app, CastleApp)
        app.show(LevelPicker())


class SpiderTableScreen(PlayScreen):
    """A Spider game: the stock and the runs off, the ten columns, status and message lines.

    Keys: a column's number (0 for the tenth) selects the longest run that can move from it
    (again: one card fewer), then another column's number moves the selected cards there;
    ``d`` deals, ``o`` takes a complete run off. A click on a face-up card selects the run
    from it, a click on another column drops the selection there, a click on the stock deals.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(n % 10), f"column({n - 1})", show=False) for n in range(1, 11)),
        Binding("d", "deal", "Deal"),
        Binding("o", "off", "Run off"),
        *PLAY_BINDINGS,
    ]

    def __init__(self, game: SpiderGame) -> None:
        super().__init__(game)
        self.game: SpiderGame = game

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield StockView()
        with Horizontal(id="table"):
            for i in range(10):
                yield SpiderColumnView(i)
        yield Static(id="message")
        yield Footer()

    def column_views(self) -> list[Widget]:
        return list(self.query(SpiderColumnView))

    def redraw(self) -> None:
        self.show_status()
        self.query_one(StockView).show(self.game.stock, self.game.off)
        columns = self.game.columns
        for view in self.query(SpiderColumnView):
            view.remove_class("hint")
            column = columns[view.index]
            picked = self.picked if view.index == self.selected else 0
            view.show(column.down, column.up, picked)

    def select(self, column: int, count: int) -> None:
        self.selected, self.picked = column, count
        cards = self.game.columns[column].up[-count:]
        self.say(f"{' '.join(map(str, cards))} selected: a column's number moves them there")
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

    def advise(self) -> tuple[str, Hint | SpiderHint]:
        app = self.app
        assert isinstance(app, CastleApp)
        if app.fair_hints:
            return "fair hint", self.game.hint(fair=True)
        return super().advise()

    def on_spider_column_view_clicked(self, event: SpiderColumnView.Clicked) -> None:
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


def table_for(game: AnyGame) -> Screen[None]:
    """The table screen that plays ``game``."""
    if isinstance(game, SpiderGame):
        return SpiderTableScreen(game)
    return TableScreen(game)


__all__ = ["CastleApp"]
