"""The player's files: the game in progress and the statistics, in the user's data directory.

Every write is atomic (a temporary file in the same directory, flushed to disk, then renamed
over the old one), so a kill at any moment leaves the old file or the new one, never half of
either. A file that is corrupt or foreign is never overwritten or deleted: it is renamed aside
(``game.json.corrupt-<time>``) and reported: each notice goes to :attr:`SaveStore.on_notice`
when a front end has set it, else it waits in :attr:`SaveStore.notices`.

Only a regular file of at most :data:`MAX_SAVE_BYTES` is read: anything else in its place (a
FIFO, a directory, a device, a file too large) is set aside unread, so that nothing there can
hang castle or fill its memory.

A write that fails (a read-only directory, a full disk, a data directory that is a file)
leaves the last good file as it was and is reported once; play goes on, and every later write
tries again. One player at a time: a front end holds :meth:`SaveStore.player_lock` while a game
is played (``castle serve`` makes each network player's store take it on first use instead),
so a second player on the same directory is refused with a message naming the first, rather
than overwrite the first's game. A temporary file is removed only when it is provably
abandoned: its writer (named in it) is no longer running on this machine, or it is older than
any write could take.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import stat
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import platformdirs

from ..errors import SaveError
from .player_lock import (
    NONBLOCK,
    StoreBusyError,
    StoreLockError,
    can_lock,
    lock_directory,
    what_it_is,
)
from .records import LevelRecord, Settings

APP_NAME = "castle-solitaire"
STATS_FORMAT = "castle-statistics"
STATS_VERSION = 1

#: A temporary file this old is abandoned whoever wrote it (a write takes milliseconds); one
#: written on another machine sharing the directory is removed only then.
ABANDONED_SECONDS = 3600

#: The largest save or statistics file castle reads (bytes): about 300,000 moves of history,
#: where a long game saves a few thousand bytes. A larger file is set aside unread.
MAX_SAVE_BYTES = 4 * 1024 * 1024


#: What :meth:`SaveStore._read` finds where there is no file to use (JSON's null is a value).
NOTHING: Any = object()


def seconds_field(value: object) -> float:
    """Seconds played in a save file; :class:`SaveError` unless a sane number."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1e9:
        raise SaveError(f"seconds played: {value!r}")
    return float(value)


#: The environment's word on where saves live, over the platform's.
DATA_DIR_ENV = "CASTLE_DATA_DIR"


def default_directory() -> Path:
    """Where saves live unless told otherwise: ``$CASTLE_DATA_DIR``, else the platform's user
    data directory (``~/.local/share/castle-solitaire`` on Linux)."""
    override = os.environ.get(DATA_DIR_ENV)
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

    @property
    def moves(self) -> int:
        """Moves made (each undo included)."""
        ...


class SaveStore:
    """The save directory: ``game.json`` (the game in progress, undo history included) and
    ``statistics.json`` (per level, and the player's settings)."""

    GAME = "game.json"
    STATISTICS = "statistics.json"

    def __init__(
        self, directory: str | os.PathLike[str] | None = None, *, lock_on_use: bool = False
    ) -> None:
        self.directory = Path(directory) if directory is not None else default_directory()
        #: What went wrong with files found here (each set aside), for the player to show.
        self.notices: list[str] = []
        #: Where each new notice goes at once, if set (a front end that shows it then); else
        #: it waits in :attr:`notices`.
        self.on_notice: Callable[[str], None] | None = None
        #: Why the last write failed (None: writing works), so that a failure is told once.
        self.write_failure: str | None = None
        #: Whether this store takes the player lock itself, before it first reads a directory
        #: that exists or first writes, and holds it until :meth:`release` (a server's player).
        self.lock_on_use = lock_on_use
        self._held: int | None = None
        self._holding = threading.Lock()

    @property
    def game_path(self) -> Path:
        return self.directory / self.GAME

    @property
    def statistics_path(self) -> Path:
        return self.directory / self.STATISTICS

    def unusable(self) -> str | None:
        """Why saves cannot be kept here (the directory, made if it is missing, is something
        else, or cannot be written); None when they can. Nothing is left behind."""
        in_the_way = self._in_the_way()
        if in_the_way is not None:
            return in_the_way[0]
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=self.directory):
                pass
        except OSError as e:
            return f"{self.directory} cannot be written ({e.strerror or e})"
        return None

    # --- the game -----------------------------------------------------------------------------

    def save_game(self, game: Saveable) -> bool:
        """Write the game (False if it could not be: see :meth:`_write`)."""
        return self._write(self.game_path, json.dumps(game.to_save(), separators=(",", ":")))

    @contextlib.contextmanager
    def player_lock(self) -> Iterator[None]:
        """Hold the directory for one player while a game is played: a second player on it
        is refused (:class:`StoreBusyError`, naming the first) instead of overwriting the
        first's game or entering it as a loss; :class:`StoreLockError` when something else is
        in the lock file's place. The lock is :mod:`castle.saves.player_lock`'s (where none can be
        had, play goes on unlocked)."""
        fd = lock_directory(self.directory, create=True)
        try:
            yield
        finally:
            if fd is not None:
                os.close(fd)

    def release(self) -> None:
        """Let go of the player lock a store that locks on use took (the player leaves)."""
        with self._holding:
            if self._held is not None:
                os.close(self._held)
                self._held = None

    def read_game(self) -> Any:
        """The saved game's JSON, as it is (``castle.game.played.load_game`` makes it a game);
        :data:`NOTHING` if there is none, or the file was unusable (then it is set aside and
        reported). Temporary files a killed writer left are cleared first."""
        self._claim(create=False)
        self._remove_temporaries()
        return self._read(self.game_path)

    def set_aside_game(self, reason: str) -> None:
        """The saved game is not usable (``reason``): move it aside and report it."""
        self._claim(create=False)
        self._set_aside(self.game_path, reason)

    def clear_game(self) -> None:
        self._claim(create=False)
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

    # --- the player lock ----------------------------------------------------------------------

    @property
    def holds_lock(self) -> bool:
        """Whether this store (one that locks on use) holds its directory's player lock."""
        return self._held is not None

    def claim(self) -> bool:
        """For a store that locks on use: its directory's player lock taken now if the
        directory is there and the lock not yet held (:class:`StoreBusyError` while another
        player holds it). Whether it was taken now (not held before)."""
        held = self.holds_lock
        self._claim(create=False)
        return not held and self.holds_lock

    def _claim(self, *, create: bool) -> None:
        """For a store that locks on use: the player lock taken before its first read of a
        directory there is (``create``: before its first write), and held until
        :meth:`release`; :class:`StoreBusyError` while another player holds it."""
        if not self.lock_on_use or not can_lock() or self._held is not None:
            return
        with self._holding:  # two requests of one player (a hint, a view) may come at once
            if self._held is None and (create or self.directory.is_dir()):
                self._held = lock_directory(self.directory, create=create)

    # --- inside -------------------------------------------------------------------------------

    def _read(self, path: Path) -> Any:
        """The JSON in ``path`` (``null`` too, which no caller takes for castle's); NOTHING if
        there is no file, or if it was unusable (then it is set aside and reported)."""
        self._claim(create=False)
        try:
            text = _read_text(path)
        except FileNotFoundError:
            return NOTHING
        except NotADirectoryError as e:
            in_the_way = self._in_the_way()
            if in_the_way is None:
                self._set_aside(path, f"unreadable: {e}")
            else:
                self._cannot_save(*in_the_way)
            return NOTHING
        except SaveError as e:
            self._set_aside(path, str(e))
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
        self._claim(create=True)
        try:
            write_atomic(path, text)
        except OSError as e:
            in_the_way = self._in_the_way()
            if in_the_way is not None:
                self._cannot_save(*in_the_way)
            else:
                reason = e.strerror or str(e)
                self._cannot_save(
                    reason,
                    f"cannot save in {self.directory} ({reason}); play goes on, castle "
                    "tries again after every move, and the last save is kept as it was",
                )
            return False
        if self.write_failure is not None:
            self.write_failure = None
            self._notify(f"saving in {self.directory} works again")
        return True

    def _cannot_save(self, reason: str, notice: str) -> None:
        """Saving here fails (``reason``): ``notice`` told, unless this failure is told."""
        if self.write_failure is None:
            self._notify(notice)
        self.write_failure = reason

    def _in_the_way(self) -> tuple[str, str] | None:
        """When the directory, or one on its path, is not a directory (a file): why saving
        fails, and the notice that says so; else None."""
        for place in (self.directory, *self.directory.parents):
            try:
                mode = place.stat().st_mode
            except OSError:
                continue
            if stat.S_ISDIR(mode):
                return None
            reason = f"{place} is {what_it_is(mode)}, not a directory"
            return reason, (
                f"cannot keep saves in {self.directory}: {reason}; play goes on, but nothing "
                "is saved until it is a directory (or another --data-dir is given)"
            )
        return None

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
        while os.path.lexists(aside):
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


def _read_text(path: Path) -> str:
    """The text of the file at ``path``, read only if it is a regular file of at most
    :data:`MAX_SAVE_BYTES`: else :class:`SaveError` saying what is there. Opening never waits
    (a FIFO without a writer); OSError or UnicodeDecodeError as reading fails."""
    fd = os.open(path, os.O_RDONLY | NONBLOCK)
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode):
            raise SaveError(f"{what_it_is(found.st_mode)}, not a file")
        if found.st_size > MAX_SAVE_BYTES:
            raise SaveError(_too_large(found.st_size))
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_SAVE_BYTES:  # read until the end, or one byte past the limit
            chunk = os.read(fd, min(1 << 20, MAX_SAVE_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_SAVE_BYTES:  # it grew while read
            raise SaveError(_too_large(size))
    finally:
        os.close(fd)
    return b"".join(chunks).decode("utf-8")


def _too_large(size: int) -> str:
    return f"{size:,} bytes, more than the {MAX_SAVE_BYTES:,} castle reads"


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
    "DATA_DIR_ENV",
    "MAX_SAVE_BYTES",
    "SaveStore",
    "StoreBusyError",
    "StoreLockError",
    "default_directory",
    "seconds_field",
    "write_atomic",
]
