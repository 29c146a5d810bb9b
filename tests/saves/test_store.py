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
import castle.saves.store
import pytest
from castle import Deal, Game, LevelRecord, SaveStore
from castle.saves.player_lock import StoreBusyError, lock_directory
from castle.saves.store import write_atomic
from playing import castle_play_process, tappable
from processes import finish


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
    [
        ("deal", 3),
        ("moves", -1),
        pytest.param("moves", 10**400, id="moves-10**400"),
        ("moves", 2**53),
        ("undos", 2**80),
        ("seconds", "soon"),
        ("seconds", float("inf")),
        ("level", 4),
    ],
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


@pytest.mark.parametrize("count", ["wins", "losses", "streak", "best_streak"])
def test_statistics_with_a_count_out_of_range_are_set_aside(tmp_path: Path, count: str) -> None:
    store = SaveStore(tmp_path)
    store.record_result("easy", won=True)
    data = json.loads(store.statistics_path.read_text())
    data["levels"]["easy"][count] = 10**400
    store.statistics_path.write_text(json.dumps(data))
    assert store.record("easy") == LevelRecord()
    assert len(store.notices) == 1 and "expected a count" in store.notices[0]
    assert "digits" in store.notices[0] and len(store.notices[0]) < 400  # the number cut short
    (aside,) = tmp_path.glob("statistics.json.corrupt-*")
    assert json.loads(aside.read_text()) == data  # kept, never lost


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


# --- two players, one directory -------------------------------------------------------------


def test_a_second_player_on_the_directory_is_refused_and_the_first_loses_nothing(
    tmp_path: Path,
) -> None:
    first = castle_play_process(tmp_path, "--deal", "2")
    assert first.stdout is not None and first.stdin is not None
    assert first.stdout.readline().startswith("Medium · deal 2")  # the first is playing
    second = subprocess.run(
        [sys.executable, "-m", "castle", "play", "--plain", "--new", "--data-dir", str(tmp_path)],
        input="7 8\nq\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert second.returncode == 2 and "Traceback" not in second.stderr
    assert second.stderr.count("\n") == 1
    assert f"another castle player (pid {first.pid} on" in second.stderr
    _, err = first.communicate("7 8\nq\n", timeout=60)
    assert first.returncode == 0, err
    resumed = Game.resume(SaveStore(tmp_path))
    assert resumed is not None and resumed.deal.number == 2 and resumed.moves == 1
    assert SaveStore(tmp_path).statistics() == {}  # nobody's game was entered as a loss
    # The lock went with the first process: the next player plays.
    again = subprocess.run(
        [sys.executable, "-m", "castle", "play", "--plain", "--data-dir", str(tmp_path)],
        input="q\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert again.returncode == 0 and "continuing the unfinished game" in again.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX locks")
def test_a_store_that_locks_on_use_holds_its_directory_from_its_first_use(
    tmp_path: Path,
) -> None:
    player = tmp_path / "players" / "p"
    served = SaveStore(player, lock_on_use=True)
    assert Game.resume(served) is None and served.statistics() == {}
    assert not player.exists()  # nothing read, nothing made, nothing locked
    game = Game.new("medium", deal=DEAL, store=served)
    game.tap(next(i for i, c in enumerate(game.columns) if c and tappable(game, i)))
    with pytest.raises(StoreBusyError, match=f"is using {player}"):
        lock_directory(player, create=False)
    served.release()
    with SaveStore(player).player_lock():  # the terminal plays it now
        again = SaveStore(player, lock_on_use=True)
        with pytest.raises(StoreBusyError):
            Game.resume(again)
        with pytest.raises(StoreBusyError):
            Game.new("easy", deal=DEAL, store=again)
    assert SaveStore(player).statistics() == {}  # the game going was not entered as a loss
    resumed = Game.resume(again)
    assert resumed is not None and resumed.moves == 1


def test_only_abandoned_temporary_files_are_removed(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    Game.new("medium", deal=DEAL, store=store)
    host = castle.saves.store._writer().rsplit(".", 1)[0]
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    try:
        in_flight = tmp_path / f".game.json.{host}.{alive.pid}.abc123.tmp"
        left_by_the_dead = tmp_path / f".game.json.{host}.{dead.pid}.def456.tmp"
        other_machine = tmp_path / f".game.json.elsewhere.{dead.pid}.ghi789.tmp"
        stale = tmp_path / f".statistics.json.elsewhere.{alive.pid}.jkl012.tmp"
        for path in (in_flight, left_by_the_dead, other_machine, stale):
            path.write_text("{")
        os.utime(stale, (time.time() - 2 * 3600, time.time() - 2 * 3600))
        assert Game.resume(store) is not None
        assert in_flight.exists() and other_machine.exists()
        assert not left_by_the_dead.exists() and not stale.exists()
    finally:
        alive.kill()
        alive.wait()


def test_saving_and_loading_from_two_processes_at_once_never_fail(tmp_path: Path) -> None:
    # One process saves again and again while another loads (which clears abandoned
    # temporary files): no save in flight may be taken for abandoned.
    script = textwrap.dedent(
        f"""
        import sys, castle
        store = castle.SaveStore({str(tmp_path)!r})
        game = castle.Game(castle.Deal.from_number("beleaguered-castle", 2), store=store)
        for i in range(400):
            if sys.argv[1] == "save":
                assert store.save_game(game), store.notices
            else:
                castle.Game.resume(store, paused=True)
        assert not store.notices, store.notices
        """
    )
    runs = [
        subprocess.Popen([sys.executable, "-c", script, role], stderr=subprocess.PIPE, text=True)
        for role in ("save", "load", "save", "load")
    ]
    for run in runs:
        _, err = finish(run, 120)
        assert run.returncode == 0, err


# --- a save that cannot be written ----------------------------------------------------------


def test_a_save_that_cannot_be_written_is_told_once_and_play_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SaveStore(tmp_path)
    clock = Clock()
    game = played(store, clock)
    good = store.game_path.read_text()

    def full(path: Path, text: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(castle.saves.store, "write_atomic", full)
    moves = castle.solve(game.position).moves
    game.move(moves[0].src, moves[0].dst)
    game.undo()
    game.redo()
    Game.new("medium", deal=DEAL, store=store)  # records the loss: cannot either
    assert len(store.notices) == 1 and "No space left on device" in store.notices[0]
    assert store.game_path.read_text() == good  # the last good save, as it was
    monkeypatch.undo()
    game.undo()
    assert store.notices[1] == f"saving in {tmp_path} works again"
    assert Game.resume(store) is not None


def test_castle_play_goes_on_when_the_disk_is_full(tmp_path: Path) -> None:
    # A limit on the size of the files this process may write stands for a full disk (root
    # writes into a read-only directory, so that cannot stand for it here).
    command = [sys.executable, "-m", "castle", "play", "--plain", "--data-dir", str(tmp_path)]
    first = subprocess.run(
        [*command, "--deal", "2"],
        input="7 8\nq\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert first.returncode == 0, first.stderr
    good = (tmp_path / "game.json").read_text()

    def small_files() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64))

    full = subprocess.run(
        command,
        input="5 3\nu\nr\nq\n",
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=small_files,
    )
    assert full.returncode == 0, full.stderr
    assert "Traceback" not in full.stderr
    told = [line for line in full.stderr.splitlines() if "cannot save" in line]
    assert len(told) == 1 and "File too large" in told[0]
    assert "moves 4" in full.stdout  # the move, the undo and the redo were all made
    last = full.stdout.splitlines()[-1]
    assert last.startswith("not saved:"), last  # no false comfort
    assert (tmp_path / "game.json").read_text() == good


# --- what is found in a file's place --------------------------------------------------------


def one_gigabyte() -> None:
    """A subprocess's address space capped at 1 GB: a read without bound fails there rather
    than take the machine's memory."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def castle_play_quits(data: Path, **run: Any) -> subprocess.CompletedProcess[str]:
    """``castle play --plain`` on ``data``, quit at once (nothing in its place may hang it)."""
    return subprocess.run(
        [sys.executable, "-m", "castle", "play", "--plain", "--data-dir", str(data)],
        input="q\n",
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=one_gigabyte,
        **run,
    )


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and /dev/zero")
@pytest.mark.parametrize(
    ("name", "kind"),
    [("game.json", "a FIFO"), ("game.json", "a directory"), ("game.json", "/dev/zero")],
)
def test_only_a_regular_file_is_read_anything_else_is_set_aside(
    tmp_path: Path, name: str, kind: str
) -> None:
    path = tmp_path / name
    if kind == "a FIFO":
        os.mkfifo(path)  # opened for reading, it waits for a writer that never comes
    elif kind == "a directory":
        path.mkdir()
        (path / "kept.txt").write_text("mine")
    else:
        path.symlink_to("/dev/zero")  # read to its end, it never ends
    done = castle_play_quits(tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    (warning,) = [line for line in done.stderr.splitlines() if "was not usable" in line]
    said = "a character device" if kind == "/dev/zero" else kind
    assert f"({said}, not a file)" in warning
    (aside,) = tmp_path.glob(f"{name}.corrupt-*")  # set aside as it was, never deleted
    if kind == "a FIFO":
        assert aside.is_fifo()
    elif kind == "a directory":
        assert (aside / "kept.txt").read_text() == "mine"
    else:
        assert aside.is_symlink() and os.readlink(aside) == "/dev/zero"
    assert Game.resume(SaveStore(tmp_path)) is not None  # the new deal is saved in its place


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs")
def test_statistics_that_are_a_fifo_are_set_aside(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "statistics.json")
    script = f"""if True:
        import castle
        store = castle.SaveStore({str(tmp_path)!r})
        print(store.record("easy"), store.record_result("easy", won=True), *store.notices)
        """
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("0 won, 0 lost (-); streak 0, best 0 1 won, 0 lost")
    assert "statistics.json was not usable (a FIFO, not a file)" in done.stdout
    (aside,) = tmp_path.glob("statistics.json.corrupt-*")
    assert aside.is_fifo()


def test_a_save_larger_than_the_limit_is_set_aside_unread(tmp_path: Path) -> None:
    # A save exactly at the limit is read (spaces after the JSON are still JSON); one byte
    # more and it is set aside, whole.
    store = SaveStore(tmp_path)
    played(store, Clock())
    text = store.game_path.read_text()
    store.game_path.write_text(text.ljust(castle.saves.store.MAX_SAVE_BYTES))
    assert Game.resume(store) is not None and not store.notices
    store.game_path.write_text(text.ljust(castle.saves.store.MAX_SAVE_BYTES + 1))
    assert Game.resume(store) is None
    (notice,) = store.notices
    assert "4,194,305 bytes, more than the 4,194,304 castle reads" in notice
    (aside,) = tmp_path.glob("game.json.corrupt-*")
    assert aside.read_text() == text.ljust(castle.saves.store.MAX_SAVE_BYTES + 1)


@pytest.mark.skipif(sys.platform == "win32", reason="a sparse file and an address limit")
def test_a_huge_save_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    # 2 GB (sparse: no disk taken) under a 1 GB address limit: read whole, it cannot fit.
    with (tmp_path / "game.json").open("wb") as f:
        f.truncate(2 << 30)
    done = castle_play_quits(tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    (warning,) = [line for line in done.stderr.splitlines() if "was not usable" in line]
    assert "2,147,483,648 bytes, more than the 4,194,304 castle reads" in warning
    (aside,) = tmp_path.glob("game.json.corrupt-*")
    assert aside.stat().st_size == 2 << 30


def test_a_data_directory_that_is_a_file_is_told_once_and_says_so(tmp_path: Path) -> None:
    mine = tmp_path / "notes.txt"
    mine.write_text("not castle's")
    for directory in (mine, mine / "castle"):
        store = SaveStore(directory)
        assert Game.resume(store) is None
        assert store.statistics() == {} and store.record("easy") == LevelRecord()
        game = played(store, Clock())  # a new deal (a loss looked for first), moves, an undo
        store.record_result("medium", won=False)
        assert Game.resume(store) is None and game.can_redo  # played on, unsaved
        assert store.notices == [
            f"cannot keep saves in {directory}: {mine} is a file, not a directory; play goes "
            "on, but nothing is saved until it is a directory (or another --data-dir is given)"
        ]
        assert store.write_failure is not None
    assert mine.read_text() == "not castle's" and list(tmp_path.iterdir()) == [mine]


def test_castle_play_on_a_named_directory_that_is_a_file_is_refused(tmp_path: Path) -> None:
    # --data-dir and $CASTLE_DATA_DIR are the player's word: one line, exit 2, nothing played.
    mine = tmp_path / "notes.txt"
    mine.write_text("not castle's")
    play = [sys.executable, "-m", "castle", "play", "--plain", "--deal", "2"]
    for args, env in (
        (["--data-dir", str(mine / "castle")], {}),
        ([], {"CASTLE_DATA_DIR": str(mine)}),
    ):
        done = subprocess.run(
            [*play, *args],
            input="7 8\nq\n",
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, **env},
        )
        assert done.returncode == 2 and done.stdout == "", done.stderr
        (error,) = done.stderr.splitlines()
        assert error.startswith("castle: error: ") and "cannot keep saves" in error
        assert f"{mine} is a file, not a directory" in error
    assert mine.read_text() == "not castle's"


def test_castle_play_on_a_default_directory_that_is_a_file_says_so_once(tmp_path: Path) -> None:
    # The platform's user data directory, under a file: told once, and play goes on unsaved.
    mine = tmp_path / "notes.txt"
    mine.write_text("not castle's")
    env = {k: v for k, v in os.environ.items() if k != "CASTLE_DATA_DIR"}
    done = subprocess.run(
        [sys.executable, "-m", "castle", "play", "--plain", "--deal", "2"],
        input="7 8\nu\nq\n",
        capture_output=True,
        text=True,
        timeout=60,
        env={**env, "XDG_DATA_HOME": str(mine), "HOME": str(mine)},
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    (warning,) = done.stderr.splitlines()
    assert f"{mine} is a file, not a directory" in warning and "File exists" not in warning
    assert done.stdout.splitlines()[-1].startswith("not saved:")
    assert mine.read_text() == "not castle's"
