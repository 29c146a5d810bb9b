"""Survey files: the verdicts of many numbered deals, in SQLite, stored as they are found.

A survey file holds one row per variant and deal: the verdict, the states and seconds the
search took, the length of the win, the limit that stopped an ``unknown``, the limits the
search ran under and when the row was written. ``castle survey`` fills one; this module (with
:mod:`castle.surveys.survey_claims` for the claims of runs) is the only code that reads or writes
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
:mod:`castle.surveys.survey_claims`, which writes through :meth:`SurveyStore.transaction`.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from .results_file import FileError, FileKind, ResultsFile, Settler, utc_now

#: The layout of the tables. A file of version 1 (before ``max_cpu_seconds``) is brought up to
#: date when opened, in one transaction; one of any other version is refused, never rewritten.
SCHEMA_VERSION = 2
#: SQLite's application id for castle survey files (``CSVY``); ``file(1)`` can show it.
APPLICATION_ID = 0x43535659

_SCHEMA = """
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


class SurveyError(FileError):
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


def _upgrade(db: sqlite3.Connection, version: int) -> None:
    # From version 1: the CPU time limit, in the verdicts and in the claims if a run made them.
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    for table in ("verdicts", "claims"):
        columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if table in tables and "max_cpu_seconds" not in columns:
            db.execute(_UPGRADE_FROM_1.format(table=table))


class SurveyStore(ResultsFile):
    """An open survey file. Use :meth:`open`; close it (or use ``with``) when done."""

    KIND = FileKind(
        name="survey",
        what="castle survey",
        table="verdicts",
        schema=_SCHEMA,
        version=SCHEMA_VERSION,
        application_id=APPLICATION_ID,
        error=SurveyError,
        upgrades_from=(1,),
        upgrade=_upgrade,
    )

    def variants(self) -> list[str]:
        """The variants with stored deals, in name order."""
        with self.reading() as db:
            rows = db.execute("SELECT DISTINCT variant FROM verdicts ORDER BY variant")
            return [row[0] for row in rows]

    def count(self, variant: str | None = None) -> int:
        """How many deals are stored (of ``variant``, or of all)."""
        with self.reading() as db:
            if variant is None:
                row = db.execute("SELECT count(*) FROM verdicts").fetchone()
            else:
                row = db.execute("SELECT count(*) FROM verdicts WHERE variant = ?", (variant,))
                row = row.fetchone()
            return int(row[0])

    def statuses(self, variant: str, low: int, high: int) -> dict[int, str]:
        """The stored verdict of each deal of ``variant`` from ``low`` to ``high``, by number."""
        sql = "SELECT deal, status FROM verdicts WHERE variant = ? AND deal BETWEEN ? AND ?"
        with self.reading() as db:
            return dict(db.execute(sql, (variant, low, high)))

    def stored_statuses(
        self, db: sqlite3.Connection, variant: str, deals: Sequence[int]
    ) -> dict[int, str]:
        """The verdict stored for each of ``deals`` of ``variant`` that has one, read on
        ``db`` (in a claim's transaction: :class:`castle.surveys.survey_claims.DealClaims`)."""
        marks = ", ".join("?" * len(deals))
        sql = f"SELECT deal, status FROM verdicts WHERE variant = ? AND deal IN ({marks})"
        return dict(db.execute(sql, (variant, *deals)))

    def unknown_deals(self, variant: str) -> list[int]:
        """The deals of ``variant`` stored as ``unknown``, in order."""
        sql = "SELECT deal FROM verdicts WHERE variant = ? AND status = 'unknown' ORDER BY deal"
        with self.reading() as db:
            return [row[0] for row in db.execute(sql, (variant,))]

    def verdicts(self, variant: str | None = None) -> Iterator[Verdict]:
        """Every stored row (of ``variant``, or of all), by variant then deal number."""
        sql = f"SELECT {_COLUMNS} FROM verdicts"
        params: tuple[str, ...] = ()
        if variant is not None:
            sql += " WHERE variant = ?"
            params = (variant,)
        sql += " ORDER BY variant, deal"
        for row in self.rows(sql, params):
            yield Verdict(*row)

    def outcomes(self, variant: str) -> Iterator[tuple[str, str | None, float, int]]:
        """``(status, limit_hit, seconds, states)`` of every stored deal of ``variant``: what
        summaries count, read faster than whole :class:`Verdict` rows."""
        sql = "SELECT status, limit_hit, seconds, states FROM verdicts WHERE variant = ?"
        yield from self.rows(sql, (variant,))

    def put(self, verdicts: Iterable[Verdict], claims: Settler | None = None) -> None:
        """Store ``verdicts`` in one transaction (a decided verdict already stored stays); with
        ``claims``, the run's claims on those deals are settled in the same transaction."""
        verdicts = list(verdicts)
        self.put_rows(_UPSERT, verdicts, [v.deal for v in verdicts], claims)


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
