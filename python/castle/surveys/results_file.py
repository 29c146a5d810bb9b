"""castle's SQLite files of results: a survey's verdicts (:mod:`castle.surveys.survey_store`), an
autoplay's games (:mod:`castle.surveys.autoplay_store`). What they share lives here: a file is
opened only once it is checked to be of its kind and whole, made once even when two runs start on it
at the same moment, kept in WAL mode, and written in short transactions.

Each kind of file names itself in a table of its own, ``castle_<name>`` (its schema version,
when it was made and by which castle), so a file of one kind given for another is told apart
from a damaged one or a stranger's. A file that is not of its kind is never written to.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, Protocol, TypeVar

from .. import __version__
from ..errors import CastleError

_SQLITE_MAGIC = b"SQLite format 3\x00"
#: Seconds to wait for another process that holds the write lock (a second run, say).
BUSY_SECONDS = 30.0


class FileError(CastleError, ValueError):
    """A file that is not of its kind, a damaged one, or one that cannot be written."""


def _own_table(name: str) -> str:
    """The table that names a file's kind: one row, its schema version, when it was made and
    by which castle."""
    return f"""
CREATE TABLE castle_{name} (
    schema_version INTEGER NOT NULL,
    created TEXT NOT NULL,
    castle_version TEXT NOT NULL
)"""


@dataclass(frozen=True)
class FileKind:
    """What makes a kind of results file: the table that names it and the one of its rows,
    their layout, and what to say about a file that is not one."""

    #: ``survey``: the file names itself in table ``castle_survey``; ``no survey file X``.
    name: str
    #: How the messages call such a file: ``castle survey``.
    what: str
    #: The rows' table: with ``castle_<name>``, what a file of this kind must hold.
    table: str
    #: The kind's own tables (``castle_<name>`` is made before them: :meth:`statements`).
    schema: str
    version: int
    #: SQLite's application id (``file(1)`` can show it).
    application_id: int
    error: type[FileError]
    #: Older versions that :attr:`upgrade` brings up to date, inside a write transaction.
    upgrades_from: tuple[int, ...] = ()
    upgrade: Callable[[sqlite3.Connection, int], None] | None = None

    def statements(self) -> list[str]:
        """What makes a new file's tables: ``castle_<name>``'s, then :attr:`schema`'s."""
        return [_own_table(self.name), *(s for s in self.schema.split(";") if s.strip())]


def utc_now() -> str:
    """The time now, as the files store it: ``2025-06-01T12:34:56Z``."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def reason(error: sqlite3.Error) -> str:
    """What SQLite said, for a message."""
    return str(error) or type(error).__name__


def _busy_retried(action: Callable[[], object]) -> None:
    """Do ``action`` again while another process holds the file (for up to
    :data:`BUSY_SECONDS`): SQLite's busy wait does not cover everything, such as a change of
    journal mode while another process makes the same file (two runs started at once)."""
    deadline = time.monotonic() + BUSY_SECONDS
    while True:
        try:
            action()
            return
        except sqlite3.OperationalError as e:
            busy = getattr(e, "sqlite_errorcode", None) == 5 or "locked" in str(e)  # SQLITE_BUSY
            if not busy or time.monotonic() >= deadline:
                raise
        time.sleep(0.01)


def _rollback(db: sqlite3.Connection) -> None:
    # SQLite ends some failed transactions itself (a full disk, say), and a BEGIN that failed
    # began none; then there is none.
    if db.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")


class Settler(Protocol):
    """What settles a run's claims on the deals that a commit stores, in its transaction:
    :class:`castle.surveys.survey_claims.DealClaims`."""

    def settle(self, db: sqlite3.Connection, deals: list[int]) -> None: ...


_F = TypeVar("_F", bound="ResultsFile")


class ResultsFile:
    """An open results file of the subclass's :attr:`KIND`. Use :meth:`open`; close it (or
    use ``with``) when done."""

    KIND: ClassVar[FileKind]

    def __init__(self, connection: sqlite3.Connection, path: str, uri: str = "") -> None:
        self._db = connection
        self.path = path
        #: How to open the file again (``mode=rw``), from another thread.
        self.uri = uri or Path(path).absolute().as_uri() + "?mode=rw"

    @classmethod
    def open(cls: type[_F], path: str | os.PathLike[str], *, create: bool = False) -> _F:
        """Open the file at ``path``; with ``create``, make a new one if there is none (or
        the file is empty). Raises the kind's :class:`FileError` for anything that is not a
        file of this kind and version, without writing to it.
        """
        kind = cls.KIND
        name = os.fspath(path)
        exists = os.path.exists(name)
        if os.path.isdir(name):
            raise kind.error(f"{name} is a directory, not a {kind.what} file")
        if exists:
            try:
                with open(name, "rb") as file:
                    head = file.read(len(_SQLITE_MAGIC))
            except OSError as e:
                raise kind.error(f"cannot read {name}: {e.strerror or e}") from None
            if head and head != _SQLITE_MAGIC:
                raise kind.error(f"{name} is not a {kind.what} file (not an SQLite database)")
            if not head and not create:
                raise kind.error(f"{name} is empty, not a {kind.what} file")
        elif not create:
            raise kind.error(f"no {kind.name} file {name}")
        else:
            directory = os.path.dirname(os.path.abspath(name))
            if not os.path.isdir(directory):
                raise kind.error(f"cannot create {name}: no directory {directory}")
        # mode=rw never creates a file; mode=rwc creates only what the checks above allow.
        uri = Path(name).absolute().as_uri() + ("?mode=rwc" if create else "?mode=rw")
        try:
            db = sqlite3.connect(uri, uri=True, timeout=BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error as e:
            verb = "open" if exists else "create"
            raise kind.error(f"cannot {verb} {name}: {reason(e)}") from None
        opened = cls(db, name, Path(name).absolute().as_uri() + "?mode=rw")
        try:
            opened._prepare(create)
        except BaseException:
            db.close()
            raise
        return opened

    def _prepare(self, create: bool) -> None:
        kind, name = self.KIND, self.path
        try:
            tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master")}
            if not tables and create:
                if self._create():
                    return
                # Another process made the file first (two runs started at once): it is
                # checked as any existing file is.
                tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master")}
            own = f"castle_{kind.name}"
            if own not in tables or kind.table not in tables:
                others = sorted(t[len("castle_") :] for t in tables if t.startswith("castle_"))
                if others and own not in tables:
                    raise kind.error(
                        f"{name} is a castle {others[0]} file, not a {kind.what} file; give "
                        "another --db file"
                    )
                raise kind.error(
                    f"{name} is an SQLite database but not a {kind.what} file (no {own} and "
                    f"{kind.table} tables); give another --db file"
                )
            row = self._db.execute(f"SELECT schema_version FROM {own}").fetchone()
            if row is not None and row[0] in kind.upgrades_from:
                try:
                    self._upgrade(own)
                except sqlite3.Error as e:
                    raise kind.error(
                        f"{name} is a {kind.what} file of schema version {row[0]}, which this "
                        f"castle brings to version {kind.version} when it opens it, and cannot: "
                        f"{reason(e)}"
                    ) from None
                row = (kind.version,)
            if row is None or row[0] != kind.version:
                found = "no version" if row is None else f"schema version {row[0]}"
                raise kind.error(
                    f"{name} is a {kind.what} file of {found}; this castle reads version "
                    f"{kind.version}"
                )
            problem = self._db.execute("PRAGMA quick_check(1)").fetchone()
            if problem is None or problem[0] != "ok":
                detail = "no answer" if problem is None else problem[0]
                raise kind.error(f"{name} is damaged (SQLite's check: {detail})")
            self._db.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.Error as e:
            raise kind.error(f"{name} is damaged or not a {kind.what} file: {reason(e)}") from None

    def _upgrade(self, own: str) -> None:
        """Bring an older file up to date, all or nothing; a process that did it first leaves
        nothing to do."""
        kind, db = self.KIND, self._db
        assert kind.upgrade is not None
        try:
            db.execute("BEGIN IMMEDIATE")
            (version,) = db.execute(f"SELECT schema_version FROM {own}").fetchone()
            if version in kind.upgrades_from:
                kind.upgrade(db, version)
                db.execute(f"UPDATE {own} SET schema_version = ?", (kind.version,))
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise

    def _create(self) -> bool:
        """Make the tables in the empty file; False if another process made some first."""
        kind, db = self.KIND, self._db
        # WAL: readers (a report) see committed rows while a run writes; with
        # synchronous=NORMAL a commit is a write() without fsync: it survives a killed process.
        _busy_retried(lambda: db.execute("PRAGMA journal_mode = WAL"))
        db.execute("PRAGMA synchronous = NORMAL")
        try:
            db.execute("BEGIN IMMEDIATE")
            if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                db.execute("ROLLBACK")
                return False
            db.execute(f"PRAGMA application_id = {kind.application_id}")
            for statement in kind.statements():
                db.execute(statement)
            db.execute(
                f"INSERT INTO castle_{kind.name} VALUES (?, ?, ?)",
                (kind.version, utc_now(), __version__),
            )
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise
        return True

    def close(self) -> None:
        self._db.close()

    def __enter__(self: _F) -> _F:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @contextlib.contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The connection, for reads; SQLite's errors are raised as the kind's
        :class:`FileError`: ``cannot read {path}: ...``."""
        try:
            yield self._db
        except sqlite3.Error as e:
            raise self.KIND.error(f"cannot read {self.path}: {reason(e)}") from None

    def rows(self, sql: str, params: Sequence[object] = ()) -> Iterator[tuple[Any, ...]]:
        """The rows that ``sql`` reads, fetched a thousand at a time, so that a large file
        is never held in memory whole; errors as :meth:`reading`'s."""
        with self.reading() as db:
            cursor = db.execute(sql, params)
            while True:
                rows = cursor.fetchmany(1000)
                if not rows:
                    return
                yield from rows

    def put_rows(
        self, sql: str, rows: Sequence[Sequence[object]], deals: list[int], claims: Settler | None
    ) -> None:
        """``sql`` run on each of ``rows`` in one transaction; with ``claims``, the run's
        claims on ``deals`` (those of the rows) are settled in the same transaction."""
        with self.transaction("write to") as db:
            db.executemany(sql, rows)
            if claims is not None:
                claims.settle(db, deals)

    @contextlib.contextmanager
    def transaction(self, doing: str) -> Iterator[sqlite3.Connection]:
        """One write transaction on the file (``BEGIN IMMEDIATE``), committed at the end of
        ``with`` and rolled back on any error; SQLite's errors are raised as the kind's
        :class:`FileError`: ``cannot {doing} {path}: ...``."""
        db = self._db
        try:
            # BEGIN inside the part that rolls back: a signal's exception (Ctrl+C, SIGTERM)
            # between the two left the transaction open, and the run's last writes then
            # failed with "cannot start a transaction within a transaction".
            try:
                db.execute("BEGIN IMMEDIATE")
                yield db
                db.execute("COMMIT")
            except BaseException:
                _rollback(db)
                raise
        except sqlite3.Error as e:
            raise self.KIND.error(f"cannot {doing} {self.path}: {reason(e)}") from None

    def connect_again(self) -> sqlite3.Connection:
        """Another connection to the file, for another thread (raises :class:`sqlite3.Error`)."""
        return sqlite3.connect(self.uri, uri=True, timeout=BUSY_SECONDS, isolation_level=None)


__all__ = [
    "BUSY_SECONDS",
    "FileError",
    "FileKind",
    "ResultsFile",
    "Settler",
    "reason",
    "utc_now",
]
