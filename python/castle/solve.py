"""``castle.solve``: the Rust solver, with its answer as typed Python values."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Literal, Union, cast, overload

from . import _core
from .cards import CARDS, Card
from .deal import Deal
from .errors import LimitError
from .outcome import (
    DEFAULT_MAX_MEMORY,
    Cancelled,
    Canceller,
    ProgressCallback,
    Status,
    check_limits,
    check_spill,
    core_progress,
    solution_json,
)
from .spider import SpiderDeal, SpiderSolution, solve_spider

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


def make_move(card_index: int, src: int, dst: int) -> Move:
    return Move(CARDS[card_index], src, FOUNDATION if dst < 0 else dst)


@overload
def solve(
    deal: Deal,
    *,
    max_states: int | None = None,
    max_seconds: float | None = None,
    max_cpu_seconds: float | None = None,
    max_memory: int = DEFAULT_MAX_MEMORY,
    short: bool = False,
    spill_dir: str | os.PathLike[str] | None = None,
    max_disk: int | None = None,
    progress: ProgressCallback | None = None,
    cancel: Canceller | None = None,
) -> Solution: ...


@overload
def solve(
    deal: SpiderDeal,
    *,
    max_states: int | None = None,
    max_seconds: float | None = None,
    max_cpu_seconds: float | None = None,
    max_memory: int = DEFAULT_MAX_MEMORY,
    short: bool = False,
    spill_dir: None = None,
    max_disk: None = None,
    progress: ProgressCallback | None = None,
    cancel: Canceller | None = None,
) -> SpiderSolution: ...


def solve(
    deal: Deal | SpiderDeal,
    *,
    max_states: int | None = None,
    max_seconds: float | None = None,
    max_cpu_seconds: float | None = None,
    max_memory: int = DEFAULT_MAX_MEMORY,
    short: bool = False,
    spill_dir: str | os.PathLike[str] | None = None,
    max_disk: int | None = None,
    progress: ProgressCallback | None = None,
    cancel: Canceller | None = None,
) -> Solution | SpiderSolution:
    """Decide whether ``deal`` can be won, and how.

    A complete depth-first search, after two passes that only look for a win (see
    docs/guide/solver.md), which goes on layer by layer when its table fills the memory bound:
    ``"unsolvable"`` is a proof. Limits end the search with ``"unknown"``: ``max_states``
    positions expanded, ``max_seconds`` of search on the wall clock, ``max_cpu_seconds`` of
    the solving thread's CPU time (the same search however busy the machine is: for a
    survey niced beside other work), ``max_memory`` bytes held by the search: its tables,
    stacks, move lists and beam layers, counted as they are allocated, so that the process
    holds at most what it held before plus the bound and a little (docs/memory.md). A win
    whose shortening would not fit in the bound is returned as found. The search runs
    without the GIL; Ctrl+C raises ``KeyboardInterrupt`` promptly.

    With ``spill_dir`` (an existing directory), the layers put what does not fit in
    ``max_memory`` in files there (a directory of their own, removed when the search ends),
    at most ``max_disk`` bytes of them, and never so many that the disk would have less than
    256 MiB free: past that, ``"unknown"`` with ``limit`` ``"disk"``. There the layers also go
    on from where the full table stopped, its positions kept on disk and not expanded again;
    without a spill directory they start again from the deal (so a proof's ``states`` is
    smaller with one). Where the layers' keys lie changes nothing else: the same positions,
    in the same order.

    ``progress``, if given, is called about once a second with a :class:`castle.Progress`
    (states so far, seconds, bytes held); an exception it raises stops the search and is
    raised. ``cancel`` (a :class:`threading.Event`, set from another thread: a server whose
    client went away) stops the search within about 50 ms of being set: the answer is then
    ``"unknown"`` with ``limit`` ``"cancelled"``.

    With ``short``, a win found is followed by beam searches of growing width (100, 1,000,
    10,000) for a shorter one, while the limits allow; the shortest win is returned (the
    verdict is the same either way; ``states`` counts the beams' expansions too). About a
    second more per won Beleaguered Castle deal, for moves about a third fewer.

    A :class:`castle.SpiderDeal` is solved by the Spider solver and gives a
    :class:`castle.SpiderSolution` (``short`` is not offered for Spider yet).
    """
    if isinstance(deal, SpiderDeal):
        if short:
            raise LimitError("short is not offered for Spider yet")
        if spill_dir is not None or max_disk is not None:
            raise LimitError("spill_dir and max_disk are not offered for Spider yet")
        return solve_spider(
            deal,
            max_states=max_states,
            max_seconds=max_seconds,
            max_cpu_seconds=max_cpu_seconds,
            max_memory=max_memory,
            progress=progress,
            cancel=cancel,
        )
    if not isinstance(deal, Deal):
        raise TypeError(f"solve() takes a castle.Deal or SpiderDeal, not {type(deal).__name__}")
    check_limits(max_states, max_seconds, max_memory, max_cpu_seconds)
    spill = check_spill(spill_dir, max_disk)
    hook, every = core_progress(progress, cancel)
    try:
        status, moves, states, seconds, limit = _core.solve(
            deal.core,
            max_states,
            None if max_seconds is None else float(max_seconds),
            max_memory,
            max_cpu_seconds=None if max_cpu_seconds is None else float(max_cpu_seconds),
            short=bool(short),
            spill_dir=spill,
            max_disk=max_disk,
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
