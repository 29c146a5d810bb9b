"""The results of a win (``castle.tui.results``): a deal won through key presses, the cards
cascading off the table, the moves and the level's statistics."""

from __future__ import annotations

import asyncio
from pathlib import Path

import castle
from castle import Game, LevelRecord, SaveStore
from castle.tui.app import CastleApp, ResultsScreen, TableScreen
from piloting import DEAL, keys_for
from playing import until
from textual.widgets import Static


def falling(app: CastleApp) -> bool:
    """Whether the results' cascade shows a king."""
    return "K" in str(app.screen.query_one("#cascade", Static).render())


def test_a_deal_is_won_through_key_presses(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = Game.new("medium", deal=DEAL, store=store)
    moves = castle.solve(DEAL).moves

    async def play() -> None:
        app = CastleApp(store, game)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, TableScreen)
            for move in moves:
                if game.is_won:
                    break
                await pilot.press(*keys_for(move))
            # The cards cascade off the table: kings falling, frame after frame (waited for,
            # not a fixed pause: on a busy machine the results come late).
            await until(pilot, lambda: isinstance(app.screen, ResultsScreen) and falling(app))
            assert isinstance(app.screen, ResultsScreen)
            results = str(app.screen.results())
            assert "You won!" in results and f"Moves  {game.moves}" in results
            assert "1 won, 0 lost (100%); streak 1, best 1" in results
            await pilot.press("q")

    asyncio.run(play())
    assert game.is_won and game.moves == len(moves)
    assert store.record("medium") == LevelRecord(1, 0, 1, 1)
