"""``castle play`` (``castle.cli.play``): which game it opens (the picker, a level, a deal, the
unfinished game), the line mode without a terminal, bad arguments refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from castle import FOUNDATION, Deal, Game, LevelRecord, SaveStore
from castle.cli.play import open_game
from playing import castle_play

DEAL = Deal.from_number("beleaguered-castle", 2)


def test_play_opens_on_the_picker_even_with_a_game_unfinished(tmp_path: Path) -> None:
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
