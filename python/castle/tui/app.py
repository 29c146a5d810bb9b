"""``castle play``: the full-screen player (Textual).

Screens: the level picker (where it opens: each level's statistics, and Continue when a game
is unfinished; ``picker``), the castle and Spider tables (``table``, ``spider_table``), the
menu and the question before a new deal counts a game as lost (``menu``), the guide
(``guide``) and the results (``results``). Every action goes through :class:`castle.Game` or
:class:`castle.SpiderGame`, which saves after each one; the player's settings are kept with the
statistics (:class:`castle.SaveStore`).
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable
from pathlib import Path

from textual.app import App
from textual.screen import Screen

from ..new_game import AnyGame, new_game
from ..playclock import Clock
from ..records import Settings
from ..saves import SaveStore
from ..table import Table, new_deal_question
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
        if self.first_game is not None:
            self.push_screen(self.table_for(self.first_game))
        else:
            self.push_screen(LevelPicker())

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
        """Spider hints from what the player can see only (``castle.fair``)."""
        return self.settings.fair_hints

    def change_settings(self, **changes: bool) -> None:
        """Change settings, and keep them for the next start."""
        self.settings = dataclasses.replace(self.settings, **changes)
        self.store.save_settings(self.settings)

    def ding(self) -> None:
        if self.settings.sound:
            self.bell()

    # --- where the player goes ----------------------------------------------------------------

    def table_for(self, game: AnyGame) -> PlayScreen:
        """The table screen that plays ``game``."""
        table = Table(game, self.store, clock=self.clock, rng=self.rng)
        return PlayScreen.FOR_KIND[game.KIND](table)

    def new_game(self, level_id: str) -> None:
        """A new deal at the level (an unfinished game is recorded as lost), on the table."""
        self.show(self.table_for(new_game(level_id, self.store, clock=self.clock, rng=self.rng)))

    def new_deal(
        self, level_id: str, unfinished: AnyGame | None, on_keep: Callable[[], None] | None = None
    ) -> None:
        """A new deal at the level; when that counts ``unfinished`` as lost (a move was made
        in it), only if the player says yes (else ``on_keep``)."""
        question = new_deal_question(level_id, unfinished)
        if question is None:
            self.new_game(level_id)
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.new_game(level_id)
            elif on_keep is not None:
                on_keep()

        self.push_screen(ConfirmScreen(question, "New deal", "Keep playing"), answer)

    def show(self, screen: Screen[None]) -> None:
        """Make ``screen`` the one screen in play (the menu or results above it go)."""
        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.switch_screen(screen)

    def show_levels(self) -> None:
        self.show(LevelPicker())


__all__ = [
    "CastleApp",
    "ConfirmScreen",
    "GuideScreen",
    "LevelPicker",
    "MenuScreen",
    "ResultsScreen",
    "SpiderTableScreen",
    "TableScreen",
]
