"""One solve's limits and options as one object: what ``castle.solve`` takes as keywords,
checked once, and what every family's solver is handed (:class:`SolveSettings`)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from .outcome import DEFAULT_MAX_MEMORY, Canceller, ProgressCallback, check_limits


@dataclass(frozen=True)
class SolveSettings:
    """The limits a search runs under and what it is asked besides the verdict (docs in
    ``castle.solve``). Made, its limits have been checked: nonsense raises
    :class:`castle.LimitError` here, before any solver runs. The spill directory is checked
    by the solver that takes one (a family that offers none is refused by ``castle.solve``)."""

    max_states: int | None = None
    max_seconds: float | None = None
    max_cpu_seconds: float | None = None
    max_memory: int = DEFAULT_MAX_MEMORY
    short: bool = False
    spill_dir: str | os.PathLike[str] | None = None
    max_disk: int | None = None
    progress: ProgressCallback | None = None
    cancel: Canceller | None = None

    def __post_init__(self) -> None:
        check_limits(self.max_states, self.max_seconds, self.max_memory, self.max_cpu_seconds)

    @property
    def core_seconds(self) -> float | None:
        """``max_seconds`` as the core takes it."""
        return None if self.max_seconds is None else float(self.max_seconds)

    @property
    def core_cpu_seconds(self) -> float | None:
        """``max_cpu_seconds`` as the core takes it."""
        return None if self.max_cpu_seconds is None else float(self.max_cpu_seconds)


__all__ = ["SolveSettings"]
