"""The app (``castle.tui.app``): the save files' notices shown (at the start and during play),
the settings changed in the menu kept for the next start and played by the table under it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from castle import Game, LevelRecord, SaveStore, SpiderGame
from castle.game.spider_game import THOUGHTFUL_LABEL
from castle.tui.app import CastleApp, LevelPicker
from piloting import DEAL, SPIDER_ENDGAME, message, run
from textual.pilot import Pilot
from textual.widgets import OptionList

# --- notices --------------------------------------------------------------------------------------


def test_the_player_shows_why_a_save_was_set_aside(tmp_path: Path) -> None:
    (tmp_path / "game.json").write_text("garbage")
    store = SaveStore(tmp_path)
    Game.resume(store)

    async def play() -> None:
        app = CastleApp(store)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, LevelPicker)
            assert any("not JSON" in n.message for n in app._notifications)

    asyncio.run(play())


def test_corrupt_statistics_are_told_when_first_read(tmp_path: Path) -> None:
    (tmp_path / "statistics.json").write_text('{"format": "castle-statistics", "levels": 3}')
    store = SaveStore(tmp_path)

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, LevelPicker)
        notices = [n.message for n in app._notifications]
        assert any("statistics.json was not usable" in n for n in notices)
        assert any("every count starts again from 0" in n for n in notices)

    run(CastleApp(store), play)
    assert list(tmp_path.glob("statistics.json.corrupt-*"))


def test_a_notice_made_during_play_is_shown_at_once(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = Game.new("medium", deal=DEAL, store=store)

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.press("7", "8")
        store.statistics_path.write_text("not json")  # spoilt while the game is played
        await pilot.press("n", "y")  # the loss is entered: the file is read
        await pilot.pause()
        assert any("not JSON" in n.message for n in app._notifications)

    run(CastleApp(store, game), play)
    assert store.record("medium") == LevelRecord(0, 1, 0, 0)


# --- settings -------------------------------------------------------------------------------------


def test_the_sound_setting_is_kept_for_the_next_start(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    store.record_result("hard", won=True)

    async def turn_off(app: CastleApp, pilot: Pilot[None]) -> None:
        assert app.sound
        await pilot.press("m", "down", "down", "enter", "escape")  # Sound: off

    run(CastleApp(store, Game(DEAL)), turn_off)
    data = json.loads(store.statistics_path.read_text())
    assert data["settings"]["sound"] is False and data["levels"]["hard"]["wins"] == 1

    async def check(app: CastleApp, pilot: Pilot[None]) -> None:
        assert not app.sound
        await pilot.press("m")
        menu = app.screen.query_one("#menu", OptionList)
        assert "Sound: off" in str(menu.get_option("sound").prompt)

    run(CastleApp(SaveStore(tmp_path), Game(DEAL)), check)
    again = SaveStore(tmp_path)
    again.record_result("hard", won=False)  # a result keeps the settings
    assert not again.settings().sound and again.record("hard").played == 2


def test_spider_hints_are_fair_unless_the_menu_says_thoughtful(tmp_path: Path) -> None:
    game = SpiderGame(SPIDER_ENDGAME)

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        assert app.fair_hints
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert message(app).startswith("fair hint: try A♠ from column ")
        await pilot.press("m", "down", "down", "down", "enter")
        menu = app.screen.query_one("#menu", OptionList)
        assert "peek" in str(menu.get_option("hints").prompt)
        await pilot.press("escape")
        assert not app.fair_hints
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert message(app).startswith(f"{THOUGHTFUL_LABEL}: try A♠")

    run(CastleApp(SaveStore(tmp_path), game), play)
    assert SaveStore(tmp_path).settings().fair_hints is False
