"""The line mode (``castle play --plain``, castle.cli.plain)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import castle
from castle import Deal, Game, LevelRecord, SaveStore
from playing import castle_play

DEAL = Deal.from_number("beleaguered-castle", 2)


def test_spider_in_the_line_mode(tmp_path: Path) -> None:
    commands = []
    for move in castle.solve(castle.SpiderDeal.from_number("spider-1", 1)).moves:
        if move.kind == "deal":
            commands.append("d")
        elif move.kind == "off":
            assert move.src is not None
            commands.append(f"{move.src + 1} o")
        else:
            assert move.src is not None and move.dst is not None
            commands.append(f"{move.src + 1} {move.dst + 1} {len(move.cards)}")
    done = subprocess.run(
        [sys.executable, "-m", "castle", "play", "--plain", "--variant", "spider-1", "--deal", "1"],
        input="\n".join(commands) + "\nq\n",
        capture_output=True,
        text=True,
        env={**os.environ, "CASTLE_DATA_DIR": str(tmp_path), "NO_COLOR": "1"},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Spider (1 suit) · deal 1 · moves 0" in done.stdout and "##" in done.stdout
    assert "You won!" in done.stdout and "Spider (1 suit): 1 won, 0 lost (100%)" in done.stdout


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


def test_plain_mode_offers_a_new_deal_when_the_hint_has_no_move(tmp_path: Path) -> None:
    # Beleaguered Castle deal 1: no play wins it (a proof). The hint says so, and asks.
    done = castle_play(["--level", "medium", "--deal", "1"], "h\nn\nh\ny\nq\n", tmp_path)
    assert done.returncode == 0, done.stderr
    said = done.stdout
    assert said.count("hint: no win from here") == 2
    assert said.count("No play wins from here: a new deal? (y/n)") == 2
    assert "kept: this game goes on" in said
    resumed = Game.resume(SaveStore(tmp_path))
    assert resumed is not None and resumed.deal.number != 1  # the second time: dealt anew
    assert SaveStore(tmp_path).record("medium").played == 0  # no move made: no loss


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
