"""The menu (``castle.tui.menu``): a new deal from it, asked first, records the loss."""

from __future__ import annotations

import asyncio
from pathlib import Path

from castle import Game, LevelRecord, SaveStore
from castle.tui.app import CastleApp, ConfirmScreen, TableScreen
from piloting import DEAL


def test_the_menu_starts_a_new_deal_and_records_the_loss(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = Game.new("medium", deal=DEAL, store=store)

    async def play() -> None:
        app = CastleApp(store, game)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press("7", "8")  # TH onto JH
            await pilot.press("m", "down", "enter")  # New deal: it asks first
            await pilot.pause()
            assert isinstance(app.screen, ConfirmScreen)
            await pilot.press("y")
            await pilot.pause()
            assert isinstance(app.screen, TableScreen) and app.screen.game is not game
            assert len(app.screen_stack) == 2  # the menu is gone, not stacked

    asyncio.run(play())
    assert store.record("medium") == LevelRecord(0, 1, 0, 0)
