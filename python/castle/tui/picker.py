"""The level picker, where ``castle play`` opens: each level with its statistics (Enter plays
a new deal of it, ``d`` a deal by its number), and Continue first when a saved game is
unfinished. The choice is handed
back (:mod:`.goto`)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from ..game.game import Game
from ..game.levels import DEFAULT_LEVEL, LEVELS, level
from ..game.new_game import AnyGame
from ..game.playclock import Clock
from ..saves.store import SaveStore
from ..words import clock_text, plural
from .deal_number import DealNumberScreen
from .goto import Goto, NewDeal, Play
from .guide import GuideScreen
from .menu import ask_new_deal


class LevelPicker(Screen[Goto]):
    """Each level with its statistics (in ``store``); Continue when a saved game is
    unfinished (its time kept by ``clock``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "deal_number", "Deal by number"),
        Binding("question_mark", "guide", "Guide", key_display="?"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, store: SaveStore, clock: Clock) -> None:
        super().__init__()
        self.store = store
        self.clock = clock
        self.saved: AnyGame | None = None

    def compose(self) -> ComposeResult:
        options = []
        width = max(len(chosen.name) for chosen in LEVELS.values()) + 2
        saved = Game.resume(self.store, clock=self.clock, paused=True)
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
            record = self.store.record(chosen.id)
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
        chosen = event.option.id
        if chosen == "continue" and self.saved is not None:
            self.dismiss(Play(self.saved))
        elif chosen is not None:
            self.new_deal(chosen)

    def new_deal(self, level_id: str, deal: int | None = None) -> None:
        """A new deal at the level (``deal``, else one it picks), once the player says an
        unfinished game may count as lost."""

        def answer(yes: bool) -> None:
            if yes:  # else the picker stays
                self.dismiss(NewDeal(level_id, deal))

        ask_new_deal(self, level_id, self.saved, answer)

    def action_deal_number(self) -> None:
        """A deal by its number, at the level highlighted (Continue's: its game's level)."""
        level_id = self.highlighted_level()

        def chosen(number: int | None) -> None:
            if number is not None:
                self.new_deal(level_id, number)

        self.app.push_screen(DealNumberScreen(level_id), chosen)

    def highlighted_level(self) -> str:
        highlighted = self.query_one("#picker", OptionList).highlighted_option
        chosen = highlighted.id if highlighted is not None else None
        if chosen == "continue" and self.saved is not None:
            chosen = self.saved.level
        return chosen if chosen in LEVELS else DEFAULT_LEVEL

    def action_guide(self) -> None:
        """The guide of the level highlighted (of Continue: its game's level)."""
        self.app.push_screen(GuideScreen(None, level_id=self.highlighted_level()))


__all__ = ["LevelPicker"]
