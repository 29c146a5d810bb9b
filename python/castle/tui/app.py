"""``castle play``: the full-screen player (Textual).

Screens: the level picker (where it opens: each level's statistics, and Continue when a game
is unfinished; ``picker``), the castle and Spider tables (``table``, ``spider_table``), the
menu and the question before a new deal counts a game as lost (``menu``), the guide
(``guide``) and the results (``results``). Every action goes through :class:`castle.Game` or
:class:`castle.SpiderGame`, which saves after each one; the player's settings are kept with the
statistics (:class:`castle.SaveStore`).

The app opens the picker or a table, each with a callback (Textual's ``push_screen``): the
screen closes handing back where the player goes next (``goto``), and the app opens that. The
screens over a table hand their answers to the table the same way; the menu tells the app of a
changed setting by a message, and the app gives the table the settings it plays by.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from textual.app import App
from textual.screen import Screen

from ..game.new_game import AnyGame, new_game
from ..game.playclock import Clock
from ..saves.records import Settings
from ..saves.store import SaveStore
from ..table.table import Table
from .cells_table import CellsTableScreen
from .goto import Goto, Levels, NewDeal, Play
from .guide import GuideScreen
from .menu import ConfirmScreen, MenuScreen
from .picker import LevelPicker
from .results import ResultsScreen
from .spider_table import SpiderTableScreen
from .table import PlayScreen, TableScreen


class CastleApp(App[None]):
    """The player. ``game`` starts at once; without it the level picker comes first."""

    TITLE = "castle"
    #: Beside this file, wherever a subclass is defined.
    CSS_PATH = Path(__file__).with_name("castle.tcss")
    #: A second click within this many seconds makes a double click; a single click's tap
    #: waits this long for it (Textual's default, 0.5 s, made a click feel slow).
    CLICK_CHAIN_TIME_THRESHOLD = 0.3
    #: The footer's room goes to the game's keys.
    ENABLE_COMMAND_PALETTE = False

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
        #: Sound, and the kind of Spider hint: as the player left them last time.
        self.settings: Settings = store.settings()

    def on_mount(self) -> None:
        # What was found wrong with the save files so far, then each thing as it is found
        # (a corrupt statistics file, say, when the picker first reads it).
        for notice in self.store.notices:
            self.warn(notice)
        self.store.notices.clear()
        self.store.on_notice = self.warn
        self.go(Levels() if self.first_game is None else Play(self.first_game))

    def on_unmount(self) -> None:
        self.store.on_notice = None

    def warn(self, notice: str) -> None:
        self.notify(notice, title="Your saves", severity="warning", timeout=15)

    # --- settings -----------------------------------------------------------------------------

    @property
    def sound(self) -> bool:
        """A terminal bell on refused moves and on a win."""
        return self.settings.sound

    @property
    def fair_hints(self) -> bool:
        """Spider hints from what the player can see only (``castle.game.fair``)."""
        return self.settings.fair_hints

    def on_menu_screen_settings_changed(self, message: MenuScreen.SettingsChanged) -> None:
        """Settings changed in the menu: the table under it plays by them, and they are kept
        for the next start."""
        self.settings = message.settings
        self.store.save_settings(self.settings)
        for screen in self.screen_stack:
            if isinstance(screen, PlayScreen):
                screen.settings = self.settings

    # --- where the player goes ----------------------------------------------------------------

    def table_for(self, game: AnyGame) -> PlayScreen:
        """The table screen that plays ``game``."""
        table = Table(game, self.store, clock=self.clock, rng=self.rng)
        return PlayScreen.FOR_KIND[game.KIND](table, self.settings)

    def go(self, where: Goto | None) -> None:
        """Open the table or the picker ``where`` names; what it hands back when it closes
        says where next. A new deal records an unfinished game it ends as lost (the player
        has said yes to that)."""
        screen: Screen[Goto]
        if isinstance(where, Play):
            screen = self.table_for(where.game)
        elif isinstance(where, NewDeal):
            game = new_game(where.level_id, self.store, where.deal, clock=self.clock, rng=self.rng)
            screen = self.table_for(game)
        else:  # the levels (nowhere named: the picker too, rather than a blank screen)
            screen = LevelPicker(self.store, self.clock)
        self.push_screen(screen, self.go)


__all__ = [
    "CastleApp",
    "CellsTableScreen",
    "ConfirmScreen",
    "GuideScreen",
    "LevelPicker",
    "MenuScreen",
    "ResultsScreen",
    "SpiderTableScreen",
    "TableScreen",
]
