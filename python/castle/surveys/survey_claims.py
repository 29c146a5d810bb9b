"""Claims on the deals of a results file, so that runs on one file at the same time share
them: ``castle survey``'s verdicts (:mod:`castle.surveys.survey_store`) and ``castle autoplay``'s
games (:mod:`castle.surveys.autoplay_store`).

Before solving (or playing) deals, a run claims a few in a transaction (:class:`DealClaims`):
it skips those already settled and those another live run holds. A stored result settles its
claim in the transaction that stores it (the store's ``put``); the claims of a run that died,
or went silent, are taken over by the next run that looks. The claims are kept in the file
itself, in two tables of their own.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, NamedTuple, Protocol, TypeVar

from .results_file import FileError

#: Seconds between a run's signs of life while it holds claims (a thread writes them).
HEARTBEAT_SECONDS = 15.0
#: A run not heard from for this long has lost its claims, even if its process id is alive
#: (stopped with Ctrl+Z, say, or its id reused by another process after a crash).
STALE_SECONDS = 120.0

# Made by the first run that claims deals (an older file gains them then; older castles
# ignore them). Both are empty when no run is going, but for what a killed run left. A claim's
# ``variant`` is its group of deals (:class:`DealClaims`): a survey's variant.
_CLAIMS_SCHEMA = """
CREATE TABLE IF NOT EXISTS claim_owners (
    owner TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started_at REAL NOT NULL,
    seen_at REAL NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS claims (
    variant TEXT NOT NULL,
    deal INTEGER NOT NULL,
    owner TEXT NOT NULL,
    claimed_at REAL NOT NULL,
    finished_at REAL,
    max_states INTEGER,
    max_seconds REAL,
    max_memory INTEGER,
    max_cpu_seconds REAL,
    PRIMARY KEY (variant, deal)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS claims_by_owner ON claims (owner);
"""

_T = TypeVar("_T")


class ClaimedFile(Protocol):
    """A results file whose deals runs claim: :class:`castle.surveys.survey_store.SurveyStore` or
    :class:`castle.surveys.autoplay_store.AutoplayStore`."""

    def transaction(self, doing: str) -> AbstractContextManager[sqlite3.Connection]:
        """A write transaction (BEGIN IMMEDIATE), raising FileError on SQLite's errors."""
        ...

    def connect_again(self) -> sqlite3.Connection:
        """Another connection to the file, for the heartbeat's thread."""
        ...

    def stored_statuses(
        self, db: sqlite3.Connection, group: str, deals: Sequence[int]
    ) -> dict[int, str]:
        """The result stored for each of ``deals`` of ``group`` that has one (a word: a
        verdict, ``won``...), read on ``db`` inside a claim's transaction."""
        ...


def _pieces(items: list[_T], size: int = 500) -> Iterator[list[_T]]:
    # SQLite limits the parameters of a statement (999 in older builds).
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _pid_alive(pid: int) -> bool:
    """Whether process ``pid`` of this machine is alive (True when it cannot be told)."""
    if sys.platform == "win32":  # os.kill would end it there: the heartbeat decides
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process (EPERM): alive
        return True
    return True


if TYPE_CHECKING:  # Python 3.9 cannot build this at run time
    #: ``(max_states, max_seconds, max_memory, max_cpu_seconds)`` of a search (None: no
    #: limit).
    Limits = tuple[int | None, float | None, int | None, float | None]


def _covers(theirs: Limits, ours: Limits) -> bool:
    """Whether a search under limits ``theirs`` went at least as far as one under ``ours``
    could (None: no limit)."""
    return all(t is None or (o is not None and t >= o) for t, o in zip(theirs, ours))


class _Claim(NamedTuple):
    """A stored claim, with its run's row (None: that run is gone)."""

    owner: str
    finished_at: float | None
    max_states: int | None
    max_seconds: float | None
    max_memory: int | None
    max_cpu_seconds: float | None
    host: str | None
    pid: int | None
    seen_at: float | None

    @property
    def limits(self) -> Limits:
        return (self.max_states, self.max_seconds, self.max_memory, self.max_cpu_seconds)


class Claimed(NamedTuple):
    """What :meth:`DealClaims.claim` found for some deals."""

    #: Claimed now by this run: to solve.
    mine: list[int]
    #: Claimed by another run that is alive: to look at again later.
    held: list[int]
    #: Settled meanwhile by another run, with the result stored: nothing to do.
    done: dict[int, str]
    #: Other live runs on the file (of any group): they may wait for this run's rows.
    others: int


class DealClaims:
    """One run's claims on the deals of ``group`` in a results file, so that runs on the same
    file at the same time share the deals instead of each solving them all. A group is what
    the file keeps results of apart: a survey's variant; an autoplay's variant and player's
    settings (:func:`castle.surveys.autoplay_store.group_key`).

    Before solving deals, a run claims them (:meth:`claim`, one transaction): it skips those
    already settled and those another live run holds, and writes a claim for the rest. A
    stored result settles its claim in the transaction that stores it (the store's ``put``
    calls :meth:`settle`). :meth:`close` (or the end of ``with``) gives back the claims not
    settled, so an interrupted run leaves nothing held.

    A claim is another run's while that run is alive: its process id lives (on this host:
    WAL needs one) and it has written a heartbeat (every :data:`HEARTBEAT_SECONDS`, from a
    thread) within :data:`STALE_SECONDS`. The claims of a run that was killed, or went
    silent, are taken over by the next run that looks.

    A ``run`` (the default) counts a deal settled once any result is stored. A survey's
    ``retry`` (of unknowns, under ``limits``) counts it settled once its verdict is decided, or once
    another retry under limits at least as large has finished it, that retry still running
    or finished since ``since``: a retry's finished claims stay, for that, until the last
    run on the file ends.
    """

    def __init__(
        self,
        store: ClaimedFile,
        group: str,
        limits: Limits = (None, None, None, None),
        *,
        retry: bool = False,
        since: float | None = None,
    ) -> None:
        self._store = store
        self.group = group
        self.limits = limits
        self.retry = retry
        self.since = time.time() if since is None else since
        self.token = secrets.token_hex(8)
        self.host = socket.gethostname()
        self.pid = os.getpid()
        self._started = time.time()
        self._stop = threading.Event()
        self._heart: threading.Thread | None = None

    # --- the run's life ----------------------------------------------------------------

    def __enter__(self) -> DealClaims:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def open(self) -> None:
        """Register this run (clearing what runs that are gone left) and start its heartbeat."""
        with self._store.transaction("claim deals in") as db:
            for statement in _CLAIMS_SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            self._forget_the_gone(db)
            self._register(db, time.time())
        self._heart = threading.Thread(target=self._beat, name="castle-claims", daemon=True)
        self._heart.start()

    def close(self) -> None:
        """Give back the claims not settled and end the heartbeat. Quiet on errors: claims
        left behind belong to a process that is gone, and the next run takes them over."""
        self._stop.set()
        if self._heart is not None:
            self._heart.join()
            self._heart = None
        release = self._store.transaction("release the claims in")
        with contextlib.suppress(FileError), release as db:
            db.execute("DELETE FROM claims WHERE owner = ? AND finished_at IS NULL", (self.token,))
            db.execute("DELETE FROM claim_owners WHERE owner = ?", (self.token,))
            self._forget_the_gone(db)

    def _register(self, db: sqlite3.Connection, now: float) -> None:
        # Again at each claim: a run that went silent too long (Ctrl+Z) was forgotten.
        db.execute(
            "INSERT OR REPLACE INTO claim_owners VALUES (?, ?, ?, ?, ?)",
            (self.token, self.host, self.pid, self._started, now),
        )

    def _beat(self) -> None:
        try:
            db = self._store.connect_again()
        except sqlite3.Error:
            return
        try:
            while not self._stop.wait(HEARTBEAT_SECONDS):
                with contextlib.suppress(sqlite3.Error):
                    db.execute(
                        "UPDATE claim_owners SET seen_at = ? WHERE owner = ?",
                        (time.time(), self.token),
                    )
        finally:
            db.close()

    def _alive(self, host: str | None, pid: int | None, seen_at: float | None, now: float) -> bool:
        """Whether the run of a claim (its owner's row: None if gone) is alive."""
        if host is None or pid is None or seen_at is None:
            return False
        if now - seen_at > STALE_SECONDS:
            return False
        if host != self.host:
            return True  # no way to look: its heartbeat decides
        if pid == self.pid:
            return False  # an earlier run in this process, which has ended
        return _pid_alive(pid)

    def _forget_the_gone(self, db: sqlite3.Connection) -> None:
        """Drop the runs that are gone and their unsettled claims; when no run is left, every
        claim (a finished retry's ones included)."""
        now = time.time()
        gone, live = [], 0
        for owner, host, pid, seen_at in db.execute(
            "SELECT owner, host, pid, seen_at FROM claim_owners WHERE owner <> ?", (self.token,)
        ):
            if self._alive(host, pid, seen_at, now):
                live += 1
            else:
                gone.append(owner)
        for owner in gone:
            db.execute("DELETE FROM claim_owners WHERE owner = ?", (owner,))
            db.execute("DELETE FROM claims WHERE owner = ? AND finished_at IS NULL", (owner,))
        if not live:  # this run's own are settled or given back by now, or none yet
            db.execute("DELETE FROM claims")

    # --- claiming ----------------------------------------------------------------------

    def claim(self, deals: Sequence[int]) -> Claimed:
        """Claim those of ``deals`` that are neither settled nor held by another live run."""
        got = Claimed([], [], {}, 0)
        if not deals:
            return got
        now = time.time()
        wanted = list(deals)
        with self._store.transaction("claim deals in") as db:
            stored: dict[int, str] = {}
            claims: dict[int, _Claim] = {}
            for piece in _pieces(wanted):
                marks = ", ".join("?" * len(piece))
                stored.update(self._store.stored_statuses(db, self.group, piece))
                for row in db.execute(
                    "SELECT c.deal, c.owner, c.finished_at, c.max_states, c.max_seconds, "
                    "c.max_memory, c.max_cpu_seconds, o.host, o.pid, o.seen_at FROM claims AS c "
                    "LEFT JOIN claim_owners AS o ON o.owner = c.owner "
                    f"WHERE c.variant = ? AND c.deal IN ({marks})",
                    (self.group, *piece),
                ):
                    claims[row[0]] = _Claim(*row[1:])
            for deal in wanted:
                status = stored.get(deal)
                claim = claims.get(deal)
                if self._settled(status, claim, now):
                    assert status is not None
                    got.done[deal] = status
                elif claim is not None and self._holds(claim, now):
                    got.held.append(deal)
                else:
                    got.mine.append(deal)
            db.executemany(
                "INSERT OR REPLACE INTO claims (variant, deal, owner, claimed_at, finished_at, "
                "max_states, max_seconds, max_memory, max_cpu_seconds) "
                "VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?)",
                [(self.group, deal, self.token, now, *self.limits) for deal in got.mine],
            )
            self._register(db, now)
            others = sum(
                self._alive(host, pid, seen_at, now)
                for host, pid, seen_at in db.execute(
                    "SELECT host, pid, seen_at FROM claim_owners WHERE owner <> ?", (self.token,)
                )
            )
        return got._replace(others=others)

    def _settled(self, status: str | None, claim: _Claim | None, now: float) -> bool:
        """Whether a deal (stored with ``status``: None if not) needs no more solving."""
        if status is None:
            return False
        if not self.retry or status != "unknown":
            return True
        # Another retry, still running or finished since this one began, retried it going as
        # far as this one would.
        return (
            claim is not None
            and claim.owner != self.token
            and claim.finished_at is not None
            and _covers(claim.limits, self.limits)
            and (
                claim.finished_at >= self.since
                or self._alive(claim.host, claim.pid, claim.seen_at, now)
            )
        )

    def _holds(self, claim: _Claim, now: float) -> bool:
        """Whether another run is solving the deal of ``claim`` now."""
        return (
            claim.owner != self.token
            and claim.finished_at is None
            and self._alive(claim.host, claim.pid, claim.seen_at, now)
        )

    def settle(self, db: sqlite3.Connection, deals: list[int]) -> None:
        """Settle this run's claims on ``deals``, whose results the store's ``put`` stores in
        its transaction, ``db``."""
        keys = [(self.group, deal, self.token) for deal in deals]
        if self.retry:  # kept, finished, for the retries running beside
            db.executemany(
                "UPDATE claims SET finished_at = ? WHERE variant = ? AND deal = ? AND owner = ?",
                [(time.time(), *key) for key in keys],
            )
        else:
            db.executemany("DELETE FROM claims WHERE variant = ? AND deal = ? AND owner = ?", keys)


__all__ = ["HEARTBEAT_SECONDS", "STALE_SECONDS", "Claimed", "ClaimedFile", "DealClaims"]
