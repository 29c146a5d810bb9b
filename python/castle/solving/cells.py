"""The free-cell games (docs/rules.md §6): FreeCell, Baker's Game, Eight Off, Seahaven
Towers and PySolFC's castle games with cells. Their deals, board text (fc-solve's), moves and
the solver's answer.

A move is one card's, from the top of a column or from a cell, to a column, a cell or its
foundation; the solver's answer lists single-card moves only (a supermove as the moves it
stands for), the safe moves to the foundations among them.
"""

from __future__ import annotations

import functools
import operator
from array import array
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, cast

from .. import _core
from ..cards import CARDS, SUITS, Card
from ..errors import VariantError
from .deal import DealOf, check_deal_number
from .outcome import (
    Cancelled,
    Status,
    core_progress,
    solution_json,
)
from .settings import SolveSettings

#: The free-cell variant ids, in the core's order; the first is the default.
CELLS_VARIANTS: tuple[str, ...] = tuple(_core.cells_variants())
DEFAULT_CELLS_VARIANT = "freecell"

Build = Literal["alternate-colours", "suit", "rank"]


class CellsRules(NamedTuple):
    """A free-cell variant's rules, as the core has them."""

    name: str
    columns: int
    cells: int
    #: How a column builds down: in alternating colours, in suit, or in any suit.
    build: Build
    #: Whether an empty column takes only a king.
    kings_only: bool
    #: Its deals are numbered 1 to this.
    last_deal: int


def check_cells_variant(variant: str) -> str:
    if variant not in CELLS_VARIANTS:
        known = ", ".join(CELLS_VARIANTS)
        raise VariantError(f"unknown free-cell variant {variant!r} (known: {known})")
    return variant


def cells_rules(variant: str) -> CellsRules:
    """The rules of free-cell ``variant``; :class:`castle.VariantError` for another."""
    name, columns, cells, build, kings_only, last = _core.cells_rules(check_cells_variant(variant))
    return CellsRules(name, columns, cells, cast(Build, build), kings_only, last)


class CellsDeal(DealOf[_core.CellsDeal]):
    """A position of a free-cell game: its columns (bottom card first), its cells and the
    foundations.

    Build one with :meth:`from_number`, :meth:`from_text` (fc-solve's board text) or
    :meth:`random`. Board text without a variant is read as FreeCell's.
    """

    __slots__ = ()

    _CORE = _core.CellsDeal
    _FAMILY = "cells"
    _DEFAULT_VARIANT = DEFAULT_CELLS_VARIANT

    @staticmethod
    def _check_variant(variant: str) -> str:
        return check_cells_variant(variant)

    @classmethod
    def from_number(cls, variant: str, number: int) -> CellsDeal:
        """Deal ``number`` of ``variant``: 1 to the variant's last deal
        (:attr:`CellsRules.last_deal`: 2**33-1 for FreeCell, Microsoft's deals and those
        past them); any other number raises :class:`BoardError`."""
        check_deal_number(number, cells_rules(variant).last_deal)
        return cls(_core.CellsDeal.from_number(variant, number))

    @property
    def columns(self) -> list[list[Card]]:
        """The columns, each bottom card first (the last card is the one that moves)."""
        return [[CARDS[i] for i in column] for column in self._deal.columns]

    @property
    def cells(self) -> list[Card | None]:
        """Each cell's card, or None for an empty cell."""
        return [None if i is None else CARDS[i] for i in self._deal.cells]

    @property
    def foundations(self) -> dict[str, int]:
        """Top rank on each suit's foundation, by suit letter (0 = empty)."""
        return dict(zip(SUITS, self._deal.foundations))

    @property
    def is_won(self) -> bool:
        return bool(self._deal.is_won())


PlaceKind = Literal["column", "cell", "foundation"]


@dataclass(frozen=True)
class Place:
    """Where a card is or goes: column ``index`` or cell ``index`` (0-based), or its
    foundation (``index`` None)."""

    kind: PlaceKind
    index: int | None = None

    def to_json(self) -> dict[str, int] | str:
        """``{"column": 3}``, ``{"cell": 0}`` or ``"foundation"``."""
        if self.index is None:
            return self.kind
        return {self.kind: self.index}

    def __str__(self) -> str:
        """``column 4``, ``cell 1`` (1-based) or ``foundation``."""
        if self.index is None:
            return self.kind
        return f"{self.kind} {self.index + 1}"


#: The foundation, as a move's destination.
TO_FOUNDATION = Place("foundation")


@dataclass(frozen=True)
class CellsMove:
    """One card from the top of a column or from a cell (``src``) to a column, a cell or its
    foundation (``dst``)."""

    card: Card
    src: Place
    dst: Place

    @property
    def to_foundation(self) -> bool:
        return self.dst.kind == "foundation"

    def to_json(self) -> dict[str, Any]:
        """``{"card": "7H", "from": {"column": 3}, "to": {"cell": 0}}``, 0-based; ``"to"``
        is ``"foundation"`` for a card that goes up."""
        return {"card": str(self.card), "from": self.src.to_json(), "to": self.dst.to_json()}

    @property
    def core(self) -> tuple[int, str, int, str, int]:
        """The move as the native module takes it (for castle's own modules)."""
        return (
            self.card.index,
            self.src.kind,
            -1 if self.src.index is None else self.src.index,
            self.dst.kind,
            -1 if self.dst.index is None else self.dst.index,
        )

    def __str__(self) -> str:
        return f"{self.card} from {self.src} to {self.dst}"


# A deal's moves are few of the ~9,000 there are, met again and again (a survey turns
# millions of them): each is made once and shared, as it cannot change.
@functools.cache
def public_move(card: int, src_kind: str, src: int, dst_kind: str, dst: int) -> CellsMove:
    """The core's move tuple as a :class:`CellsMove`."""

    def place(kind: str, index: int) -> Place:
        return Place(cast(PlaceKind, kind), None if index < 0 else index)

    return CellsMove(CARDS[card], place(src_kind, src), place(dst_kind, dst))


def _move_of_code(code: int) -> CellsMove:
    """The move a core move code stands for (``solve_cells``: the card's index in bits 0-5,
    where it comes from in bits 6-10, where it goes in bits 11-15; a place a column's index,
    16 + a cell's, or 31 for the foundation)."""

    def place(p: int) -> tuple[str, int]:
        if p == 31:
            return ("foundation", -1)
        return ("cell", p - 16) if p >= 16 else ("column", p)

    return public_move(code & 63, *place(code >> 6 & 31), *place(code >> 11))


# Each code's move, made the first time it is met; a list, not a dict: a solution's moves
# are read in one call (``itemgetter``), by index, with no hashing (a survey reads millions).
_BY_CODE: list[CellsMove | None] = [None] * (1 << 16)


def _code_of_move(move: CellsMove) -> int:
    """The code the core gives ``move`` (:func:`_move_of_code`'s inverse)."""

    def place(p: Place) -> int:
        if p.index is None:
            return 31
        return p.index + 16 if p.kind == "cell" else p.index

    return move.card.index | place(move.src) << 6 | place(move.dst) << 11


def _moves_of_codes(codes: bytes) -> tuple[CellsMove, ...]:
    """A solution's moves from the core's codes (two bytes a move, the machine's order)."""
    if not codes:
        return ()
    numbers = memoryview(codes).cast("H")
    moves = operator.itemgetter(*numbers)(_BY_CODE)
    if len(numbers) == 1:
        moves = (moves,)
    if all(moves):  # a move is always true: ``None`` is a code not met before
        return cast("tuple[CellsMove, ...]", moves)
    for code in numbers:
        if _BY_CODE[code] is None:
            _BY_CODE[code] = _move_of_code(code)
    return _moves_of_codes(codes)


@dataclass(frozen=True)
class CellsSolution:
    """What the free-cell solver found; as :class:`castle.Solution`, with free-cell moves
    (single-card moves, the safe moves to the foundations included). A win has been
    replayed by the core before it is returned. Its moves cross from the core as numbers and
    are made into :class:`CellsMove` objects when :attr:`moves` is first read: a survey that
    wants only the verdicts does not make them."""

    status: Status
    states: int
    seconds: float
    limit: str | None = None
    _codes: bytes = field(default=b"", repr=False)

    @classmethod
    def of_moves(
        cls,
        status: Status,
        moves: tuple[CellsMove, ...],
        states: int,
        seconds: float,
        limit: str | None = None,
    ) -> CellsSolution:
        """The answer with these moves, made in Python (``castle.reference``'s)."""
        return cls(status, states, seconds, limit, array("H", map(_code_of_move, moves)).tobytes())

    @functools.cached_property
    def moves(self) -> tuple[CellsMove, ...]:
        """The single-card moves that win, in order (empty unless ``status`` is
        ``"solved"``)."""
        return _moves_of_codes(self._codes)

    def to_json(self, deal: CellsDeal | None = None) -> dict[str, Any]:
        return solution_json(self, [m.to_json() for m in self.moves], deal)


def replays(deal: CellsDeal, moves: tuple[CellsMove, ...] | list[CellsMove]) -> bool:
    """Whether ``moves`` are legal one after another from ``deal`` and win it (the core's
    check)."""
    return bool(_core.cells_replays(deal.core, [m.core for m in moves]))


def solve_cells(deal: CellsDeal, settings: SolveSettings) -> CellsSolution:
    """Decide a free-cell deal: depth-first searches taking turns over one table of positions
    ("unsolvable" is a proof: every position reachable was expanded). The limits,
    ``progress`` and ``cancel`` are ``castle.solve``'s, which calls this; with ``short``
    the win is made shorter before it is returned. The search holds its table in memory
    (no spill directory)."""
    hook, every = core_progress(settings.progress, settings.cancel)
    try:
        # By position: the call is made once a deal in a survey, and keywords cost more.
        status, moves, states, seconds, limit = _core.solve_cells(
            deal.core,
            settings.max_states,
            settings.core_seconds,
            settings.max_memory,
            bool(settings.short),
            hook,
            every,
            settings.core_cpu_seconds,
        )
    except Cancelled:
        return CellsSolution("unknown", 0, 0.0, limit="cancelled")
    # A win has been replayed by the rules' code in the core (``InternalError`` if not).
    return CellsSolution(cast(Status, status), states, seconds, limit, moves)


__all__ = [
    "CELLS_VARIANTS",
    "DEFAULT_CELLS_VARIANT",
    "TO_FOUNDATION",
    "CellsDeal",
    "CellsMove",
    "CellsRules",
    "CellsSolution",
    "Place",
    "cells_rules",
    "check_cells_variant",
    "public_move",
    "replays",
    "solve_cells",
]
