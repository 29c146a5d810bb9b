"""``--csv`` files: rows streamed to a temporary file that replaces the target at the end."""

from __future__ import annotations

import contextlib
import csv
import os
import tempfile
from collections.abc import Sequence

from .errors import UsageError
from .report import DealResult

#: The columns of ``castle solve --deals --csv``.
HEADER = ("variant", "deal", "status", "states", "seconds", "moves")


def deal_row(variant: str, result: DealResult) -> tuple[object, ...]:
    """A batch's row for one deal, in :data:`HEADER` order."""
    return (
        variant,
        result.number,
        result.status,
        result.states,
        round(result.seconds, 6),
        result.moves,
    )


class AtomicCsv:
    """A CSV file under ``header``: readers of ``path`` see the old file or the whole new one.

    The temporary file sits beside ``path`` so that ``os.replace`` is a rename on one file
    system. Opening it up front reports an unwritable destination before any solving.
    """

    def __init__(self, path: str, header: Sequence[str] = HEADER, option: str = "--csv") -> None:
        self.path = path
        if os.path.isdir(path):
            raise UsageError(f"{option} {path!r} is a directory")
        directory, name = os.path.split(os.path.abspath(path))
        try:
            fd, self._temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=directory)
        except OSError as e:
            raise UsageError(f"cannot write {option} {path!r}: {e.strerror or e}") from None
        # mkstemp makes the file private (0600); give the result the usual umask permissions.
        umask = os.umask(0)
        os.umask(umask)
        with contextlib.suppress(OSError):
            os.chmod(self._temp, 0o666 & ~umask)
        self._file = os.fdopen(fd, "w", newline="", encoding="utf-8")
        self._writer = csv.writer(self._file)
        self._writer.writerow(header)
        self.rows = 0

    def write(self, row: Sequence[object]) -> None:
        self._writer.writerow(row)
        self.rows += 1

    def commit(self) -> None:
        """Put the finished file in place."""
        self._file.close()
        os.replace(self._temp, self.path)

    def discard(self) -> None:
        """Drop the temporary file (the target is left as it was)."""
        self._file.close()
        with contextlib.suppress(OSError):
            os.unlink(self._temp)
