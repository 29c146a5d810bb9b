"""The native core (Rust, ``rust/src``). Private: use the ``castle`` package instead.

Cards cross this boundary as indexes ``13 * suit + rank - 1`` with suits in the order
``C D H S`` and ranks 1 (ace) to 13 (king).
"""

import os
from collections.abc import Callable
from typing import final

__all__ = [
    "CASTLE_COLUMNS",
    "MAX_BEAM_WIDTH",
    "MAX_DEAL_NUMBER",
    "SPIDER_COLUMNS",
    "SPIDER_RUN",
    "SPIDER_RUNS",
    "BoardTextError",
    "CellsDeal",
    "Deal",
    "InternalError",
    "SpiderDeal",
    "cells_replays",
    "cells_rules",
    "cells_variants",
    "parse_card",
    "solve",
    "solve_cells",
    "solve_spider",
    "spider_fair_advice",
    "spider_fair_effort_check",
    "spider_fair_exits",
    "spider_variants",
    "variants",
]

MAX_BEAM_WIDTH: int
MAX_DEAL_NUMBER: int
#: Columns of the castle games' table; Spider's columns, cards in a run, runs in the game.
CASTLE_COLUMNS: int
SPIDER_COLUMNS: int
SPIDER_RUN: int
SPIDER_RUNS: int

class BoardTextError(ValueError):
    """Board text refused; ``args`` is ``(message, line or None, token or None)``."""

class InternalError(RuntimeError):
    """A bug in the core: a Rust panic caught before it reached Python."""

@final
class Deal:
    @staticmethod
    def from_number(variant: str, number: int) -> Deal: ...
    @staticmethod
    def from_text(text: str, variant: str | None = None) -> Deal: ...
    def to_text(self) -> str: ...
    @property
    def variant(self) -> str: ...
    @property
    def number(self) -> int | None: ...
    @property
    def columns(self) -> list[list[int]]:
        """Card indexes, bottom card first."""
    @property
    def foundations(self) -> list[int]:
        """Top rank per suit, suits C D H S (0 = empty)."""
    # Moves are (card index, from column, to column or -1 for the foundation).
    def legal_moves(self) -> list[tuple[int, int, int]]:
        """Every legal single-card move here, every empty column included."""
    def is_legal(self, card: int, src: int, dst: int) -> bool: ...
    def play(self, card: int, src: int, dst: int) -> Deal:
        """The position after a legal move (no deal number); ValueError if not legal."""
    def is_safe_to_foundation(self, card: int) -> bool:
        """Whether top card ``card`` may go up now and is never needed in the tableau again
        (the solver's automatic-move rule)."""
    def lift_to_win(self) -> list[tuple[int, int, int]] | None:
        """The foundation moves that finish the game, if lifting cards alone wins."""
    def is_won(self) -> bool: ...

def parse_card(token: str) -> int | None: ...
def variants() -> list[str]: ...
def solve(
    deal: Deal,
    max_states: int | None,
    max_seconds: float | None,
    max_memory: int,
    short: bool = False,
    spill_dir: str | os.PathLike[str] | None = None,
    max_disk: int | None = None,
    progress: Callable[[int, float, int, int], object] | None = None,
    progress_seconds: float = 1.0,
    max_cpu_seconds: float | None = None,
) -> tuple[str, list[tuple[int, int, int]], int, float, str | None]:
    """(status, moves, states expanded, seconds, limit that stopped an unknown). With
    ``short``, beam searches for a shorter win follow a win. The complete pass goes on in
    layers once its table is full; with ``spill_dir``, the layers put keys in files there when
    memory is full, at most ``max_disk`` bytes of them. ``progress``, if given, is called every
    ``progress_seconds`` with (states, seconds, bytes held, bytes of spill files); an exception
    it raises stops the search.

    Each move is (card index, from column, to column or -1 for the foundation).
    """

def spider_variants() -> list[str]: ...

@final
class SpiderDeal:
    @staticmethod
    def from_number(variant: str, number: int) -> SpiderDeal: ...
    @staticmethod
    def from_text(text: str, variant: str | None = None) -> SpiderDeal: ...
    def to_text(self) -> str: ...
    @property
    def variant(self) -> str: ...
    @property
    def number(self) -> int | None: ...
    @property
    def columns(self) -> list[tuple[list[int], list[int]]]:
        """Each column as (face-down, face-up) card indexes, bottom first."""
    @property
    def stock(self) -> list[int]:
        """Card indexes in dealing order."""
    @property
    def off(self) -> list[int]:
        """Suits (0-3, C D H S) of the runs taken off."""
    # Moves are (kind "run" | "deal" | "off", from column or -1, to column or -1, cards).
    def legal_moves(self) -> list[tuple[str, int, int, int]]: ...
    def is_legal(self, kind: str, src: int, dst: int, count: int) -> bool: ...
    def play(self, kind: str, src: int, dst: int, count: int) -> SpiderDeal:
        """The position after a legal move (no deal number); ValueError if not legal."""
    def is_won(self) -> bool: ...
    def with_hidden(self, hidden: list[int]) -> SpiderDeal:
        """The same view with ``hidden`` (card indexes) in the hidden places: the stock first,
        in dealing order, then each column's face-down cards, bottom first. ValueError unless
        ``hidden`` holds the hidden cards, in any order."""
    def movable(self, column: int) -> int:
        """How many top cards of ``column`` may move as one (face up, one suit, descending)."""

def spider_fair_advice(
    position: SpiderDeal,
    visited: list[SpiderDeal],
    seed: int,
    effort: dict[str, object] | None = None,
    progress: Callable[[int, float, int, int], object] | None = None,
    progress_seconds: float = 1.0,
) -> tuple[list[tuple[str, int, int, int]], bool, int, int, bool]:
    """The fair player's advice from what a player sees of ``position`` (never leading back
    into a position of ``visited``): (moves of the plan, exact, worlds won, worlds, proved).
    No moves: no move helps (``proved`` when nothing is hidden and the solver proved it).
    ``effort`` maps settings (``castle.game.fair.FairEffort``'s fields) to values; a setting left
    out, or None, is the deck's. ValueError for a name that is no setting or a value it cannot
    take. ``progress`` is called every ``progress_seconds`` (states, seconds, bytes held,
    bytes on disk: zeros here); an exception it raises stops the advice and is raised."""

def spider_fair_exits(
    position: SpiderDeal,
    visited: list[SpiderDeal],
    most: int,
    effort: dict[str, object] | None = None,
) -> list[list[tuple[str, int, int, int]]]:
    """The exits the fair player chooses among from what a player sees of ``position`` (never
    leading into a position of ``visited``), best-looking first, at most ``most``: each the
    moves of its plan, quiet moves and the one that shows a card or deals. Empty when no way
    on is left or the quiet moves alone win. Of ``effort`` (as for ``spider_fair_advice``)
    only the quiet search's settings bear on them. ValueError for ``most`` of 0."""

def spider_fair_effort_check(effort: dict[str, object]) -> None:
    """ValueError unless ``effort`` maps settings of the fair player to values they can take
    (as ``spider_fair_advice`` reads them)."""

def solve_spider(
    deal: SpiderDeal,
    max_states: int | None,
    max_seconds: float | None,
    max_memory: int,
    beam_width: int | None = None,
    progress: Callable[[int, float, int, int], object] | None = None,
    progress_seconds: float = 1.0,
    max_cpu_seconds: float | None = None,
) -> tuple[str, list[tuple[str, int, int, list[int]]], int, float, str | None]:
    """(status, moves, states, seconds, limit); each move (kind "run" | "deal" | "off",
    from column or -1, to column or -1, the card indexes it carries). With ``beam_width``,
    one beam of that width (1 to ``MAX_BEAM_WIDTH``, else ValueError) instead of the portfolio."""

# The free-cell games. Moves are (card index, from kind, from index, to kind, to index), kinds
# "column", "cell" or "foundation" (index -1).
_CellsMove = tuple[int, str, int, str, int]

def cells_variants() -> list[str]: ...
def cells_rules(variant: str) -> tuple[str, int, int, str, bool, int]:
    """(name, columns, cells, how a column builds: "alternate-colours", "suit" or "rank",
    whether an empty column takes only a king, the largest deal number); ValueError for an
    unknown variant."""

@final
class CellsDeal:
    @staticmethod
    def from_number(variant: str, number: int) -> CellsDeal: ...
    @staticmethod
    def from_text(text: str, variant: str | None = None) -> CellsDeal: ...
    def to_text(self) -> str: ...
    @property
    def variant(self) -> str: ...
    @property
    def number(self) -> int | None: ...
    @property
    def columns(self) -> list[list[int]]:
        """Card indexes, bottom card first."""
    @property
    def cells(self) -> list[int | None]:
        """Each cell's card index, or None."""
    @property
    def foundations(self) -> list[int]:
        """Top rank per suit, suits C D H S (0 = empty)."""
    def legal_moves(self) -> list[_CellsMove]:
        """Every legal single-card move here, every empty column and cell included."""
    def is_legal(self, card: int, src_kind: str, src: int, dst_kind: str, dst: int) -> bool: ...
    def play(self, card: int, src_kind: str, src: int, dst_kind: str, dst: int) -> CellsDeal:
        """The position after a legal move (no deal number): one card, or a run moved as a
        unit (``card`` under others in a column, going to another column); ValueError if not
        legal."""
    def single_moves(
        self, card: int, src_kind: str, src: int, dst_kind: str, dst: int
    ) -> list[_CellsMove]:
        """The single-card moves a legal move stands for; ValueError if not legal."""
    def movable(self, column: int) -> int:
        """How many top cards of ``column`` form a run."""
    def max_run(self, column: int) -> int:
        """The most cards that may move as a unit onto ``column`` now."""
    def safe_moves(self) -> list[_CellsMove]:
        """The moves to the foundations the solver makes by itself from here."""
    def is_won(self) -> bool: ...

def cells_replays(deal: CellsDeal, moves: list[_CellsMove]) -> bool:
    """Whether ``moves`` (single-card moves) are legal in turn from ``deal`` and win."""

def solve_cells(
    deal: CellsDeal,
    max_states: int | None,
    max_seconds: float | None,
    max_memory: int,
    short: bool = False,
    progress: Callable[[int, float, int, int], object] | None = None,
    progress_seconds: float = 1.0,
    max_cpu_seconds: float | None = None,
) -> tuple[str, bytes, int, float, str | None]:
    """(status, moves, states expanded, seconds, limit that stopped an unknown), like
    ``solve``. The moves are one ``bytes``, two a move in the machine's byte order (an
    unsigned 16-bit number each); each move is a single card's, the safe moves to the
    foundations among them: the card's index in bits 0-5, where it comes from in bits 6-10,
    where it goes in bits 11-15 (a column's index, 16 + a cell's, 31 the foundation). With
    ``short``, the win is made shorter first; a win has been replayed by the rules' code
    (``InternalError`` if it does not win). "unsolvable" is a proof: every position
    reachable was expanded."""
