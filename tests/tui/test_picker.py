"""The level picker (``castle.tui.picker``): each level's statistics, Continue, the question
before a new level ends the unfinished game, the highlighted level's guide."""

from __future__ import annotations

import asyncio
from pathlib import Path

from castle import Game, SaveStore
from castle.tui.app import CastleApp, CellsTableScreen, ConfirmScreen, LevelPicker, TableScreen
from piloting import DEAL, run
from playing import tappable
from textual.pilot import Pilot
from textual.widgets import Markdown, OptionList, Static


def test_the_level_picker_shows_statistics_and_continues(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    store.record_result("hard", won=True)
    game = Game.new("medium", deal=DEAL, store=store)
    game.tap(next(i for i in range(8) if tappable(game, i)))

    async def play() -> None:
        app = CastleApp(store)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, LevelPicker)
            picker = app.screen.query_one("#picker", OptionList)
            text = " ".join(str(o.prompt) for o in picker.options)
            assert "Continue" in text and "1 won, 0 lost (100%)" in text
            await pilot.press("enter")  # the first option: Continue
            await pilot.pause()
            assert isinstance(app.screen, TableScreen)
            assert app.screen.game.history == Game.resume(store).history  # type: ignore[union-attr]

    asyncio.run(play())


def test_the_picker_asks_before_a_new_level_ends_the_unfinished_game(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = Game.new("medium", deal=DEAL, store=store)
    game.move(6, 7)

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, LevelPicker)
        await pilot.press("down", "down", "down", "enter")  # Hard, under Continue, Easy, Medium
        assert isinstance(app.screen, ConfirmScreen)
        question = str(app.screen.query_one("#question", Static).render())
        assert "Hard" in question and "Medium" in question and "counts as lost" in question
        await pilot.press("escape")
        assert isinstance(app.screen, LevelPicker)

    run(CastleApp(store), play)
    assert store.record("medium").played == 0


def test_the_picker_s_guide_is_the_highlighted_level_s(tmp_path: Path) -> None:
    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, LevelPicker)
        await pilot.press("question_mark")  # Easy is highlighted: the castle guide
        text = app.screen.query_one(Markdown).source
        assert "# How to play Easy" in text and "## 1. The castle family" in text
        await pilot.press("escape")
        assert isinstance(app.screen, LevelPicker)
        await pilot.press(*["down"] * 6, "question_mark")  # Spider 4
        text = app.screen.query_one(Markdown).source
        assert "## Your level: Spider (4 suits)" in text and "## 4. Spider" in text
        await pilot.press("question_mark")
        await pilot.press("end", "question_mark")  # Private Lane, the last free-cell game
        text = app.screen.query_one(Markdown).source
        assert "## Your level: Private Lane" in text and "## 6. The free-cell games" in text
        assert "`c`" in text and "The solver" not in text
        await pilot.press("question_mark")
        assert isinstance(app.screen, LevelPicker)

    run(CastleApp(SaveStore(tmp_path)), play)


def test_d_plays_a_deal_by_its_number_at_the_level_highlighted(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, LevelPicker)
        await pilot.press(*["down"] * 8, "d")  # Easy FreeCell
        await pilot.press(*"11982", "enter")  # lost: Easy FreeCell refuses it, and says why
        refusal = str(app.screen.query_one("#deal-refusal", Static).render())
        assert "not one the solver wins quickly" in refusal
        await pilot.press("escape", "up", "d", *"617", "enter")  # FreeCell deal 617
        await pilot.pause()
        assert isinstance(app.screen, CellsTableScreen)
        assert (app.screen.game.level, app.screen.game.deal.number) == ("freecell", 617)

    run(CastleApp(store), play)
