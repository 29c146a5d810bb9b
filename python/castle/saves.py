"""The player's files: the game in progress and the statistics, in the user's data directory.

Every write is atomic (a temporary file in the same directory, flushed to disk, then renamed
over the old one), so a kill at any moment leaves the old file or the new one, never half of
either. A file that is corrupt or foreign is never overwritten or deleted: it is renamed aside
(``game.json.corrupt-<time>``) and reported: each notice goes to :attr:`SaveStore.on_notice`
when a front end has set it, else it waits in :attr:`SaveStore.notices`.

A write that fails (a read-only directory, a full disk) leaves the last good file as it was
and is reported once; play goes on, and every later write tries again. One player at a time:
a front end holds :meth:`SaveStore.player_lock` while a game is played, so a second player on
the same directory is refused with a message naming the first, rather than overwrite the
first's game. A temporary file is removed only when it is provably abandoned: its writer (named
in it) is no longer running on this machine, or it is older than any write could take.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import platformdirs

try:
    import fcntl
except ImportError:  # not POSIX (Windows): no player lock, the rest works the same
    fcntl = None  # type: ignore[assignment]

from .errors import SaveError
from .records import LevelRecord, Settings

APP_NAME = "castle-solitaire"
STATS_FORMAT = "castle-statistics"
STATS_VERSION = 1

#: A temporary file this old is abandoned whoever wrote it (a write takes milliseconds); one
#: written on another machine sharing the directory is removed only then.
ABANDONED_SECONDS = 3600


#: What :meth:`SaveStore._read` finds where there is no file to use (JSON's null is a value).
NOTHING: Any = object()


class StoreBusyError(SaveError):
    """Another player holds the save directory (:meth:`SaveStore.player_lock`)."""


def count_field(value: object) -> int:
    """A count in a save file (moves, undos); :class:`SaveError` unless a whole number >= 0."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SaveError(f"expected a count, found {value!r}")
    return value


def seconds_field(value: object) -> float:
    """Seconds played in a save file; :class:`SaveError` unless a sane number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1e9:
        raise SaveError(f"seconds played: {value!r}")
    return float(value)


def default_directory() -> Path:
    """Where saves live unless told otherwise: ``$CASTLE_DATA_DIR``, else the platform's user
    data directory (``~/.local/share/castle-solitaire`` on Linux)."""
    override = os.environ.get("CASTLE_DATA_DIR")
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def _writer() -> str:
    """Who writes a temporary file, as its name says it: this machine and process."""
    host = socket.gethostname().replace(".", "_") or "host"
    return f"{host}.{os.getpid()}"


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` all at once (write, fsync, rename, fsync the directory).
    The temporary file's name says who writes it (``.game.json.HOST.PID.xxxx.tmp``), so that
    no other process takes it for abandoned while it is in flight."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(
        dir=path.parent, prefix=f".{path.name}.{_writer()}.", suffix=".tmp"
    )
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    if hasattr(os, "O_DIRECTORY"):
        # The rename itself reaches the disk only with the directory.
        directory = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


class Saveable(Protocol):
    """A game that can be written down (``castle.Game``, ``castle.SpiderGame``)."""

    def to_save(self) -> dict[str, Any]: ...


class SaveStore:
    """The save directory: ``game.json`` (the game in progress, undo history included) and
    ``statistics.json`` (per level, and the player's settings)."""

    GAME = "game.json"
    STATISTICS = "statistics.json"

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_directory()
        #: What went wrong with files found here (each set aside), for the player to show.
        self.notices: list[str] = []
        #: Where each new notice goes at once, if set (a front end that shows it then); else
        #: it waits in :attr:`notices`.
        self.on_notice: Callable[[str], None] | None = None
        #: Why the last write failed (None: writing works), so that a failure is told once.
        self.write_failure: str | None = None

    @property
    def game_path(self) -> Path:
        return self.directory / self.GAME

    @property
    def statistics_path(self) -> Path:
        return self.directory / self.STATISTICS

    # --- the game -----------------------------------------------------------------------------

    def save_game(self, game: Saveable) -> bool:
        """Write the game (False if it could not be: see :meth:`_write`)."""
        return self._write(self.game_path, json.dumps(game.to_save(), separators=(",", ":")))

    @contextlib.contextmanager
    def player_lock(self) -> Iterator[None]:
        """Hold the directory for one player while a game is played: a second player on it
        is refused (:class:`StoreBusyError`, naming the first) instead of overwriting the
        first's game or entering it as a loss. The lock is the operating system's, so it goes
        with the process however that ends. Where no lock can be taken (no POSIX locks, or a
        directory that cannot hold the lock file, so no save either) play goes on unlocked."""
        path = self.directory / "player.lock"
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            yield
            return
        try:
            if fcntl is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    holder = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
                    raise StoreBusyError(
                        f"another castle player ({holder or 'a running process'}) is using "
                        f"{self.directory}: quit that `castle play` or `castle serve` first, "
                        "or play with another --data-dir"
                    ) from None
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, 0)
                    host, pid = _writer().rsplit(".", 1)
                    os.pwrite(fd, f"pid {pid} on {host}".encode(), 0)
            yield
        finally:
            os.close(fd)

    def read_game(self) -> Any:
        """The saved game's JSON, as it is (``castle.played.load_game`` makes it a game);
        :data:`NOTHING` if there is none, or the file was unreadable (then it is set aside and
        reported). Temporary files a killed writer left are cleared first."""
        self._remove_temporaries()
        return self._read(self.game_path)

    def set_aside_game(self, reason: str) -> None:
        """The saved game is not usable (``reason``): move it aside and report it."""
        self._set_aside(self.game_path, reason)

    def clear_game(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.game_path.unlink()

    # --- statistics ---------------------------------------------------------------------------

    def statistics(self) -> dict[str, LevelRecord]:
        """Each level's record (levels never played are absent)."""
        stored = self._statistics()
        return stored[0] if stored is not None else {}

    def record(self, level_id: str) -> LevelRecord:
        return self.statistics().get(level_id, LevelRecord())

    def record_result(self, level_id: str, *, won: bool) -> LevelRecord:
        """Enter one finished game in the level's statistics."""
        stored = self._statistics()
        if stored is None:
            # An unusable file that could not be moved aside stays as it is: the result is
            # lost rather than the statistics.
            return LevelRecord().after(won)
        records, settings = stored
        records[level_id] = records.get(level_id, LevelRecord()).after(won)
        self._write_statistics(records, settings)
        return records[level_id]

    # --- settings -----------------------------------------------------------------------------

    def settings(self) -> Settings:
        """The player's settings (the defaults until some are saved)."""
        stored = self._statistics()
        return stored[1] if stored is not None else Settings()

    def save_settings(self, settings: Settings) -> None:
        """Keep ``settings`` for the next start (in the statistics file, written atomically)."""
        stored = self._statistics()
        if stored is not None:  # else, as for a result, the unusable file is left alone
            self._write_statistics(stored[0], settings)

    # --- the statistics file ------------------------------------------------------------------

    def _statistics(self) -> tuple[dict[str, LevelRecord], Settings] | None:
        """The records and the settings; None when the file is unusable and still in place."""
        data = self._read(self.statistics_path)
        if data is NOTHING:
            return None if self.statistics_path.exists() else ({}, Settings())
        try:
            if (
                not isinstance(data, dict)
                or data.get("format") != STATS_FORMAT
                or data.get("version") != STATS_VERSION
                or not isinstance(data.get("levels"), dict)
            ):
                raise SaveError("not castle statistics")
            records = {str(k): LevelRecord.from_json(v) for k, v in data["levels"].items()}
            settings = Settings.from_json(data.get("settings", {}))
            return records, settings
        except SaveError as e:
            self._set_aside(self.statistics_path, str(e))
            return None if self.statistics_path.exists() else ({}, Settings())

    def _write_statistics(self, records: dict[str, LevelRecord], settings: Settings) -> None:
        data = {
            "format": STATS_FORMAT,
            "version": STATS_VERSION,
            "levels": {k: v.to_json() for k, v in sorted(records.items())},
            "settings": settings.to_json(),
        }
        self._write(self.statistics_path, json.dumps(data, indent=1))

    # --- inside -------------------------------------------------------------------------------

    def _read(self, path: Path) -> Any:
        """The JSON in ``path`` (``null`` too, which no caller takes for castle's); NOTHING if
        there is no file, or if it was unreadable (then it is set aside and reported)."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return NOTHING
        except (OSError, UnicodeDecodeError) as e:
            self._set_aside(path, f"unreadable: {e}")
            return NOTHING
        try:
            return json.loads(text)
        except ValueError as e:
            self._set_aside(path, f"not JSON: {e}")
            return NOTHING
        except RecursionError:
            self._set_aside(path, "nested too deep to be castle's")
            return NOTHING

    def _write(self, path: Path, text: str) -> bool:
        """Write ``path`` atomically. A failure (a read-only directory, a full disk) leaves the
        last good file as it was and is told once; every later write tries again, and the
        first to succeed says so."""
        try:
            write_atomic(path, text)
        except OSError as e:
            reason = e.strerror or str(e)
            if self.write_failure is None:
                self._notify(
                    f"cannot save in {self.directory} ({reason}); play goes on, castle "
                    "tries again after every move, and the last save is kept as it was"
                )
            self.write_failure = reason
            return False
        if self.write_failure is not None:
            self.write_failure = None
            self._notify(f"saving in {self.directory} works again")
        return True

    def _remove_temporaries(self) -> None:
        """Temporary files a killed writer left behind (never the files themselves, nor a
        write in flight): those whose writer, named in them, no longer runs on this machine,
        and any older than :data:`ABANDONED_SECONDS`."""
        host = _writer().rsplit(".", 1)[0]
        for name in (self.GAME, self.STATISTICS):
            for leftover in self.directory.glob(f".{name}.*.tmp"):
                writer = leftover.name[len(name) + 2 :].split(".")
                with contextlib.suppress(OSError):
                    old = time.time() - leftover.stat().st_mtime > ABANDONED_SECONDS
                    mine = len(writer) >= 3 and writer[0] == host and writer[1].isdigit()
                    if old or (mine and not _running(int(writer[1]))):
                        leftover.unlink()

    def _set_aside(self, path: Path, reason: str) -> None:
        """Move the unusable file aside, never over another, and report it: why, where it went,
        and what follows."""
        stamp = time.strftime("%Y%m%dT%H%M%S")
        aside = path.with_name(f"{path.name}.corrupt-{stamp}")
        n = 1
        while aside.exists():
            n += 1
            aside = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        try:
            os.replace(path, aside)
            where = f"moved to {aside}"
            moved = True
        except OSError as e:
            where = f"could not be moved aside ({e})"
            moved = False
        if path.name == self.STATISTICS:
            then = "every count starts again from 0" if moved else "no result is recorded"
        else:
            then = "starting afresh"
        self._notify(f"{path} was not usable ({reason}); {where}; {then}")

    def _notify(self, notice: str) -> None:
        if self.on_notice is not None:
            self.on_notice(notice)
        else:
            self.notices.append(notice)


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs on this machine."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # someone else's process (or a number no process has: left alone)
    return True


__all__ = [
    "SaveStore",
    "StoreBusyError",
    "count_field",
    "default_directory",
    "seconds_field",
    "write_atomic",
]
