"""The level picker, where ``castle play`` opens: each level with its statistics (Enter plays
a new deal of it), and Continue first when a saved game is unfinished."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ..game import Game
from ..levels import DEFAULT_LEVEL, LEVELS, level
from ..new_game import AnyGame
from ..words import clock_text, plural
from .common import castle_app
from .guide import GuideScreen


class LevelPicker(Screen[None]):
    """Each level with its statistics; Continue when a saved game is unfinished."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "guide", "Guide", key_display="?"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.saved: AnyGame | None = None

    def compose(self) -> ComposeResult:
        app = castle_app(self)
        options = []
        width = max(len(chosen.name) for chosen in LEVELS.values()) + 2
        saved = Game.resume(app.store, clock=app.clock, paused=True)
        self.saved = saved if saved is not None and not saved.is_won else None
        if self.saved is not None:
            options.append(
                Option(
                    f"{'Continue':<{width}}{level(self.saved.level).name}, {self.saved.deal_name}, "
                    f"{plural(self.saved.moves, 'move')}, {clock_text(self.saved.seconds)}",
                    id="continue",
                )
            )
        for chosen in LEVELS.values():
            record = app.store.record(chosen.id)
            options.append(
                Option(f"{chosen.name:<{width}}{chosen.blurb}\n{'':<{width}}{record}", id=chosen.id)
            )
        title = "castle: pick a level, then Enter to play a new deal"
        if self.saved is not None:
            title = "castle: Continue the unfinished game, or pick a level for a new deal"
        yield Static(Text(title, style="bold"), id="title")
        yield OptionList(*options, id="picker")
        yield Footer()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        app = castle_app(self)
        if event.option.id == "continue" and self.saved is not None:
            app.show(app.table_for(self.saved))
        elif event.option.id is not None:
            app.new_deal(event.option.id, self.saved)

    def action_guide(self) -> None:
        """The guide of the level highlighted (of Continue: its game's level)."""
        highlighted = self.query_one("#picker", OptionList).highlighted_option
        chosen = highlighted.id if highlighted is not None else None
        if chosen == "continue" and self.saved is not None:
            chosen = self.saved.level
        if chosen not in LEVELS:
            chosen = DEFAULT_LEVEL
        self.app.push_screen(GuideScreen(None, level_id=chosen))


__all__ = ["LevelPicker"]
