"""``castle.solve``: the Rust solver, with its answer as typed Python values. The deal's family
(:mod:`castle.family`) makes the solver call; the castle games' answer is defined in
:mod:`castle.solving.solution` and named here as well."""

from __future__ import annotations

import os
from typing import overload

from ..errors import LimitError
from ..family import family_of_deal
from .cells import CellsDeal, CellsSolution
from .deal import Deal
from .outcome import DEFAULT_MAX_MEMORY, Canceller, ProgressCallback
from .settings import SolveSettings
from .solution import FOUNDATION, Move, Solution, Target, make_move
from .spider import SpiderDeal, SpiderSolution


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


@overload
def solve(
    deal: CellsDeal,
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
) -> CellsSolution: ...


def solve(
    deal: Deal | SpiderDeal | CellsDeal,
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
) -> Solution | SpiderSolution | CellsSolution:
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
    :class:`castle.SpiderSolution` (``short`` is not offered for Spider yet). A
    :class:`castle.CellsDeal` is solved by the free-cell solver (depth-first searches taking
    turns over one table, complete; ``spill_dir`` is not offered for it) and gives a
    :class:`castle.CellsSolution`, its win replayed by the core before it is returned.
    """
    family = family_of_deal(deal)
    if family is None:
        kind = type(deal).__name__
        raise TypeError(f"solve() takes a castle.Deal, SpiderDeal or CellsDeal, not {kind}")
    # What a family's solver does not offer is refused here, once, by what the family says.
    if short and not family.offers_short:
        raise LimitError(f"short is not offered for {family.title} yet")
    if (spill_dir is not None or max_disk is not None) and not family.offers_spill:
        raise LimitError(f"spill_dir and max_disk are not offered for {family.title} yet")
    settings = SolveSettings(
        max_states=max_states,
        max_seconds=max_seconds,
        max_cpu_seconds=max_cpu_seconds,
        max_memory=max_memory,
        short=short,
        spill_dir=spill_dir,
        max_disk=max_disk,
        progress=progress,
        cancel=cancel,
    )
    return family.solve(deal, settings)


__all__ = ["FOUNDATION", "Move", "Solution", "Target", "make_move", "solve"]
