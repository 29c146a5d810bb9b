"""What a search may spend, and how it ended (``solver/budget.rs``): shared by the depth-first
search and the beam searches."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

#: How often (in expansions) the clock is read.
POLL_EVERY = 1024


#: The game's kind of move (a castle move, or a Spider one).
M = TypeVar("M")


@dataclass
class End(Generic[M]):
    """How a pass ended: ``"won"`` (with the winning ``path``), ``"exhausted"`` (every
    position expanded) or ``"limit"`` (``limit`` says which stopped it)."""

    kind: Literal["won", "exhausted", "limit"]
    path: list[M]
    limit: str | None = None


@dataclass
class Budget:
    """What a pass may spend; both count from the start of the solve."""

    max_states: int | None
    deadline: float | None

    def spend(self, counter: Counter) -> str | None:
        """Count one expansion, or say which limit forbids it."""
        if self.max_states is not None and counter.expanded >= self.max_states:
            return "states"
        counter.expanded += 1
        if (
            counter.expanded % POLL_EVERY == 0
            and self.deadline is not None
            and time.perf_counter() >= self.deadline
        ):
            return "seconds"
        return None


@dataclass
class Counter:
    expanded: int = 0
