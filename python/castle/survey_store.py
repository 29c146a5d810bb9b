"""Survey files: the verdicts of many numbered deals, in SQLite, stored as they are found.

A survey file holds one row per variant and deal: the verdict, the states and seconds the
search took, the length of the win, the limit that stopped an ``unknown``, the limits the
search ran under and when the row was written. ``castle survey`` fills one; this module (with
:mod:`castle.survey_claims` for the claims of runs) is the only code that reads or writes
them::

    with SurveyStore.open("bc.db") as store:
        for verdict in store.verdicts("beleaguered-castle"):
            print(verdict.deal, verdict.status)

Rows are committed in small batches in WAL mode (:class:`SurveyWriter`), so a run that is
killed loses at most its last batch. A decided verdict (solved or unsolvable: a replayable
win or a proof) is final; an unknown one is replaced by a decided one, or by an unknown one
that searched further. A file that is not a survey, or a damaged one, raises
:class:`SurveyError` and is never written to.

Runs at the same time on one file share its deals through claims kept in the same file:
:mod:`castle.survey_claims`, which writes through :meth:`SurveyStore.transaction`.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import NamedTuple, Protocol

from . import __version__
from .errors import CastleError

#: The layout of the tables. A file of version 1 (before ``max_cpu_seconds``) is brought up to
#: date when opened, in one transaction; one of any other version is refused, never rewritten.
SCHEMA_VERSION = 2
#: SQLite's application id for castle survey files (``CSVY``); ``file(1)`` can show it.
APPLICATION_ID = 0x43535659
_SQLITE_MAGIC = b"SQLite format 3\x00"
#: Seconds to wait for another process that holds the write lock (a second run, say).
_BUSY_SECONDS = 30.0

_SCHEMA = """
CREATE TABLE castle_survey (
    schema_version INTEGER NOT NULL,
    created TEXT NOT NULL,
    castle_version TEXT NOT NULL
);
CREATE TABLE verdicts (
    variant TEXT NOT NULL,
    deal INTEGER NOT NULL CHECK (deal >= 1),
    status TEXT NOT NULL CHECK (status IN ('solved', 'unsolvable', 'unknown')),
    states INTEGER NOT NULL,
    seconds REAL NOT NULL,
    moves INTEGER NOT NULL,
    limit_hit TEXT,
    max_states INTEGER,
    max_seconds REAL,
    max_memory INTEGER,
    solved_at TEXT NOT NULL,
    max_cpu_seconds REAL,
    PRIMARY KEY (variant, deal)
) WITHOUT ROWID;
"""
#: From version 1 to 2: the CPU time limit, last, where ``ADD COLUMN`` puts it (the claims
#: table, made by the first run that claims deals, gains it too if it is there).
_UPGRADE_FROM_1 = "ALTER TABLE {table} ADD COLUMN max_cpu_seconds REAL"

_COLUMNS = (
    "variant, deal, status, states, seconds, moves, limit_hit, "
    "max_states, max_seconds, max_memory, solved_at, max_cpu_seconds"
)
# Decided verdicts are final; an unknown gives way to a decided one or to a longer search.
_UPSERT = f"""
INSERT INTO verdicts ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (variant, deal) DO UPDATE SET
    status = excluded.status, states = excluded.states, seconds = excluded.seconds,
    moves = excluded.moves, limit_hit = excluded.limit_hit, max_states = excluded.max_states,
    max_seconds = excluded.max_seconds, max_memory = excluded.max_memory,
    solved_at = excluded.solved_at, max_cpu_seconds = excluded.max_cpu_seconds
WHERE verdicts.status = 'unknown'
    AND (excluded.status <> 'unknown' OR excluded.states > verdicts.states)
"""


class SurveyError(CastleError, ValueError):
    """A file that is not a castle survey, a damaged one, or one that cannot be written."""


class Verdict(NamedTuple):
    """One stored row: a deal's verdict and how it was reached.

    ``limit_hit`` names the limit that stopped an ``unknown`` (``states``, ``seconds``,
    ``cpu-seconds``, ``memory``, ``disk``); ``max_*`` are the limits the search ran under
    (None: no limit); ``solved_at`` is when the row was written, in UTC (ISO 8601).
    """

    variant: str
    deal: int
    status: str
    states: int
    seconds: float
    moves: int
    limit_hit: str | None
    max_states: int | None
    max_seconds: float | None
    max_memory: int | None
    solved_at: str
    max_cpu_seconds: float | None = None


#: The CSV header of a survey: :class:`Verdict`'s fields.
VERDICT_FIELDS: tuple[str, ...] = Verdict._fields


def utc_now() -> str:
    """The time now, as stored in ``solved_at``: ``2025-06-01T12:34:56Z``."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _reason(error: sqlite3.Error) -> str:
    return str(error) or type(error).__name__


def _busy_retried(action: Callable[[], object]) -> None:
    """Do ``action`` again while another process holds the file (for up to
    ``_BUSY_SECONDS``): SQLite's busy wait does not cover everything, such as a change of
    journal mode while another process makes the same file (two runs started at once)."""
    deadline = time.monotonic() + _BUSY_SECONDS
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


class SurveyStore:
    """An open survey file. Use :meth:`open`; close it (or use ``with``) when done."""

    def __init__(self, connection: sqlite3.Connection, path: str, uri: str = "") -> None:
        self._db = connection
        self.path = path
        #: How to open the file again (``mode=rw``), from another thread.
        self.uri = uri or Path(path).absolute().as_uri() + "?mode=rw"

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, create: bool = False) -> SurveyStore:
        """Open the survey file at ``path``; with ``create``, make a new one if there is none
        (or the file is empty). Raises :class:`SurveyError` for anything that is not a
        castle survey of this version, without writing to it.
        """
        name = os.fspath(path)
        exists = os.path.exists(name)
        if os.path.isdir(name):
            raise SurveyError(f"{name} is a directory, not a survey file")
        if exists:
            try:
                with open(name, "rb") as file:
                    head = file.read(len(_SQLITE_MAGIC))
            except OSError as e:
                raise SurveyError(f"cannot read {name}: {e.strerror or e}") from None
            if head and head != _SQLITE_MAGIC:
                raise SurveyError(f"{name} is not a castle survey file (not an SQLite database)")
            if not head and not create:
                raise SurveyError(f"{name} is empty, not a castle survey file")
        elif not create:
            raise SurveyError(f"no survey file {name}")
        else:
            directory = os.path.dirname(os.path.abspath(name))
            if not os.path.isdir(directory):
                raise SurveyError(f"cannot create {name}: no directory {directory}")
        # mode=rw never creates a file; mode=rwc creates only what the checks above allow.
        uri = Path(name).absolute().as_uri() + ("?mode=rwc" if create else "?mode=rw")
        try:
            db = sqlite3.connect(uri, uri=True, timeout=_BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error as e:
            verb = "open" if exists else "create"
            raise SurveyError(f"cannot {verb} {name}: {_reason(e)}") from None
        store = cls(db, name, Path(name).absolute().as_uri() + "?mode=rw")
        try:
            store._prepare(create)
        except BaseException:
            db.close()
            raise
        return store

    def _prepare(self, create: bool) -> None:
        name = self.path
        try:
            tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master")}
            if not tables and create:
                if self._create():
                    return
                # Another process made the file first (two runs started at once): it is
                # checked as any existing file is.
                tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master")}
            if "castle_survey" not in tables or "verdicts" not in tables:
                raise SurveyError(
                    f"{name} is an SQLite database but not a castle survey (no castle_survey "
                    "and verdicts tables); give another --db file"
                )
            row = self._db.execute("SELECT schema_version FROM castle_survey").fetchone()
            if row is not None and row[0] == 1:
                try:
                    self._upgrade_from_1()
                except sqlite3.Error as e:
                    raise SurveyError(
                        f"{name} is a castle survey of schema version 1, which this castle "
                        f"brings to version {SCHEMA_VERSION} when it opens it, and cannot: "
                        f"{_reason(e)}"
                    ) from None
                row = (SCHEMA_VERSION,)
            if row is None or row[0] != SCHEMA_VERSION:
                found = "no version" if row is None else f"schema version {row[0]}"
                raise SurveyError(
                    f"{name} is a castle survey of {found}; this castle reads version "
                    f"{SCHEMA_VERSION}"
                )
            problem = self._db.execute("PRAGMA quick_check(1)").fetchone()
            if problem is None or problem[0] != "ok":
                detail = "no answer" if problem is None else problem[0]
                raise SurveyError(f"{name} is damaged (SQLite's check: {detail})")
            self._db.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.Error as e:
            raise SurveyError(f"{name} is damaged or not a castle survey: {_reason(e)}") from None

    def _upgrade_from_1(self) -> None:
        """Bring a file of version 1 to version 2, all or nothing; a process that did it
        first leaves nothing to do."""
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            (version,) = db.execute("SELECT schema_version FROM castle_survey").fetchone()
            if version == 1:
                tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
                for table in ("verdicts", "claims"):
                    columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
                    if table in tables and "max_cpu_seconds" not in columns:
                        db.execute(_UPGRADE_FROM_1.format(table=table))
                db.execute("UPDATE castle_survey SET schema_version = ?", (SCHEMA_VERSION,))
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise

    def _create(self) -> bool:
        """Make the tables in the empty file; False if another process made some first."""
        db = self._db
        # WAL: readers (castle survey report) see committed rows while a run writes; with
        # synchronous=NORMAL a commit is a write() without fsync: it survives a killed process.
        _busy_retried(lambda: db.execute("PRAGMA journal_mode = WAL"))
        db.execute("PRAGMA synchronous = NORMAL")
        try:
            db.execute("BEGIN IMMEDIATE")
            if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                db.execute("ROLLBACK")
                return False
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(
                "INSERT INTO castle_survey VALUES (?, ?, ?)",
                (SCHEMA_VERSION, utc_now(), __version__),
            )
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise
        return True

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> SurveyStore:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as e:
            raise SurveyError(f"cannot read {self.path}: {_reason(e)}") from None

    def variants(self) -> list[str]:
        """The variants with stored deals, in name order."""
        with self._reading():
            rows = self._db.execute("SELECT DISTINCT variant FROM verdicts ORDER BY variant")
            return [row[0] for row in rows]

    def count(self, variant: str | None = None) -> int:
        """How many deals are stored (of ``variant``, or of all)."""
        with self._reading():
            if variant is None:
                row = self._db.execute("SELECT count(*) FROM verdicts").fetchone()
            else:
                sql = "SELECT count(*) FROM verdicts WHERE variant = ?"
                row = self._db.execute(sql, (variant,)).fetchone()
            return int(row[0])

    def statuses(self, variant: str, low: int, high: int) -> dict[int, str]:
        """The stored verdict of each deal of ``variant`` from ``low`` to ``high``, by number."""
        sql = "SELECT deal, status FROM verdicts WHERE variant = ? AND deal BETWEEN ? AND ?"
        with self._reading():
            return dict(self._db.execute(sql, (variant, low, high)))

    def unknown_deals(self, variant: str) -> list[int]:
        """The deals of ``variant`` stored as ``unknown``, in order."""
        sql = "SELECT deal FROM verdicts WHERE variant = ? AND status = 'unknown' ORDER BY deal"
        with self._reading():
            return [row[0] for row in self._db.execute(sql, (variant,))]

    def verdicts(self, variant: str | None = None) -> Iterator[Verdict]:
        """Every stored row (of ``variant``, or of all), by variant then deal number."""
        sql = f"SELECT {_COLUMNS} FROM verdicts"
        params: tuple[str, ...] = ()
        if variant is not None:
            sql += " WHERE variant = ?"
            params = (variant,)
        sql += " ORDER BY variant, deal"
        with self._reading():
            cursor = self._db.execute(sql, params)
            while True:
                rows = cursor.fetchmany(1000)
                if not rows:
                    return
                for row in rows:
                    yield Verdict(*row)

    def outcomes(self, variant: str) -> Iterator[tuple[str, str | None, float, int]]:
        """``(status, limit_hit, seconds, states)`` of every stored deal of ``variant``: what
        summaries count, read faster than whole :class:`Verdict` rows."""
        sql = "SELECT status, limit_hit, seconds, states FROM verdicts WHERE variant = ?"
        with self._reading():
            cursor = self._db.execute(sql, (variant,))
            while True:
                rows = cursor.fetchmany(1000)
                if not rows:
                    return
                yield from rows

    @contextlib.contextmanager
    def transaction(self, doing: str) -> Iterator[sqlite3.Connection]:
        """One write transaction on the file (``BEGIN IMMEDIATE``), committed at the end of
        ``with`` and rolled back on any error; SQLite's errors are raised as
        :class:`SurveyError`: ``cannot {doing} {path}: ...``."""
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
            raise SurveyError(f"cannot {doing} {self.path}: {_reason(e)}") from None

    def connect_again(self) -> sqlite3.Connection:
        """Another connection to the file, for another thread (raises :class:`sqlite3.Error`)."""
        return sqlite3.connect(self.uri, uri=True, timeout=_BUSY_SECONDS, isolation_level=None)

    def put(self, verdicts: Iterable[Verdict], claims: Settler | None = None) -> None:
        """Store ``verdicts`` in one transaction (a decided verdict already stored stays); with
        ``claims``, the run's claims on those deals are settled in the same transaction."""
        verdicts = list(verdicts)
        with self.transaction("write to") as db:
            db.executemany(_UPSERT, verdicts)
            if claims is not None:
                claims.settle(db, verdicts)


class Settler(Protocol):
    """What settles a run's claims on the deals that a commit stores, in its transaction:
    :class:`castle.survey_claims.DealClaims`."""

    def settle(self, db: sqlite3.Connection, verdicts: list[Verdict]) -> None: ...


class SurveyWriter:
    """Stores verdicts in small transactions as they come.

    A batch is committed when it holds ``max_rows`` verdicts, or ``max_seconds`` of solving,
    or ``max_seconds`` have passed since the last commit: so a killed run loses at most one
    batch, that is at most ``max_rows`` deals or about ``max_seconds`` of work. Call
    :meth:`flush` at the end (or on Ctrl+C) to commit the rest. With ``claims``, each commit
    settles the run's claims on the deals it stores.
    """

    def __init__(
        self,
        store: SurveyStore,
        max_rows: int = 100,
        max_seconds: float = 0.5,
        claims: Settler | None = None,
    ) -> None:
        self._store = store
        self._claims = claims
        self._max_rows = max_rows
        self._max_seconds = max_seconds
        self._pending: list[Verdict] = []
        self._work = 0.0
        self._last = float("-inf")
        #: Verdicts committed so far.
        self.written = 0

    def add(self, verdict: Verdict) -> None:
        self._pending.append(verdict)
        self._work += verdict.seconds
        if (
            len(self._pending) >= self._max_rows
            or self._work >= self._max_seconds
            or time.monotonic() - self._last >= self._max_seconds
        ):
            self.flush()

    def flush(self) -> None:
        """Commit what is pending."""
        if self._pending:
            self._store.put(self._pending, self._claims)
            self.written += len(self._pending)
            self._pending.clear()
        self._work = 0.0
        self._last = time.monotonic()

    @property
    def pending(self) -> int:
        """Verdicts not committed yet."""
        return len(self._pending)


__all__ = [
    "SCHEMA_VERSION",
    "VERDICT_FIELDS",
    "Settler",
    "SurveyError",
    "SurveyStore",
    "SurveyWriter",
    "Verdict",
    "utc_now",
]
