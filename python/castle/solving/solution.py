"""The castle games' answer as typed Python values (:class:`Solution`, :class:`Move`) and their
solver call (:func:`solve_castle`, which ``castle.solve`` makes for a :class:`castle.Deal`)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Literal, Union, cast

from .. import _core
from ..cards import CARDS, Card
from .deal import Deal
from .outcome import (
    Cancelled,
    Status,
    check_spill,
    core_progress,
    solution_json,
)
from .settings import SolveSettings

FOUNDATION: Literal["foundation"] = "foundation"
#: Where a move goes: a column (0-based, board-line order) or the card's foundation.
Target = Union[int, Literal["foundation"]]


@dataclass(frozen=True)
class Move:
    """One card from the top of column ``src`` to column ``dst`` or to its foundation."""

    card: Card
    src: int
    dst: Target

    @property
    def to_foundation(self) -> bool:
        return self.dst == FOUNDATION

    def to_json(self) -> dict[str, Any]:
        return {"card": str(self.card), "from": self.src, "to": self.dst}

    def __str__(self) -> str:
        where = "foundation" if self.dst == FOUNDATION else f"column {self.dst + 1}"
        return f"{self.card} from column {self.src + 1} to {where}"


@dataclass(frozen=True)
class Solution:
    """What the solver found.

    ``status`` is ``"solved"`` (``moves`` win from the deal, automatic foundation moves
    included), ``"unsolvable"`` (the search was complete: no sequence of moves wins) or
    ``"unknown"`` (a limit stopped it; ``limit`` says which: ``"states"``, ``"seconds"``,
    ``"cpu-seconds"``, ``"memory"``, ``"disk"``, ``"interrupted"`` or ``"cancelled"``).
    ``states`` counts positions expanded.
    """

    status: Status
    moves: tuple[Move, ...]
    states: int
    seconds: float
    limit: str | None = None

    def to_json(self, deal: Deal | None = None) -> dict[str, Any]:
        moves = [m.to_json() for m in self.moves]
        return solution_json(self, moves, deal)


# Each of the few thousand moves there are is made once and shared, as it cannot change.
@functools.cache
def make_move(card_index: int, src: int, dst: int) -> Move:
    return Move(CARDS[card_index], src, FOUNDATION if dst < 0 else dst)


def solve_castle(deal: Deal, settings: SolveSettings) -> Solution:
    """Decide a castle deal with the Rust solver (``castle.solve`` says how, and calls this)."""
    spill = check_spill(settings.spill_dir, settings.max_disk)
    hook, every = core_progress(settings.progress, settings.cancel)
    try:
        status, moves, states, seconds, limit = _core.solve(
            deal.core,
            settings.max_states,
            settings.core_seconds,
            settings.max_memory,
            max_cpu_seconds=settings.core_cpu_seconds,
            short=bool(settings.short),
            spill_dir=spill,
            max_disk=settings.max_disk,
            progress=hook,
            progress_seconds=every,
        )
    except Cancelled:
        return Solution("unknown", (), 0, 0.0, limit="cancelled")
    return Solution(
        status=cast(Status, status),
        moves=tuple(make_move(c, s, d) for c, s, d in moves),
        states=states,
        seconds=seconds,
        limit=limit,
    )


__all__ = ["FOUNDATION", "Move", "Solution", "Target", "make_move", "solve_castle"]
