"""The player lock (castle.saves.player_lock): one player at a time on a directory, and nothing in
the lock file's place lets a second one in. Two players contending, castle play and castle
serve, are in tests/test_saves.py and tests/serve/test_app.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from castle import Deal, Game, SaveStore
from castle.saves.player_lock import StoreBusyError, StoreLockError


def test_a_directory_at_the_player_lock_is_refused_not_ignored(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = Game.new("medium", deal=Deal.from_number("beleaguered-castle", 2), store=store)
    game.tap(6)
    saved = store.game_path.read_bytes()
    (tmp_path / "player.lock").mkdir()  # no lock file can be taken there
    for command in (["play", "--plain", "--new"], ["serve", "--port", "0"]):
        done = subprocess.run(
            [sys.executable, "-m", "castle", *command, "--data-dir", str(tmp_path)],
            input="7 8\nq\n",
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.count("\n") == 1 and done.stdout == ""
        assert f"{tmp_path / 'player.lock'} is a directory, not castle's player lock" in (
            done.stderr
        )
        assert "move it out of the way" in done.stderr
    assert store.game_path.read_bytes() == saved and store.statistics() == {}
    assert (tmp_path / "player.lock").is_dir()  # not castle's to remove


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX locks")
@pytest.mark.parametrize("target", ["important.txt", "nowhere.txt"])
def test_a_symbolic_link_at_the_player_lock_is_refused_never_followed(
    tmp_path: Path, target: str
) -> None:
    # A link to a file of the player's, or to nowhere: neither is written, nor made.
    important = tmp_path / "important.txt"
    important.write_text("the player's own")
    data = tmp_path / "data"
    data.mkdir()
    (data / "player.lock").symlink_to(tmp_path / target)
    for command in (["play", "--plain", "--new"], ["serve", "--port", "0"]):
        done = subprocess.run(
            [sys.executable, "-m", "castle", *command, "--data-dir", str(data)],
            input="7 8\nq\n",
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2 and done.stdout == "", done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        assert f"{data / 'player.lock'} is a symbolic link, not castle's player lock" in (
            done.stderr
        )
    assert important.read_text() == "the player's own"
    assert not (tmp_path / "nowhere.txt").exists()
    assert (data / "player.lock").is_symlink()  # not castle's to remove


def take_lock(directory: Path) -> None:
    """The player lock of ``directory`` taken, and let go."""
    with SaveStore(directory).player_lock():
        pass


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX locks and FIFOs")
def test_a_fifo_at_the_player_lock_is_refused_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "player.lock")
    with pytest.raises(StoreLockError, match="is a FIFO, not castle's player lock"):
        take_lock(tmp_path)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX locks")
def test_a_lock_file_that_cannot_be_written_still_locks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As for a lock file of another user, or on a read-only disk (root writes anything, so
    # the refusal is made here): a lock taken on it read-only keeps the second player out.
    opened = os.open

    def read_only(path: Any, flags: int, *mode: int) -> int:
        if Path(path).name == "player.lock" and flags & (os.O_RDWR | os.O_WRONLY):
            raise PermissionError(13, "Permission denied", str(path))
        return opened(path, flags, *mode)

    (tmp_path / "player.lock").write_text("")
    monkeypatch.setattr(os, "open", read_only)
    busy = pytest.raises(StoreBusyError, match="is using")
    with SaveStore(tmp_path).player_lock(), busy:
        take_lock(tmp_path)
    take_lock(tmp_path)  # let go with the first
