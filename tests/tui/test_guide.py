"""The guide (``castle.tui.guide``): the rules of the table's game, the clock stopped while it
is open, every key of the table named."""

from __future__ import annotations

from pathlib import Path

from castle import Game, SaveStore, SpiderGame
from castle.tui.app import CastleApp, GuideScreen, MenuScreen, SpiderTableScreen, TableScreen
from castle.tui.guide import guide_markdown
from piloting import DEAL, SPIDER_ENDGAME, run
from textual.pilot import Pilot
from textual.widgets import Markdown, OptionList


def test_the_guide_shows_the_castle_rules_and_stops_the_clock(tmp_path: Path) -> None:
    game = Game.new("medium", deal=DEAL, store=SaveStore(tmp_path))

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        assert isinstance(app.screen, GuideScreen) and game.paused
        text = app.screen.query_one(Markdown).source
        for part in ("Drag", "## 1. The castle family", "### Supermove", "### The score"):
            assert part in text
        assert "## Your level: Medium" in text and "### Castle games" in text  # and the tips
        assert "## 4. Spider" not in text and "### Spider" not in text
        assert "### Keys of `castle play`" in text and "## 2. Board text" not in text
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen) and not game.paused
        for key in ("q", "question_mark"):
            await pilot.press("question_mark")
            await pilot.press(key)
            assert isinstance(app.screen, TableScreen)
        # The menu opens it too, and it closes back to the menu, the clock still stopped.
        await pilot.press("m")
        menu = app.screen.query_one("#menu", OptionList)
        prompts = [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)]
        await pilot.press(*["down"] * prompts.index("Guide (?)"), "enter")
        assert isinstance(app.screen, GuideScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen) and game.paused

    run(CastleApp(SaveStore(tmp_path), game), play)


def test_the_guide_at_a_spider_table_shows_spider_s_rules(tmp_path: Path) -> None:
    game = SpiderGame(SPIDER_ENDGAME, store=SaveStore(tmp_path))

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        text = app.screen.query_one(Markdown).source
        for part in ("## 4. Spider", "### The Spider score", "### Undo and redo", "### Spider"):
            assert part in text
        assert "## 1. The castle family" not in text and "### Castle games" not in text
        await pilot.press("escape")

    run(CastleApp(SaveStore(tmp_path), game), play)


def test_the_guide_names_every_key_of_the_table() -> None:
    for screen, level_id in ((TableScreen, "medium"), (SpiderTableScreen, "spider")):
        text = guide_markdown(level_id, screen.BINDINGS)
        for key in ("`u/Ctrl+Z` undo", "`h` hint", "`?` guide", "`n` new deal", "`q` quit"):
            assert key in text
    assert "`1-8` select/move" in guide_markdown("hard", TableScreen.BINDINGS)
    assert "`0-9` select/move" in guide_markdown("spider-1", SpiderTableScreen.BINDINGS)
