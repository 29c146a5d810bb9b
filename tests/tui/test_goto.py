"""Where the player goes next, as a person gets there with the keys: each screen that sends the
player on (the results, the level picker, the menu) hands its answer back, and the app opens
the table or the picker it names. A setting changed in the menu reaches the table under it."""

from __future__ import annotations

import random
from pathlib import Path

from castle import Deal, Game, LevelRecord, SaveStore
from castle.tui.app import (
    CastleApp,
    ConfirmScreen,
    LevelPicker,
    MenuScreen,
    ResultsScreen,
    TableScreen,
)
from piloting import DEAL, run
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

#: One card from a win: 1 then f sends the QS up, and the KS follows.
ONE_TO_WIN = Deal.from_text(
    "Foundations: C-K D-K H-K S-J\n: KS QS\n:\n:\n:\n:\n:\n:\n:\n", "beleaguered-castle"
)


def menu_keys(app: CastleApp, choice: str) -> list[str]:
    """The keys that choose ``choice`` (an option's id) in the open menu."""
    menu = app.screen.query_one("#menu", OptionList)
    return ["home", *["down"] * menu.get_option_index(choice), "enter"]


async def win(app: CastleApp, pilot: Pilot[None]) -> Game:
    """Win the ONE_TO_WIN game at the table: the results open."""
    assert isinstance(app.screen, TableScreen)
    won = app.screen.game
    await pilot.press("1", "f")
    await pilot.pause()
    assert won.is_won and isinstance(app.screen, ResultsScreen)
    return won


# --- the results ---------------------------------------------------------------------------------


def test_new_deal_on_the_results_deals_anew_at_the_level(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = Game.new("hard", deal=ONE_TO_WIN, store=store)

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        won = await win(app, pilot)
        results = str(app.screen.query_one("#results", Static).render())
        assert "You won!" in results and f"Hard: {store.record('hard')}" in results
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        fresh = app.screen.game
        assert fresh is not won and fresh.level == "hard" and fresh.moves == 0
        assert len(app.screen_stack) == 2  # the table alone, over Textual's default screen

    run(CastleApp(store, game, rng=random.Random(1)), play)
    assert store.record("hard") == LevelRecord(1, 0, 1, 1)  # the new deal: not played yet


def test_levels_on_the_results_opens_the_picker(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = Game.new("medium", deal=ONE_TO_WIN, store=store)

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await win(app, pilot)
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LevelPicker) and len(app.screen_stack) == 2
        picker = app.screen.query_one("#picker", OptionList)
        assert picker.get_option_at_index(0).id == "easy"  # the game is won: no Continue
        await pilot.press("down", "down", "enter")  # Hard: nothing is lost, no question
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.screen.game.level == "hard"

    run(CastleApp(store, game, rng=random.Random(1)), play)


# --- the level picker ----------------------------------------------------------------------------


def test_continue_on_the_picker_plays_the_unfinished_game(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = Game.new("medium", deal=DEAL, store=store)
    game.move(6, 7)
    game.pause()

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, LevelPicker)
        await pilot.press("enter")  # Continue, first
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        resumed = app.screen.game
        assert resumed.deal.number == 2 and resumed.moves == 1 and not resumed.paused

    run(CastleApp(store), play)
    assert store.record("medium").played == 0


def test_a_level_on_the_picker_deals_anew_once_the_player_says_yes(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = Game.new("medium", deal=DEAL, store=store)
    game.move(6, 7)

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.press("down", "down", "down", "enter")  # Hard, under Continue, Easy, Medium
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and len(app.screen_stack) == 2
        assert app.screen.game.level == "hard" and app.screen.game.moves == 0

    run(CastleApp(store, rng=random.Random(1)), play)
    assert store.record("medium") == LevelRecord(0, 1, 0, 0)


# --- the menu ------------------------------------------------------------------------------------


def test_resume_and_new_deal_in_the_menu(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = Game.new("medium", deal=DEAL, store=store)

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        table = app.screen
        await pilot.press("m")
        assert isinstance(app.screen, MenuScreen) and game.paused
        await pilot.press(*menu_keys(app, "resume"))
        await pilot.pause()
        assert app.screen is table and not game.paused
        await pilot.press("7", "8", "m")  # a move made: a new deal loses this game
        assert isinstance(app.screen, MenuScreen) and game.paused
        await pilot.press(*menu_keys(app, "new"))
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")  # keep playing: back in the menu, the clock still stopped
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen) and game.paused
        await pilot.press(*menu_keys(app, "new"), "y")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and len(app.screen_stack) == 2
        assert app.screen.game is not game and app.screen.game.level == "medium"

    run(CastleApp(store, game, rng=random.Random(1)), play)
    assert store.record("medium") == LevelRecord(0, 1, 0, 0)


def test_levels_in_the_menu_opens_the_picker_with_continue(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = Game.new("medium", deal=DEAL, store=store)

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.press("7", "8", "m")
        await pilot.press(*menu_keys(app, "levels"))
        await pilot.pause()
        assert isinstance(app.screen, LevelPicker) and len(app.screen_stack) == 2
        picker = app.screen.query_one("#picker", OptionList)
        assert picker.get_option_at_index(0).id == "continue"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.screen.game.moves == 1

    run(CastleApp(store, game), play)
    assert store.record("medium").played == 0


def test_sound_off_in_the_menu_silences_the_table_under_it(tmp_path: Path) -> None:
    game = Game(DEAL)
    bells: list[None] = []

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        app.bell = lambda: bells.append(None)  # type: ignore[method-assign]
        await pilot.press("1", "2")  # 3D onto 5H: refused, with a bell
        assert len(bells) == 1 and game.moves == 0
        await pilot.press("m")
        await pilot.press(*menu_keys(app, "sound"), "escape", "1", "2")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and game.moves == 0
        assert len(bells) == 1  # refused again, in silence

    run(CastleApp(SaveStore(tmp_path), game), play)
