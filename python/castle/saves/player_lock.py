"""The player lock of a save directory: one player at a time on a player's games.

The lock is the operating system's (``flock`` on ``player.lock`` in the directory), so it goes
with its process however that ends; the file names who holds it, for the message a second
player gets. Where no lock can be had (no POSIX locks, as on Windows; a directory that cannot
hold the file, so no save either; a file system without locks) play goes on unlocked. Where
something other than a file is in the lock file's place (a directory, a FIFO), the lock is
refused rather than silently not taken: a second player would come in, and the thing is not
castle's to remove.
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import stat
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX (Windows): no player lock, the rest works the same
    fcntl = None  # type: ignore[assignment]

from ..errors import SaveError

#: The lock's file in the save directory.
LOCK_FILE = "player.lock"

#: Opening a FIFO without it waits for a writer that may never come.
NONBLOCK = getattr(os, "O_NONBLOCK", 0)
#: A symbolic link in the lock file's place is not followed (its target would be written).
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)

#: What to do about a lock file castle cannot use.
_MOVE_IT = (
    "castle cannot keep a second player off these saves while it is there; move it out of "
    "the way (castle never deletes it), then start again"
)


class StoreLockError(SaveError):
    """The save directory's player lock cannot be taken: something other than castle's lock
    file is in its place."""


class StoreBusyError(StoreLockError):
    """Another player holds the save directory."""


def can_lock() -> bool:
    """Whether this system has the lock (POSIX)."""
    return fcntl is not None


def what_it_is(mode: int) -> str:
    """What kind of file ``mode`` (``st_mode``) is, in words: ``a directory``, ``a FIFO``."""
    kinds = [
        (stat.S_ISREG, "a file"),
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ]
    return next((words for test, words in kinds if test(mode)), "not a file")


def lock_directory(directory: Path, *, create: bool) -> int | None:
    """The player lock of ``directory`` taken: the open lock file (closing it lets go). None
    where no lock can be had (see the module), or no directory unless ``create`` makes it.
    :class:`StoreBusyError` when another player holds it; :class:`StoreLockError` when
    something in the lock file's place cannot be one."""
    if fcntl is None:
        return None
    path = directory / LOCK_FILE
    try:
        if create:
            directory.mkdir(parents=True, exist_ok=True)
        fd = _open_lock_file(path)
    except OSError as e:
        try:
            mode = os.lstat(path).st_mode  # a link is the link, not what it leads to
        except OSError:
            return None
        if not stat.S_ISREG(mode):
            raise StoreLockError(_not_a_lock(path, mode)) from None
        raise StoreLockError(
            f"{path} cannot be opened as castle's player lock ({e.strerror or e}): {_MOVE_IT}"
        ) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise StoreLockError(_not_a_lock(path, mode))
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
            raise StoreBusyError(
                f"another castle player ({holder or 'a running process'}) is using "
                f"{directory}: quit that `castle play` or `castle serve` first, "
                "or play with another --data-dir"
            ) from None
        except OSError:  # a file system without locks: as without POSIX locks
            os.close(fd)
            return None
    except BaseException:
        with contextlib.suppress(OSError):
            os.close(fd)
        raise
    with contextlib.suppress(OSError):  # a read-only lock file locks as well
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()} on {socket.gethostname() or 'this machine'}".encode(), 0)
    return fd


def _not_a_lock(path: Path, mode: int) -> str:
    return f"{path} is {what_it_is(mode)}, not castle's player lock file: {_MOVE_IT}"


def _open_lock_file(path: Path) -> int:
    """The lock file open (made if need be); read-only where it cannot be written (a lock
    needs no more). Never waits: a FIFO there is opened and found out."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | NONBLOCK | NOFOLLOW, 0o644)
    except OSError as e:
        if e.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise
        return os.open(path, os.O_RDONLY | NONBLOCK | NOFOLLOW)


__all__ = [
    "LOCK_FILE",
    "NOFOLLOW",
    "NONBLOCK",
    "StoreBusyError",
    "StoreLockError",
    "can_lock",
    "lock_directory",
    "what_it_is",
]
