"""The player's files: the game in progress and the statistics, in the user's data directory.

Every write is atomic (a temporary file in the same directory, flushed to disk, then renamed
over the old one), so a kill at any moment leaves the old file or the new one, never half of
either. A file that is corrupt or foreign is never overwritten or deleted: it is renamed aside
(``game.json.corrupt-<time>``) and reported: each notice goes to :attr:`SaveStore.on_notice`
when a front end has set it, else it waits in :attr:`SaveStore.notices`.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .errors import SaveError
from .records import LevelRecord, Settings

if TYPE_CHECKING:
    from .game import Game
    from .playclock import Clock
    from .spider_game import SpiderGame

APP_NAME = "castle-solitaire"
STATS_FORMAT = "castle-statistics"
STATS_VERSION = 1


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
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` all at once (write, fsync, rename, fsync the directory)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
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

    @property
    def game_path(self) -> Path:
        return self.directory / self.GAME

    @property
    def statistics_path(self) -> Path:
        return self.directory / self.STATISTICS

    # --- the game -----------------------------------------------------------------------------

    def save_game(self, game: Saveable) -> None:
        write_atomic(self.game_path, json.dumps(game.to_save(), separators=(",", ":")))

    def load_game(self, clock: Clock = time.monotonic) -> Game | SpiderGame | None:
        """The saved game (None if there is none). A corrupt or foreign file is set aside and
        reported, and None returned."""
        from .game import Game
        from .spider_game import SAVE_FORMAT as SPIDER_FORMAT
        from .spider_game import SpiderGame

        self._remove_temporaries()
        data = self._read(self.game_path)
        if data is None:
            return None
        try:
            if isinstance(data, dict) and data.get("format") == SPIDER_FORMAT:
                return SpiderGame.from_save(data, clock=clock, store=self)
            return Game.from_save(data, clock=clock, store=self)
        except SaveError as e:
            self._set_aside(self.game_path, str(e))
            return None

    def record_unfinished_as_lost(self, clock: Clock = time.monotonic) -> None:
        """Before a new deal: a saved game left unfinished, with a move made, is a loss at its
        level."""
        unfinished = self.load_game(clock)
        if unfinished is not None and not unfinished.is_won and unfinished.moves > 0:
            self.record_result(unfinished.level, won=False)

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
        if data is None:
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
        write_atomic(self.statistics_path, json.dumps(data, indent=1))

    # --- inside -------------------------------------------------------------------------------

    def _read(self, path: Path) -> Any:
        """The JSON in ``path``; None if there is no file, or if it was unreadable (then it is
        set aside and reported)."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as e:
            self._set_aside(path, f"unreadable: {e}")
            return None
        try:
            return json.loads(text)
        except ValueError as e:
            self._set_aside(path, f"not JSON: {e}")
            return None
        except RecursionError:
            self._set_aside(path, "nested too deep to be castle's")
            return None

    def _remove_temporaries(self) -> None:
        """Temporary files a killed writer left behind (never the files themselves)."""
        for name in (self.GAME, self.STATISTICS):
            for leftover in self.directory.glob(f".{name}.*.tmp"):
                with contextlib.suppress(OSError):
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
        notice = f"{path} was not usable ({reason}); {where}; {then}"
        if self.on_notice is not None:
            self.on_notice(notice)
        else:
            self.notices.append(notice)


__all__ = ["SaveStore", "count_field", "default_directory", "seconds_field", "write_atomic"]
