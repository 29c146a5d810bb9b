"""The tables (``castle.tui.table``): the castle table's drag and drop, its clicks and keys, the
question before a new deal counts a game as lost, the thinking sign of a slow hint, a terminal
too small for the table."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from pathlib import Path
from typing import Any

import castle
from castle import Deal, Game, LevelRecord, SaveStore, SpiderGame
from castle.tui.app import CastleApp, ConfirmScreen, MenuScreen, SpiderTableScreen, TableScreen
from castle.tui.board import PileView
from castle.tui.table import THINKING_DELAY
from piloting import DEAL, RUNS, SPIDER_ENDGAME, card_row, keys_for, marked, message, run, thinking
from playing import tappable, until
from textual.pilot import Pilot
from textual.widgets import Static

# --- drag and drop --------------------------------------------------------------------------------


def test_a_drag_marks_the_legal_columns_and_drops_the_card_there(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = Game.new("medium", deal=DEAL, store=store)

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        assert game.targets(6, 1) == [7]  # TH: onto the JH of column 8 only
        await pilot.mouse_down("#column-7", offset=card_row(5))
        assert marked(app) == {"column-8"}
        await pilot.hover("#column-8", offset=card_row(8))
        assert app.screen.query_one("#held").display  # the card follows the pointer
        assert message(app) == "10♥: let go over a marked place to move there"
        assert app.screen.query_one("#column-8").has_class("over")
        await pilot.mouse_up("#column-8", offset=card_row(8))
        await pilot.pause()
        assert game.columns[7][-2:] == [castle.Card(11, "H"), castle.Card(10, "H")]
        assert game.moves == 1 and not marked(app)
        assert not app.screen.query_one("#held").display
        # A ten reads 10 on the table as in the messages (and in the browser).
        drawn = str(app.screen.query_one("#column-8").render()).splitlines()
        assert drawn[-1] == "10♥ " and drawn[-2] == " J♥ "

    run(CastleApp(store, game), play)


def test_a_drag_carries_the_run_from_the_card_pressed(tmp_path: Path) -> None:
    game = Game(RUNS, store=SaveStore(tmp_path))

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.mouse_down("#column-1", offset=card_row(0))  # 9S: it and the two above
        assert marked(app) == {"column-2"}
        await pilot.hover("#column-2")
        await pilot.mouse_up("#column-2", offset=card_row(3))
        await pilot.pause()
        assert [str(c) for c in game.columns[1]] == ["KD", "TH", "9S", "8D", "7C"]
        assert len(game.history) == 1  # one action (made of single-card moves)

    run(CastleApp(SaveStore(tmp_path), game), play)


def test_a_card_dropped_on_the_foundations_goes_up(tmp_path: Path) -> None:
    game = Game(RUNS, store=SaveStore(tmp_path))

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.mouse_down("#column-4", offset=card_row(6))  # 7D: the diamonds are at 6
        assert "foundations" in marked(app)
        await pilot.hover("#foundations", offset=(20, 0))
        await pilot.mouse_up("#foundations", offset=(20, 0))
        await pilot.pause()
        assert game.foundations["D"] == 7

    run(CastleApp(SaveStore(tmp_path), game), play)


def test_an_illegal_drop_shakes_the_cards_back_and_changes_nothing(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = Game.new("medium", deal=DEAL, store=store)

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.mouse_down("#column-7", offset=card_row(5))  # TH
        await pilot.hover("#column-1")
        await pilot.mouse_up("#column-1", offset=card_row(2))  # onto the 3D: refused
        column = app.screen.query_one("#column-7", PileView)
        assert column.shakes == 1  # the column the card returns to shakes
        assert message(app) == "10♥ does not fit on 3♦ (one rank lower only)"
        await until(pilot, lambda: not column.has_class("refused"))
        assert column.styles.offset.x.value == 0
        # Off the table (the message line): back too.
        await pilot.mouse_down("#column-7", offset=card_row(5))
        await pilot.mouse_up("#message", offset=(5, 0))
        assert column.shakes == 2 and "drop them on a marked column" in message(app)
        await pilot.pause(0.5)

    run(CastleApp(store, game), play)
    assert game.moves == 0 and game.position == DEAL


def test_a_shake_frame_queued_after_the_shake_ended_changes_nothing(tmp_path: Path) -> None:
    """A busy machine may run the shake's timer once more after it stopped: that tick is a
    no-op, not an IndexError that ends the player."""
    store = SaveStore(tmp_path)
    game = Game.new("medium", deal=DEAL, store=store)

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        column = app.screen.query_one("#column-7", PileView)
        column.shake()
        await until(pilot, lambda: not column.has_class("refused"))
        column.shake_step()  # the late tick
        assert column.styles.offset.x.value == 0 and not column.has_class("refused")

    run(CastleApp(store, game), play)


def test_a_press_on_cards_that_are_not_a_run_lifts_nothing_and_says_why(
    tmp_path: Path,
) -> None:
    game = Game(RUNS, store=SaveStore(tmp_path))

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.mouse_down("#column-6", offset=card_row(3))  # TS, under the 7S
        assert not marked(app)
        await pilot.hover("#column-7")
        assert message(app) == "10♠ 7♠ is not a descending run: it cannot move as one"
        assert app.screen.query_one("#column-6", PileView).shakes == 1
        assert not app.screen.query_one("#held").display
        await pilot.mouse_up("#column-7", offset=card_row(5))
        await pilot.pause(0.5)

    run(CastleApp(SaveStore(tmp_path), game), play)
    assert game.moves == 0 and game.position == RUNS


# --- clicks and keys ------------------------------------------------------------------------------


class PatientApp(CastleApp):
    """A slower double click than a person's (3 s, not 0.3 s), so that a busy machine's late
    second click still makes one (the pilot's clicks wait up to a second each for the app to
    look idle); a single click's tap waits as long."""

    CLICK_CHAIN_TIME_THRESHOLD = 3.0


def test_a_click_taps_and_a_double_click_sends_up(tmp_path: Path) -> None:
    # Foundations at 6 and the 7s and 8s apart: a click on the 7C sends it up (safe).
    board = Deal.from_text(
        "Foundations: C-6 D-6 H-6 S-6\n: 8C 7C\n: 8D 7D\n: 8H 7H\n: 8S 7S\n"
        ": 9C TC JC QC KC\n: 9D TD JD QD KD\n: 9H TH JH QH KH\n: 9S TS JS QS KS\n",
        "beleaguered-castle",
    )
    store = SaveStore(tmp_path)
    game = Game(board, store=store)

    async def play() -> None:
        app = PatientApp(store, game)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.click("#column-1")
            await until(pilot, lambda: game.foundations["C"] == 7)
            await pilot.click("#column-2", times=2)
            await until(pilot, lambda: game.foundations["D"] == 7)
            # A tap would have come by now: the double click was one.
            await pilot.pause(PatientApp.CLICK_CHAIN_TIME_THRESHOLD + 0.2)
            assert len(game.history) == 2

    asyncio.run(play())


def test_keys_undo_hint_menu_and_quit_save_the_game(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = Game.new("medium", deal=DEAL, store=store)
    first = castle.solve(DEAL).moves[0]

    async def play() -> None:
        app = CastleApp(store, game)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press(*keys_for(first))
            assert game.moves == 1
            await pilot.press("ctrl+z")
            assert game.moves == 2 and not game.history
            await pilot.press("ctrl+y")  # redo
            assert len(game.history) == 1
            await pilot.press("1", "1")  # select column 1, then one more card of its run
            await pilot.press("escape")
            await pilot.press("h")  # the hint is found in a thread
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert "hint: try" in str(app.screen.query_one("#message").render())
            await pilot.press("m")  # the menu stops the clock
            assert game.paused
            await pilot.press("down", "down", "enter")  # Sound: off
            assert not app.sound
            await pilot.press("escape")
            assert not game.paused
            await pilot.press("u")
            await pilot.press("q")

    asyncio.run(play())
    again = Game.resume(SaveStore(tmp_path), paused=True)
    assert again is not None and again.history == game.history == () and again.undos == 2
    assert again.seconds == game.seconds  # quitting stopped the clock and saved


def test_n_asks_before_the_unfinished_game_counts_as_lost(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = Game.new("medium", deal=DEAL, store=store)

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.press("n")  # no move made: nothing to lose, no question
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.screen.game is not game
        fresh = app.screen.game
        fresh.tap(next(i for i in range(8) if tappable(fresh, i)))  # a move made
        await pilot.press("n")
        assert isinstance(app.screen, ConfirmScreen) and fresh.paused
        await pilot.press("n")  # keep playing
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.screen.game is fresh
        assert not fresh.paused and store.record("medium").played == 0
        await pilot.press("n", "y")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.screen.game is not fresh

    run(CastleApp(store, game, rng=random.Random(1)), play)
    assert store.record("medium") == LevelRecord(0, 1, 0, 0)


# --- hints, the terminal's size -------------------------------------------------------------------


class SlowHint:
    """The game's hint made slow: each call answers as the game would have when it was asked,
    but only once the test lets it (:meth:`answer`): a search the test holds."""

    def __init__(self, game: SpiderGame) -> None:
        self.real = game.hint
        self.gates: list[threading.Event] = []

    def __call__(self, **limits: Any) -> Any:
        gate = threading.Event()
        self.gates.append(gate)
        hint = self.real(**limits)
        gate.wait(10)
        return hint

    @property
    def asked(self) -> int:
        return len(self.gates)

    def answer(self, call: int) -> None:
        self.gates[call].set()


def test_a_slow_hint_says_it_thinks_and_the_table_stays_live(tmp_path: Path) -> None:
    game = SpiderGame(SPIDER_ENDGAME, store=SaveStore(tmp_path))
    slow = SlowHint(game)
    game.hint = slow  # type: ignore[method-assign]

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        try:
            asked = time.monotonic()
            await pilot.press("h")
            await pilot.pause(0.1)
            assert not thinking(app) or time.monotonic() - asked >= THINKING_DELAY
            await until(pilot, lambda: thinking(app))
            assert time.monotonic() - asked >= THINKING_DELAY
            assert str(app.screen.query_one("#thinking", Static).render()) == "thinking…"
            # h again: the same search, still awaited.
            await pilot.press("h")
            assert slow.asked == 1 and thinking(app)
            # The table stays live: a selection, the menu and back, a move and its undo.
            await pilot.press("3")
            assert message(app) == "A♠ selected: choose a column to move it there"
            assert thinking(app)  # a selection is no move: the hint still comes
            await pilot.press("escape", "m")
            assert isinstance(app.screen, MenuScreen) and game.paused
            await pilot.press("escape")
            assert isinstance(app.screen, SpiderTableScreen) and not game.paused
            await pilot.press("1", "2")
            assert game.moves == 1 and not thinking(app)  # moved: that hint is too late
            await pilot.press("u")
            assert game.moves == 2 and message(app) == "undone"
            # Asked again, it searches again; the first search's late answer is dropped, and
            # the sign stays for the second.
            await pilot.press("h")
            await until(pilot, lambda: slow.asked == 2 and thinking(app))
            slow.answer(0)
            await pilot.pause(0.2)
            assert message(app) == "undone" and not app.screen.query(".hint")
            assert thinking(app)
            slow.answer(1)
            await app.workers.wait_for_complete()
            await until(pilot, lambda: not thinking(app))
            assert message(app).startswith("fair hint: try A♠")
            assert app.screen.query(".hint")
        finally:
            for gate in slow.gates:
                gate.set()

    run(CastleApp(SaveStore(tmp_path), game), play)


def test_a_quick_hint_shows_no_thinking_sign(tmp_path: Path) -> None:
    game = SpiderGame(SPIDER_ENDGAME, store=SaveStore(tmp_path))

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert message(app).startswith("fair hint: try A♠")
        await pilot.pause(2 * THINKING_DELAY)  # past the delay: the sign never came
        assert not thinking(app)

    run(CastleApp(SaveStore(tmp_path), game), play)


def test_a_terminal_too_small_for_the_table_says_so(tmp_path: Path) -> None:
    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        notice = app.screen.query_one("#too-small", Static)
        assert notice.display and not app.screen.query_one("#table").display
        assert "50 columns wide (this one is 40): widen it" in str(notice.render())
        await pilot.resize_terminal(100, 40)
        assert not notice.display and app.screen.query_one("#table").display
        # A tall column folds, down to three lines: only a terminal smaller than that says so.
        await pilot.resize_terminal(100, 9)
        assert not notice.display and app.screen.query_one("#table").display
        await pilot.resize_terminal(100, 8)
        assert "9 rows tall (this one is 8): make it taller" in str(notice.render())

    run(CastleApp(SaveStore(tmp_path), Game(DEAL)), play, size=(40, 30))


def test_a_long_message_wraps_to_a_second_line_at_80x24(tmp_path: Path) -> None:
    # A hint that moves a long run, as the fair hint words it: whole, on two lines, the
    # columns folding to make room.
    long = (
        "fair hint: try 9H 8H 7H 6H 5H 4H 3H 2H AH from column 3 to column 10 (12 moves to a win)"
    )

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, SpiderTableScreen)
        table_rows = screen.query_one("#table").region.height
        screen.say(long)
        await pilot.pause()
        assert screen.query_one("#message").region.height == 2
        assert screen.query_one("#table").region.height == table_rows - 1
        shown = " ".join(str(screen.query_one("#message", Static).render()).split())
        assert "9♥ 8♥" in shown and shown.endswith("(12 moves to a win)")

    game = SpiderGame(castle.SpiderDeal.from_number("spider", 7), store=SaveStore(tmp_path))
    run(CastleApp(SaveStore(tmp_path), game), play, size=(80, 24))
