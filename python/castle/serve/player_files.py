"""A network player's files, ``<data-dir>/players/<id>/``: made only once the player has a
game worth keeping, within the server's room for players, and removed after long idle.

A browser's first request makes a player; a script can make a hundred a second. So nothing
is written for a player until it has something to lose: a game with a move made (what a
new deal would count as lost) or a result. Until then its game is only at its table, in the
server's memory, and the settings it changes wait there too, to be written with that first
game. docs/serve.md ("Limits") says the numbers.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import Callable, Container
from pathlib import Path

from ..errors import SaveError
from ..saves.records import LevelRecord, Settings
from ..saves.store import Saveable, SaveStore
from .guard import is_player_id


class PlayerStore(SaveStore):
    """A network player's store: nothing written until the player has a game worth keeping
    and ``may_keep()`` gives it room (else its games are played unsaved, and it is told
    once)."""

    def __init__(
        self, directory: Path, *, may_keep: Callable[[], bool], lock_on_use: bool = False
    ) -> None:
        super().__init__(directory, lock_on_use=lock_on_use)
        #: Whether the player's directory is there (or may be made): its files are written.
        self.kept = directory.is_dir()
        self._may_keep = may_keep
        #: The settings changed while nothing is kept (None: none changed).
        self.waiting_settings: Settings | None = None
        self._refused = False

    def save_game(self, game: Saveable) -> bool:
        if not self.kept and game.moves == 0:
            # Nothing to lose yet (a new deal would not count it as lost): it is at the table.
            return True
        return self._keep() and super().save_game(game)

    def record_result(self, level_id: str, *, won: bool) -> LevelRecord:
        if not self._keep():
            return self.record(level_id).after(won)
        return super().record_result(level_id, won=won)

    def settings(self) -> Settings:
        return self.waiting_settings if self.waiting_settings is not None else super().settings()

    def save_settings(self, settings: Settings) -> None:
        if self.kept:
            super().save_settings(settings)
        else:
            self.waiting_settings = settings

    def _keep(self) -> bool:
        """From now on the player's files are written (the settings waiting first), if the
        server has room for one more player's; False (told once) if not."""
        if not self.kept:
            if not self._may_keep():
                if not self._refused:
                    self._refused = True
                    self._notify(
                        "this server keeps the games of as many players as it has room for: "
                        "yours are played but not saved (its owner can make room: see "
                        "docs/serve.md)"
                    )
                return False
            self.kept = True
            if self.waiting_settings is not None:
                super().save_settings(self.waiting_settings)
                self.waiting_settings = None
        return True


def player_directories(root: Path) -> list[Path]:
    """The players' directories under ``root`` (``<data-dir>/players``): those named as a
    player's id."""
    try:
        entries = list(os.scandir(root))
    except OSError:
        return []
    return [
        Path(entry.path)
        for entry in entries
        if is_player_id(entry.name) and entry.is_dir(follow_symlinks=False)
    ]


def expire(root: Path, *, idle_seconds: float, playing: Callable[[], Container[str]]) -> int:
    """Remove the directories under ``root`` of the players idle longer than
    ``idle_seconds`` (:func:`remove_if_idle`). How many went."""
    return sum(
        remove_if_idle(directory, idle_seconds=idle_seconds, playing=playing)
        for directory in idle_directories(root, idle_seconds=idle_seconds, playing=playing())
    )


def idle_directories(root: Path, *, idle_seconds: float, playing: Container[str]) -> list[Path]:
    """The directories under ``root`` of the players idle longer than ``idle_seconds``
    (nothing written in it, nor the player come back, since: see :func:`seen`), but not
    those ``playing`` (in the server's memory)."""
    now = time.time()
    idle = []
    for directory in player_directories(root):
        with contextlib.suppress(OSError):  # gone already: nothing to remove
            if directory.name not in playing and now - directory.stat().st_mtime >= idle_seconds:
                idle.append(directory)
    return idle


def remove_if_idle(
    directory: Path, *, idle_seconds: float, playing: Callable[[], Container[str]]
) -> bool:
    """Remove a player's ``directory`` found idle, if it still is once its player lock is
    held: not held by another program (``castle play`` on it), its player not come back
    meanwhile (``playing()`` now, its age read again). Whether it went."""
    try:
        with SaveStore(directory).player_lock():
            age = time.time() - directory.stat().st_mtime
            if directory.name in playing() or age < idle_seconds:
                return False
            shutil.rmtree(directory)
    except (OSError, SaveError):  # held by someone, or gone already: left alone
        return False
    return True


def seen(directory: Path) -> None:
    """The player of ``directory`` came back: its idle time starts again."""
    with contextlib.suppress(OSError):
        os.utime(directory)


__all__ = [
    "PlayerStore",
    "expire",
    "idle_directories",
    "player_directories",
    "remove_if_idle",
    "seen",
]
