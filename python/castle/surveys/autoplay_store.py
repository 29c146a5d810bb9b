"""Autoplay files: the games ``castle autoplay --db`` played, in SQLite, each stored as soon as
it is played, so that a run can stop at any time and resume later.

A row is one deal of a variant played by a player with some settings: won or not, the seconds it
took, every field of its result (:class:`castle.surveys.autoplay.AutoplayResult`, as JSON: a field
the result gains is stored with no change here), when, and by which castle. The settings (fair or
not, samples, seed, max-states...: whatever changes how the player plays) are a JSON object, part of
the row's key, so games played with other settings are kept apart and never counted together::

    with AutoplayStore.open("bc.db") as store:
        for game in store.games("beleaguered-castle"):
            print(game.deal, game.won, game.settings)

A deal played is final: playing it again with the same settings stores nothing. Runs at the
same time on one file share its deals through claims kept in the same file
(:mod:`castle.surveys.survey_claims`), by group: a variant and its settings (:func:`group_key`).
A file that is not an autoplay file (a survey, say), or a damaged one, raises
:class:`AutoplayFileError` and is never written to.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from .results_file import FileError, FileKind, ResultsFile, Settler

SCHEMA_VERSION = 1
#: SQLite's application id for castle autoplay files (``CAPL``); ``file(1)`` can show it.
APPLICATION_ID = 0x4341504C

_SCHEMA = """
CREATE TABLE games (
    variant TEXT NOT NULL,
    settings TEXT NOT NULL,
    deal INTEGER NOT NULL CHECK (deal >= 1),
    won INTEGER NOT NULL CHECK (won IN (0, 1)),
    seconds REAL NOT NULL,
    result TEXT NOT NULL,
    played_at TEXT NOT NULL,
    castle_version TEXT NOT NULL,
    PRIMARY KEY (variant, settings, deal)
) WITHOUT ROWID;
"""

_COLUMNS = "variant, settings, deal, won, seconds, result, played_at, castle_version"


class AutoplayFileError(FileError):
    """A file that is not a castle autoplay file, a damaged one, or one that cannot be
    written."""


class Game(NamedTuple):
    """One stored row: a deal played, and how it went.

    ``settings`` is the player's settings as stored (:func:`settings_text`); ``result`` every
    field of the result, as JSON (:attr:`fields` reads it); ``played_at`` is when the row was
    written, in UTC (ISO 8601); ``castle_version`` the castle that played it.
    """

    variant: str
    settings: str
    deal: int
    won: bool
    seconds: float
    result: str
    played_at: str
    castle_version: str

    @property
    def fields(self) -> dict[str, Any]:
        """The result's fields (``won``, ``moves``, ``plans``...)."""
        fields: dict[str, Any] = json.loads(self.result)
        return fields


class GroupTally(NamedTuple):
    """The games of a variant with some settings, counted."""

    variant: str
    settings: str
    played: int
    won: int
    low_deal: int
    high_deal: int


def settings_text(settings: Mapping[str, object]) -> str:
    """Settings as they are stored and compared: JSON with the keys in order, no spaces."""
    return json.dumps(dict(settings), sort_keys=True, separators=(",", ":"))


def group_key(variant: str, settings: str) -> str:
    """The group of :class:`castle.surveys.survey_claims.DealClaims` for ``variant`` played with
    ``settings`` (:func:`settings_text`): the two, a space between (a variant has none)."""
    return f"{variant} {settings}"


class AutoplayStore(ResultsFile):
    """An open autoplay file. Use :meth:`open`; close it (or use ``with``) when done."""

    KIND = FileKind(
        name="autoplay",
        what="castle autoplay",
        table="games",
        schema=_SCHEMA,
        version=SCHEMA_VERSION,
        application_id=APPLICATION_ID,
        error=AutoplayFileError,
    )

    def games(
        self,
        variant: str | None = None,
        settings: str | None = None,
        deals: Sequence[int] | None = None,
    ) -> Iterator[Game]:
        """The stored games (of ``variant``, with ``settings``, of ``deals``: each when
        given), by variant, settings and deal number."""
        sql = f"SELECT {_COLUMNS} FROM games WHERE 1"
        params: list[object] = []
        for column, value in (("variant", variant), ("settings", settings)):
            if value is not None:
                sql += f" AND {column} = ?"
                params.append(value)
        wanted = None
        if deals is not None:  # read the span, keep the deals asked for: no statement too long
            if not deals:
                return
            sql += " AND deal BETWEEN ? AND ?"
            params += [min(deals), max(deals)]
            wanted = set(deals)
        sql += " ORDER BY variant, settings, deal"
        for row in self.rows(sql, params):
            game = Game(*row)._replace(won=bool(row[3]))  # SQLite holds 0 or 1
            if wanted is None or game.deal in wanted:
                yield game

    def groups(self, variant: str | None = None) -> list[GroupTally]:
        """Each variant and settings the file holds games of (of ``variant`` only, if
        given), counted, by variant then settings."""
        sql = (
            "SELECT variant, settings, count(*), sum(won), min(deal), max(deal) FROM games"
            + (" WHERE variant = ?" if variant is not None else "")
            + " GROUP BY variant, settings ORDER BY variant, settings"
        )
        with self.reading() as db:
            rows = db.execute(sql, () if variant is None else (variant,)).fetchall()
        return [GroupTally(*row) for row in rows]

    def stored_statuses(
        self, db: sqlite3.Connection, group: str, deals: Sequence[int]
    ) -> dict[int, str]:
        """``won`` or ``lost`` for each of ``deals`` of ``group`` (:func:`group_key`) that is
        stored, read on ``db`` (in a claim's transaction:
        castle.surveys.survey_claims.DealClaims)."""
        variant, _, settings = group.partition(" ")
        marks = ", ".join("?" * len(deals))
        sql = (
            f"SELECT deal, won FROM games WHERE variant = ? AND settings = ? AND deal IN ({marks})"
        )
        rows = db.execute(sql, (variant, settings, *deals))
        return {deal: "won" if won else "lost" for deal, won in rows}

    def put(self, games: Iterable[Game], claims: Settler | None = None) -> None:
        """Store ``games`` in one transaction (a deal stored already with the same settings
        keeps its row); with ``claims``, the run's claims on those deals are settled in the
        same transaction."""
        games = list(games)
        rows = [(*g[:3], int(g.won), *g[4:]) for g in games]
        marks = ", ".join("?" * len(_COLUMNS.split(",")))
        sql = f"INSERT OR IGNORE INTO games ({_COLUMNS}) VALUES ({marks})"
        self.put_rows(sql, rows, [g.deal for g in games], claims)


__all__ = [
    "SCHEMA_VERSION",
    "AutoplayFileError",
    "AutoplayStore",
    "Game",
    "GroupTally",
    "group_key",
    "settings_text",
]
