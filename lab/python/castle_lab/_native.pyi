"""The lab's native module (Rust, ``lab/src/python.rs``)."""

import os

from castle._core import Deal

__all__ = ["beam", "complete_pass", "solve"]

def solve(
    deal: Deal,
    max_states: int | None,
    max_memory: int,
    *,
    layers_after: int | None = None,
    orbits_after: int | None = None,
) -> tuple[str, list[tuple[int, int, int]], int, float, str | None]:
    """The whole solve, as ``castle._core.solve``'s: (status, moves, states, seconds, limit).
    Its complete pass goes on in layers once its table holds ``layers_after`` positions (else
    when it is full) and first makes its tries at ``orbits_after`` (else at its constant)."""

def complete_pass(
    deal: Deal,
    max_states: int | None,
    layers_after: int | None,
    max_memory: int | None = None,
    spill_dir: str | os.PathLike[str] | None = None,
    orbits_after: int | None = None,
) -> tuple[str, list[tuple[int, int, int]], int, str | None]:
    """The complete pass alone, from the deal, going on in layers once its table holds
    ``layers_after`` positions or ``max_memory`` bytes (spilling to ``spill_dir`` if given),
    its tries first made at ``orbits_after`` positions: (status, moves, states, limit)."""

def beam(
    deal: Deal, width: int, max_states: int, max_memory: int
) -> tuple[str, list[tuple[int, int, int]], int, str | None]:
    """One beam search of ``width`` positions a depth from the deal, within ``max_states``
    expansions and ``max_memory`` bytes: (status, moves, states, limit), the status "solved"
    or "unknown" (its limit, or "dry": the beam ran out of positions)."""
