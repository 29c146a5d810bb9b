"""The Spider table (``castle.tui.spider_table``, drawn by ``castle.tui.spider_board``): drag and
drop, clicks and keys, runs of mixed suits refused, and a whole game won by pressing only the
hint."""

from __future__ import annotations

import re
from pathlib import Path

from castle import LevelRecord, SaveStore, SpiderDeal, SpiderGame, Table
from castle.actions import Advise, DealRow, Drop, PlayHint, TakeOff
from castle.table.table import action_of
from castle.tui.app import CastleApp, ConfirmScreen, ResultsScreen, SpiderTableScreen
from castle.tui.board import PileView
from piloting import SPIDER_ENDGAME, card_row, marked, message, run, thinking
from playing import until
from textual.pilot import Pilot
from textual.widgets import Static


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


# --- a whole game played by the hint alone --------------------------------------------------------

#: Spider (1 suit) deal 6: the fair hint wins it in 131 moves, and only by its last resort (near
#: the end no quiet search finds a way on, and the solver's worlds do: without them the game
#: is lost); ``castle.surveys.autoplay.play_fair_hints`` with seed 0 plays the same game.
HINTED_DEAL = 6

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


def test_h_again_plays_the_hint_shown(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = SpiderGame(SpiderDeal.from_number("spider-1", HINTED_DEAL), store=store)

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        for moves in range(5):
            await pilot.press("h")
            await until(pilot, lambda: message(app).startswith("fair hint: try "), seconds=60)
            assert game.moves == moves  # shown, not played
            screen = app.screen
            assert isinstance(screen, SpiderTableScreen)
            hinted = screen.table.hint_action
            assert hinted is not None
            await pilot.press("h")
            await until(pilot, lambda: game.moves == moves + 1)  # noqa: B023 (h again: played)
            assert action_of(game.playing(game.history[-1])) == hinted

    run(CastleApp(store, game), play)


#: Spider (4 suits) deal 1: the fair hint plays 52 moves, then sees no move that helps.
DEAD_END_DEAL = 1


def test_a_hint_with_no_move_left_offers_a_new_deal(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = SpiderGame(SpiderDeal.from_number("spider", DEAD_END_DEAL), store=store)
    table = Table(game, store)
    while table.act(Advise()).question is None:
        assert table.act(PlayHint()).done
    moves = game.moves

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), seconds=60)
        question = str(app.screen.query_one("#question", Static).render())
        assert "The hint sees no move that helps" in question and "undo" in question
        assert game.paused  # the clock stops while the player thinks it over
        await pilot.press("n")  # keep playing: nothing changed
        await until(pilot, lambda: isinstance(app.screen, SpiderTableScreen))
        assert game.moves == moves and not game.paused
        assert "no move helps" in message(app)
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), seconds=60)
        await pilot.press("y")  # deal again: this game counts as lost
        await until(pilot, lambda: isinstance(app.screen, SpiderTableScreen))
        screen = app.screen
        assert isinstance(screen, SpiderTableScreen) and screen.game is not game
        assert screen.game.moves == 0

    run(CastleApp(store, game), play)
    assert SaveStore(tmp_path).record("spider").losses == 1
