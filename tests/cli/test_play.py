"""``castle play``: the full-screen player driven headless by Textual's pilot, and the line
mode driven through standard input."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import castle
import pytest
from castle import FOUNDATION, Deal, Game, LevelRecord, SaveStore
from castle.tui.app import CastleApp, ConfirmScreen, LevelPicker, ResultsScreen, TableScreen
from playing import tappable, until
from textual.widgets import OptionList, Static

DEAL = Deal.from_number("beleaguered-castle", 2)


def keys_for(move: castle.Move) -> list[str]:
    """The key presses that make ``move``: its column, then its destination (or f)."""
    to = "f" if move.dst == castle.FOUNDATION else str(int(move.dst) + 1)
    return [str(move.src + 1), to]


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


def test_play_opens_on_the_picker_even_with_a_game_unfinished(tmp_path: Path) -> None:
    from castle.cli.play import open_game

    store = SaveStore(tmp_path)
    game = Game.new("medium", deal=DEAL, store=store)
    game.move(6, 7)
    assert open_game(store, None, None, False) is None  # the picker, with Continue
    again = open_game(store, "medium", None, False)  # --level medium: that game goes on
    assert isinstance(again, Game) and again.history == game.history and not again.paused
    assert store.record("medium").played == 0
    hard = open_game(store, "hard", None, False)  # another level: a new deal, this one lost
    assert isinstance(hard, Game) and hard.level == "hard" and not hard.history
    assert store.record("medium") == LevelRecord(0, 1, 0, 0)
    # A move made if there is one (a random Hard deal may have no legal move at all).
    for _, src, dst in hard.position.core.legal_moves()[:1]:
        hard.move(src, FOUNDATION if dst < 0 else dst)
    fresh = open_game(store, None, None, True)  # --new: a new deal at the level last played
    assert isinstance(fresh, Game) and fresh.level == "hard" and not fresh.history


#: ``python -m castle`` with a searching hint's budget of a minute, not 1.5 s of the wall
#: clock: on a busy machine (other tests beside it) the short one may run out.
PATIENT_CASTLE = (
    "import sys, castle.played; castle.played.HINT_SECONDS = 60; "
    "from castle.cli import main; sys.exit(main())"
)


def castle_play(
    args: list[str], commands: str, data: Path, patient: bool = False
) -> subprocess.CompletedProcess[str]:
    """``castle play --plain`` given ``commands``; ``patient``: hints may think a minute."""
    env = {**os.environ, "CASTLE_DATA_DIR": str(data), "NO_COLOR": "1"}
    castle_command = ["-c", PATIENT_CASTLE] if patient else ["-m", "castle"]
    return subprocess.run(
        [sys.executable, *castle_command, "play", "--plain", *args],
        input=commands,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def plain_command(move: castle.Move) -> str:
    to = "f" if move.dst == castle.FOUNDATION else f"{int(move.dst) + 1} 1"
    return f"{move.src + 1} {to}"


def test_plain_mode_wins_a_deal_from_standard_input(tmp_path: Path) -> None:
    moves = castle.solve(DEAL).moves
    commands = "\n".join(plain_command(m) for m in moves) + "\nq\n"
    done = castle_play(["--deal", "2"], commands, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "You won!" in done.stdout and "Medium: 1 won, 0 lost (100%)" in done.stdout
    assert SaveStore(tmp_path).record("medium") == LevelRecord(1, 0, 1, 1)


def test_without_a_terminal_play_falls_back_to_the_line_mode(tmp_path: Path) -> None:
    env = {**os.environ, "CASTLE_DATA_DIR": str(tmp_path), "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "castle", "play", "--deal", "2"],
        input="7 8\nq\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0 and "moves 1" in done.stdout


def test_plain_mode_continues_a_saved_game(tmp_path: Path) -> None:
    first = castle_play(["--deal", "2"], "7 8\nq\n", tmp_path)
    assert "moves 1" in first.stdout and "saved" in first.stdout
    again = castle_play([], "u\nq\n", tmp_path)
    assert "Medium · deal 2 · moves 1" in again.stdout
    assert "moves 2" in again.stdout  # the undo counts as a move


def test_plain_mode_without_arguments_says_it_continues(tmp_path: Path) -> None:
    castle_play(["--deal", "2"], "7 8\nq\n", tmp_path)
    again = castle_play([], "q\n", tmp_path)
    assert "continuing the unfinished game (n starts a new deal)" in again.stdout
    assert "Medium · deal 2 · moves 1" in again.stdout
    castle_play([], "n\ny\nq\n", tmp_path)  # that one lost; a new deal, no move made yet
    fresh = castle_play([], "q\n", tmp_path)
    assert "continuing" in fresh.stdout and "moves 0" in fresh.stdout


def test_plain_mode_asks_before_a_new_deal_counts_the_game_as_lost(tmp_path: Path) -> None:
    kept = castle_play(["--deal", "2"], "7 8\nn\nno\nq\n", tmp_path)
    assert "it counts as lost. Start one? (y/n)" in kept.stdout
    assert "kept: this game goes on" in kept.stdout
    assert SaveStore(tmp_path).record("medium").played == 0
    resumed = Game.resume(SaveStore(tmp_path))
    assert resumed is not None and resumed.deal.number == 2 and resumed.moves == 1
    ended = castle_play([], "n\ny\nq\n", tmp_path)
    assert "it counts as lost. Start one? (y/n)" in ended.stdout
    assert SaveStore(tmp_path).record("medium") == LevelRecord(0, 1, 0, 0)
    unasked = castle_play([], "n\nq\n", tmp_path)  # no move made in it: no question
    assert "(y/n)" not in unasked.stdout


def test_plain_mode_tells_of_corrupt_statistics_when_it_reads_them(tmp_path: Path) -> None:
    (tmp_path / "statistics.json").write_text("[1, 2")
    done = castle_play(["--deal", "2"], "s\nq\n", tmp_path)
    assert "castle: warning:" in done.stderr and "statistics.json was not usable" in done.stderr
    assert "every count starts again from 0" in done.stderr
    assert list(tmp_path.glob("statistics.json.corrupt-*"))


def test_plain_spider_hints_are_fair_and_p_peeks(tmp_path: Path) -> None:
    done = castle_play(["--variant", "spider-1", "--deal", "1"], "h\np\nq\n", tmp_path, True)
    assert done.returncode == 0, done.stderr
    assert "fair hint: try " in done.stdout
    assert "thoughtful hint (it peeked at the face-down cards and the stock): try " in done.stdout


def test_plain_mode_refuses_illegal_commands_and_goes_on(tmp_path: Path) -> None:
    done = castle_play(["--deal", "2"], "1\n1 9\nx y z w\n3 f\n7 8\nq\n", tmp_path)
    assert done.returncode == 0
    assert "not done: 3D has nowhere to go" in done.stdout
    assert "not a column: '9'" in done.stdout and "not a command" in done.stdout
    assert "moves 1" in done.stdout


def test_a_corrupt_save_gives_a_message_and_a_fresh_game(tmp_path: Path) -> None:
    (tmp_path / "game.json").write_text("{ this is not json")
    done = castle_play(["--level", "medium"], "q\n", tmp_path)
    assert done.returncode == 0
    assert "warning" in done.stderr and "not JSON" in done.stderr
    assert "starting afresh" in done.stderr
    assert "Medium · deal" in done.stdout and "moves 0" in done.stdout
    assert list(tmp_path.glob("game.json.corrupt-*"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--level", "expert"], "unknown level 'expert'"),
        (["--deal", "0"], "deal"),
        (["--level", "easy", "--deal", "1"], "Easy plays only those"),
    ],
)
def test_play_refuses_bad_arguments(tmp_path: Path, args: list[str], message: str) -> None:
    done = castle_play(args, "q\n", tmp_path)
    assert done.returncode == 2 and message in done.stderr
