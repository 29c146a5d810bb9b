"""Saves and statistics: saved after every action, resumed exactly, atomic under a kill,
corrupt files set aside and reported, statistics per level."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import castle
import pytest
from castle import Deal, Game, LevelRecord, SaveStore
from castle.saves import write_atomic
from playing import tappable


class Clock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


DEAL = Deal.from_number("beleaguered-castle", 2)


def played(store: SaveStore, clock: Clock) -> Game:
    """Deal 2 with six actions of its win made, one undone."""
    game = Game.new("medium", deal=DEAL, store=store, clock=clock)
    for m in castle.solve(DEAL).moves[:6]:
        clock.now += 2
        game.move(m.src, m.dst)
    game.undo()
    return game


def test_every_action_is_saved_and_resumed_exactly(tmp_path: Path) -> None:
    clock = Clock()
    store = SaveStore(tmp_path)
    game = played(store, clock)
    clock.now += 3
    again = Game.resume(SaveStore(tmp_path), clock=clock)
    assert again is not None
    # The save was written by the undo, 12 seconds into play; the clock runs on from there.
    assert again.position == game.position and again.history == game.history
    assert (again.moves, again.undos, again.level) == (game.moves, game.undos, "medium")
    assert again.seconds == 12 and again.deal.number == 2
    assert again.can_redo
    again.redo()
    game.redo()
    assert again.history == game.history and again.position == game.position


def test_resume_without_a_save_is_none(tmp_path: Path) -> None:
    assert Game.resume(SaveStore(tmp_path)) is None


def test_a_pause_is_saved(tmp_path: Path) -> None:
    clock = Clock()
    game = Game.new("medium", deal=DEAL, store=SaveStore(tmp_path), clock=clock)
    clock.now += 40
    game.pause()
    clock.now += 1000
    again = Game.resume(SaveStore(tmp_path), clock=clock)
    assert again is not None and again.seconds == 40


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"\x00\xffnot text", "unreadable"),
        (b'{"format": "castle-game", "version": 1, "level"', "not JSON"),
        (b'{"hello": "world"}', "not a castle save"),
        (b'{"format": "castle-game", "version": 99}', "format version 99"),
    ],
)
def test_a_corrupt_save_is_set_aside_and_reported(
    tmp_path: Path, content: bytes, reason: str
) -> None:
    store = SaveStore(tmp_path)
    store.record_result("easy", won=True)
    statistics = store.statistics_path.read_bytes()
    store.game_path.write_bytes(content)
    assert Game.resume(store) is None
    assert len(store.notices) == 1 and reason in store.notices[0]
    (aside,) = tmp_path.glob("game.json.corrupt-*")
    assert aside.read_bytes() == content  # kept, never lost
    assert not store.game_path.exists()
    assert store.statistics_path.read_bytes() == statistics
    # A fresh game starts, and records no loss for the corrupt one.
    Game.new("easy", deal=DEAL, store=store)
    assert store.record("easy") == LevelRecord(1, 0, 1, 1)


def test_a_save_edited_into_an_illegal_game_is_refused(tmp_path: Path) -> None:
    clock = Clock()
    store = SaveStore(tmp_path)
    played(store, clock)
    data = json.loads(store.game_path.read_text())
    data["done"][2][0][1] = (data["done"][2][0][1] + 1) % 8  # a card from the wrong column
    store.game_path.write_text(json.dumps(data))
    assert Game.resume(store) is None
    assert "not legal" in store.notices[0] or "not a castle save" in store.notices[0]


@pytest.mark.parametrize(
    ("field", "value"),
    [("deal", 3), ("moves", -1), ("seconds", "soon"), ("seconds", float("inf")), ("level", 4)],
)
def test_a_save_with_a_bad_field_is_refused(tmp_path: Path, field: str, value: object) -> None:
    store = SaveStore(tmp_path)
    played(store, Clock())
    data = json.loads(store.game_path.read_text())
    data[field] = value
    store.game_path.write_text(json.dumps(data))
    assert Game.resume(store) is None and store.notices


def test_an_interrupt_between_write_and_rename_keeps_the_old_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    store = SaveStore(tmp_path)
    game = played(store, clock)
    before = store.game_path.read_bytes()

    def killed(src: object, dst: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        game.redo()
    monkeypatch.undo()
    assert store.game_path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left
    again = Game.resume(SaveStore(tmp_path), clock=clock)
    assert again is not None and again.can_redo


def test_write_atomic_replaces_whole(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "file.json"
    write_atomic(path, "one")
    write_atomic(path, "two")
    assert path.read_text() == "two" and len(list(path.parent.iterdir())) == 1


KILLED_PLAYER = textwrap.dedent(
    """
    import sys, castle
    store = castle.SaveStore(sys.argv[1])
    deal = castle.Deal.from_number("beleaguered-castle", 2)
    game = castle.Game.new("medium", deal=deal, store=store)
    moves = castle.solve(deal).moves[:20]
    print("ready", flush=True)
    while True:
        for m in moves:
            game.move(m.src, m.dst)
        while game.can_undo:
            game.undo()
    """
)


def test_a_save_survives_a_kill_at_any_moment(tmp_path: Path) -> None:
    for delay in (0.05, 0.13, 0.21, 0.34, 0.55):
        player = subprocess.Popen(
            [sys.executable, "-c", KILLED_PLAYER, str(tmp_path)], stdout=subprocess.PIPE
        )
        assert player.stdout is not None and player.stdout.readline() == b"ready\n"
        time.sleep(delay)
        player.send_signal(signal.SIGKILL)
        player.wait()
        store = SaveStore(tmp_path)
        game = Game.resume(store)
        assert game is not None and not store.notices
        assert game.deal.number == 2
        assert not list(tmp_path.glob(".*.tmp"))  # what the kill left is cleared


def test_statistics_per_level(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    for won in (True, True, False, True):
        store.record_result("hard", won=won)
    store.record_result("easy", won=False)
    hard = SaveStore(tmp_path).record("hard")
    assert hard == LevelRecord(wins=3, losses=1, streak=1, best_streak=2)
    assert hard.win_percentage == 75.0
    assert str(hard) == "3 won, 1 lost (75%); streak 1, best 2"
    assert store.record("easy") == LevelRecord(0, 1, 0, 0)
    assert store.record("medium").win_percentage is None


def test_a_new_deal_over_an_unfinished_one_records_a_loss_at_its_level(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    Game.new("hard", deal=Deal.from_number("streets-and-alleys", 4), store=store)
    Game.new("easy", deal=DEAL, store=store)  # no move made in the hard game: no loss
    assert store.record("hard").played == 0
    game = Game.resume(store)
    assert isinstance(game, Game) and game.level == "easy"
    game.tap(next(i for i, c in enumerate(game.columns) if c and tappable(game, i)))
    Game.new("medium", deal=DEAL, store=store)
    assert store.record("easy") == LevelRecord(0, 1, 0, 0)


def test_a_win_is_recorded_once(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = Game.new("medium", deal=DEAL, store=store)
    for m in castle.solve(DEAL).moves:
        if game.is_won:
            break
        game.move(m.src, m.dst)
    assert store.record("medium") == LevelRecord(1, 0, 1, 1)
    again = Game.resume(store)
    assert again is not None and again.is_won
    Game.new("medium", deal=DEAL, store=store)  # a won game is finished: no loss
    assert store.record("medium") == LevelRecord(1, 0, 1, 1)


def test_corrupt_statistics_are_set_aside_not_overwritten(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    store.statistics_path.parent.mkdir(parents=True, exist_ok=True)
    store.statistics_path.write_text('{"format": "castle-statistics", "version": 1, "levels": 7}')
    store.record_result("easy", won=True)
    (aside,) = tmp_path.glob("statistics.json.corrupt-*")
    assert "levels" in aside.read_text()
    assert store.record("easy") == LevelRecord(1, 0, 1, 1)
    assert store.notices and "not castle statistics" in store.notices[0]


def spider_save() -> dict[str, object]:
    game = castle.SpiderGame(castle.SpiderDeal.from_number("spider", 1))
    _, src, dst, count = next(m for m in game.position.core.legal_moves() if m[0] == "run")
    game.move(src, dst, count)
    game.undo()
    game.redo()
    return game.to_save()


def damaged(edit: str) -> str:
    """A save damaged the way ``edit`` says (the cases that once crashed every start)."""
    if edit == "nested":
        return "[" * 100_000 + "]" * 100_000
    data: dict[str, Any] = spider_save()
    if edit == "count 256":
        data["done"][0][3] = 256
    elif edit == "column 32768":
        data["done"][0][1] = 32768
    elif edit == "deal 2**64":
        data["deal"] = 2**64
    elif edit == "undone column -2":
        data["undone"] = [["run", -2, 3, 1]]
    elif edit == "castle deal 2**64":
        data = Game(DEAL).to_save()
        data["deal"] = 2**64
    return json.dumps(data)


@pytest.mark.parametrize(
    "edit",
    ["count 256", "column 32768", "deal 2**64", "undone column -2", "castle deal 2**64", "nested"],
)
def test_any_damaged_save_is_set_aside_with_one_line_and_play_starts_afresh(
    tmp_path: Path, edit: str
) -> None:
    text = damaged(edit)
    for args in (["--plain"], ["--plain", "--new"]):
        (tmp_path / "game.json").write_text(text)
        done = subprocess.run(
            [sys.executable, "-m", "castle", "play", *args, "--data-dir", str(tmp_path)],
            input="q\n",
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        warnings = [line for line in done.stderr.splitlines() if "was not usable" in line]
        assert len(warnings) == 1, done.stderr
        assert "starting afresh" in warnings[0]
        asides = sorted(tmp_path.glob("game.json.corrupt-*"))
        assert asides and asides[-1].read_text() == text  # kept, never lost
        for aside in asides:
            aside.unlink()
