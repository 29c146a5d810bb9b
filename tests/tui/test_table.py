"""The full-screen player driven by Textual's pilot: drag and drop (castle and Spider), the guide,
the footer's keys, the question before a new deal counts a game as lost, settings kept, save
notices, messages drawn with suit symbols, a terminal too small for the table."""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import castle
from castle import Deal, Game, LevelRecord, SaveStore, SpiderDeal, SpiderGame
from castle.actions import DealRow, Drop, TakeOff
from castle.spider_game import THOUGHTFUL_LABEL
from castle.tui.app import (
    CastleApp,
    ConfirmScreen,
    GuideScreen,
    LevelPicker,
    MenuScreen,
    ResultsScreen,
    SpiderTableScreen,
    TableScreen,
)
from castle.tui.board import PileView
from castle.tui.guide import guide_markdown
from castle.tui.table import THINKING_DELAY
from playing import tappable, until
from textual.pilot import Pilot
from textual.widgets import Markdown, OptionList, Static

DEAL = Deal.from_number("beleaguered-castle", 2)

#: Every foundation at 6; column 1 ends in a run of three (9S 8D 7C) that two empty columns
#: (3 and 8) let move onto the TH of column 2; column 6 ends TS 7S, not a run. The 7H under
#: the 8H keeps the game from finishing itself.
RUNS = Deal.from_text(
    "Foundations: C-6 D-6 H-6 S-6\n"
    ": 9S 8D 7C\n: KD TH\n:\n: KC QC JC TC 9C 8C 7D\n: 7H KH QH JH 9H 8H\n"
    ": KS QS JS TS 7S\n: QD JD TD 9D 8S\n:\n",
    "beleaguered-castle",
)

SPIDER_ENDGAME = SpiderDeal.from_text(
    "Stock:\nOff: S S S S S S\n"
    "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S | AS\n"
    "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S\nAS\n:\n:\n:\n:\n:\n:\n:\n"
)

Play = Callable[[CastleApp, Pilot[None]], Awaitable[None]]


def run(app: CastleApp, play: Play, size: tuple[int, int] = (100, 40)) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await play(app, pilot)

    asyncio.run(main())


def card_row(card: int) -> tuple[int, int]:
    """Where to press on card ``card`` of a column (bottom 0): under the column's number."""
    return (2, 1 + card)


def message(app: CastleApp) -> str:
    return str(app.screen.query_one("#message", Static).render())


def marked(app: CastleApp) -> set[str]:
    return {str(w.id) for w in app.screen.query(".target")}


# --- drag and drop: castle ----------------------------------------------------------------------


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


def test_a_press_and_release_in_place_is_still_a_click(tmp_path: Path) -> None:
    game = Game(RUNS, store=SaveStore(tmp_path))

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.mouse_down("#column-4", offset=card_row(6))
        await pilot.mouse_up("#column-4", offset=card_row(6))
        await pilot.pause()
        assert game.moves == 0 and not marked(app)
        await pilot.click("#column-4", offset=card_row(6))  # down, up and a click: a tap
        await pilot.pause(0.5)
        assert game.foundations["D"] == 7
        await pilot.double_click("#column-6", offset=card_row(4))
        await pilot.pause(0.5)
        assert game.foundations["S"] == 7

    run(CastleApp(SaveStore(tmp_path), game), play)


def test_a_drag_let_go_over_its_own_column_puts_the_cards_back(tmp_path: Path) -> None:
    game = Game(RUNS, store=SaveStore(tmp_path))

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.mouse_down("#column-1", offset=card_row(2))
        await pilot.hover("#column-2")
        await pilot.mouse_up("#column-1", offset=card_row(2))
        await pilot.pause(0.5)
        assert message(app) == "put back" and not marked(app)

    run(CastleApp(SaveStore(tmp_path), game), play)
    assert game.moves == 0


# --- drag and drop: Spider ----------------------------------------------------------------------


def test_spider_drag_and_drop(tmp_path: Path) -> None:
    game = SpiderGame(SPIDER_ENDGAME, store=SaveStore(tmp_path))

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, SpiderTableScreen)
        await pilot.mouse_down("#column-1", offset=card_row(12))  # the AS, on 12 face down
        assert marked(app) == {f"column-{i + 1}" for i in game.targets(0, 1)}
        assert "column-2" in marked(app) and "column-3" not in marked(app)
        await pilot.hover("#column-3")
        await pilot.mouse_up("#column-3", offset=card_row(0))  # onto the other AS: refused
        assert app.screen.query_one("#column-1", PileView).shakes == 1
        assert message(app) == "A♠ does not fit on A♠ (one rank lower only)"
        await pilot.mouse_down("#column-1", offset=card_row(12))
        await pilot.hover("#stock")
        await pilot.mouse_up("#stock")  # the stock is no place to drop
        assert game.moves == 0
        await pilot.pause(0.5)
        await pilot.mouse_down("#column-1", offset=card_row(12))
        await pilot.hover("#column-2")
        await pilot.mouse_up("#column-2", offset=card_row(12))
        await pilot.pause()
        assert game.moves == 1 and len(game.columns[1].up) == 13
        # A press on a face-down card lifts nothing.
        await pilot.mouse_down("#column-1", offset=card_row(3))
        screen = app.screen
        assert isinstance(screen, SpiderTableScreen) and screen.held is None
        await pilot.mouse_up("#column-1", offset=card_row(3))

    run(CastleApp(SaveStore(tmp_path), game), play)


def test_spider_clicks_still_select_and_drop(tmp_path: Path) -> None:
    game = SpiderGame(SPIDER_ENDGAME, store=SaveStore(tmp_path))

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.click("#column-1", offset=card_row(12))
        # One card is "it", several "them".
        assert message(app) == "A♠ selected: choose a column to move it there"
        # The selection's legal places are marked, as a held card's are.
        assert marked(app) == {f"column-{c + 1}" for c in game.targets(0, 1)}
        await pilot.click("#column-2", offset=card_row(3))
        await pilot.pause()
        assert game.moves == 1 and len(game.columns[1].up) == 13

    run(CastleApp(SaveStore(tmp_path), game), play)


def test_spider_keys_select_a_run_and_name_its_cards(tmp_path: Path) -> None:
    game = SpiderGame(SPIDER_ENDGAME, store=SaveStore(tmp_path))

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.press("2")  # the longest run that can move: K♠ down to 2♠
        assert message(app).endswith("selected: choose a column to move them there")
        await pilot.press("escape", "3")
        assert message(app) == "A♠ selected: choose a column to move it there"

    run(CastleApp(SaveStore(tmp_path), game), play)


def test_spider_refuses_to_lift_cards_of_mixed_suits(tmp_path: Path) -> None:
    game = SpiderGame(SpiderDeal.from_number("spider-2", 5), store=SaveStore(tmp_path))
    game.deal_row()
    column = game.columns[2]
    assert [str(c) for c in column.up] == ["5H", "8S"] and len(column.down) == 5

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.mouse_down("#column-3", offset=card_row(5))  # the 5H, under the 8S
        assert not marked(app)
        await pilot.hover("#column-4")
        assert message(app) == "5♥ 8♠ is not a run of one suit: it cannot move as one"
        await pilot.mouse_up("#column-4")
        await pilot.pause(0.5)

    run(CastleApp(SaveStore(tmp_path), game), play)
    assert game.moves == 1


# --- the guide and the footer -------------------------------------------------------------------


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


def test_the_picker_s_guide_is_the_highlighted_level_s(tmp_path: Path) -> None:
    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, LevelPicker)
        await pilot.press("question_mark")  # Easy is highlighted: the castle guide
        text = app.screen.query_one(Markdown).source
        assert "# How to play Easy" in text and "## 1. The castle family" in text
        await pilot.press("escape")
        assert isinstance(app.screen, LevelPicker)
        await pilot.press("end", "question_mark")  # Spider 4
        text = app.screen.query_one(Markdown).source
        assert "## Your level: Spider (4 suits)" in text and "## 4. Spider" in text
        await pilot.press("question_mark")
        assert isinstance(app.screen, LevelPicker)

    run(CastleApp(SaveStore(tmp_path)), play)


def test_the_guide_names_every_key_of_the_table() -> None:
    for screen, level_id in ((TableScreen, "medium"), (SpiderTableScreen, "spider")):
        text = guide_markdown(level_id, screen.BINDINGS)
        for key in ("`u/Ctrl+Z` undo", "`h` hint", "`?` guide", "`n` new deal", "`q` quit"):
            assert key in text
    assert "`1-8` select/move" in guide_markdown("hard", TableScreen.BINDINGS)
    assert "`0-9` select/move" in guide_markdown("spider-1", SpiderTableScreen.BINDINGS)


def test_the_footer_names_the_move_keys(tmp_path: Path) -> None:
    def footer(app: CastleApp) -> dict[str, str]:
        return {k.key_display: k.description for k in app.screen.query("FooterKey")}  # type: ignore[attr-defined]

    async def castle_keys(app: CastleApp, pilot: Pilot[None]) -> None:
        keys = footer(app)
        assert keys["1-8"] == "Select/move" and keys["f"] == "Foundation"
        assert keys["?"] == "Guide" and keys["u"] == "Undo"

    run(CastleApp(SaveStore(tmp_path), Game(DEAL)), castle_keys)

    async def spider_keys(app: CastleApp, pilot: Pilot[None]) -> None:
        keys = footer(app)
        assert keys["0-9"] == "Select/move" and keys["d"] == "Deal" and keys["?"] == "Guide"

    run(CastleApp(SaveStore(tmp_path), SpiderGame(SPIDER_ENDGAME)), spider_keys)


# --- the start, new deals, settings, notices ------------------------------------------------------


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


# --- hints, messages, the terminal's size ---------------------------------------------------------


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


def thinking(app: CastleApp) -> bool:
    return bool(app.screen.query_one("#thinking", Static).display)


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


def test_messages_draw_cards_as_the_table_does(tmp_path: Path) -> None:
    game = Game.new("medium", deal=DEAL, store=SaveStore(tmp_path))

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.press("7", "1")
        assert message(app) == "10♥ does not fit on 3♦ (one rank lower only)"
        await pilot.press("8", "8")
        assert message(app).startswith("J♥ selected:")  # a run of one: still one card
        await pilot.press("escape", "7")
        assert message(app).startswith("10♥ selected")

    run(CastleApp(SaveStore(tmp_path), game), play)


def test_a_terminal_too_small_for_the_table_says_so(tmp_path: Path) -> None:
    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        notice = app.screen.query_one("#too-small", Static)
        assert notice.display and not app.screen.query_one("#table").display
        assert "50 columns wide (this one is 40): widen it" in str(notice.render())
        await pilot.resize_terminal(100, 40)
        assert not notice.display and app.screen.query_one("#table").display
        await pilot.resize_terminal(100, 10)
        assert "rows tall (this one is 10): make it taller" in str(notice.render())

    run(CastleApp(SaveStore(tmp_path), Game(DEAL)), play, size=(40, 30))


# --- a whole game played by the hint alone --------------------------------------------------------

#: Spider (1 suit) deal 2: the fair hint wins it (in 131 moves with the fair player's defaults
#: of 085c3f1; ``castle.autoplay.autoplay_spider`` plays the same game without a front end).
HINTED_DEAL = 2

#: The fair hint as the message line writes it: a run, a deal or a run off, each perhaps with
#: how far the win is (once nothing is hidden).
TO_A_WIN = r"(?: \(\d+ moves? to a win\))?"
HINTED_RUN = re.compile(
    r"fair hint: try (?P<cards>.+) from column (?P<src>\d+) to column (?P<dst>\d+)" + TO_A_WIN
)
HINTED_DEAL_ROW = re.compile(r"fair hint: try deal ten cards from the stock" + TO_A_WIN)
HINTED_OFF = re.compile(r"fair hint: try take the K.-A. run off column (?P<src>\d+)" + TO_A_WIN)


def column_key(column: int) -> str:
    """The key of column ``column`` (1-based, as the table numbers it: 0 is the tenth)."""
    return str(column % 10)


def test_a_spider_game_is_won_by_pressing_only_the_hint(tmp_path: Path) -> None:
    """The issue's done-when, in the terminal: a Spider (1 suit) deal played as a person would
    who presses h and then makes the move the hint names with the keys (the column numbers,
    again to take one card fewer; d to deal; o for a run off), until the results show. Every
    hint comes (the thinking sign goes), names a move the keys can make, marks its columns,
    and no position comes twice; the win is entered in the statistics."""
    store = SaveStore(tmp_path)
    deal = SpiderDeal.from_number("spider-1", HINTED_DEAL)
    game = SpiderGame(deal, level_id="spider-1", store=store)
    seen = [game.position.to_text()]
    said: list[str] = []

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, SpiderTableScreen)
        while not isinstance(app.screen, ResultsScreen):
            moves = game.moves
            await pilot.press("h")
            await until(pilot, lambda: message(app).startswith("fair hint: "), seconds=60)
            await until(pilot, lambda: not thinking(app))
            hint = message(app)
            said.append(hint)
            action = screen.table.hint_action
            hinted = {c.index + 1 for c in screen.column_views() if c.has_class("hint")}
            stock_hinted = screen.query_one("#stock").has_class("hint")
            if run := HINTED_RUN.fullmatch(hint):
                assert not stock_hinted
                src, dst = int(run["src"]), int(run["dst"])
                assert hinted == {src, dst}, hint
                cards = run["cards"]
                for _ in range(13):  # the longest run, then one card fewer each time
                    await pilot.press(column_key(src))
                    if message(app).startswith(f"{cards} selected: "):
                        break
                else:
                    raise AssertionError(f"{cards} cannot be selected in column {src}")
                await pilot.press(column_key(dst))
                made = game.history[-1]
                assert (made.kind, made.src, made.dst) == ("run", src - 1, dst - 1), hint
                assert action == Drop(src - 1, dst - 1, len(made.cards))
            elif HINTED_DEAL_ROW.fullmatch(hint):
                assert not hinted and stock_hinted and action == DealRow()
                await pilot.press("d")
                assert game.history[-1].kind == "deal"
            elif off := HINTED_OFF.fullmatch(hint):
                src = int(off["src"])
                assert hinted == {src} and action == TakeOff(src - 1), hint
                await pilot.press(column_key(src), "o")
                made = game.history[-1]
                assert (made.kind, made.src) == ("off", src - 1), hint
            else:
                raise AssertionError(f"after {moves} moves the hint says: {hint}")
            await pilot.pause()
            assert game.moves == moves + 1, message(app)  # the move, and nothing else
            position = game.position.to_text()
            assert position not in seen, f"move {game.moves} ({hint}) repeats a position"
            seen.append(position)
        assert "You won!" in str(app.screen.query_one("#results", Static).render())
        assert not screen.query_one("#thinking", Static).display  # no sign left behind

    run(CastleApp(store, game), play)
    assert game.is_won and game.moves == len(seen) - 1 == len(said)
    assert SaveStore(tmp_path).record("spider-1") == LevelRecord(1, 0, 1, 1)
