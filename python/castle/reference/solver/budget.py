"""What a search may spend, why it stopped, and how it ended: shared by both games' depth-first
searches and beam searches.

Translation of ``rust/src/solver/budget.rs``, with ``Stop`` (why a search stopped), which the
crate keeps in ``rust/src/solver/outcome.rs``: here it stays with the budget that spends it, so
that the outcome imports the budget and not both ways.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import Enum
from typing import Generic, Literal, TypeVar

#: How often (in expansions) the clock is read.
POLL_EVERY = 1024


class Stop(Enum):
    """Which limit stopped a search; the value is the answer's ``limit``. The reference has no
    memory bound and no Ctrl+C, so it only ever stops at ``STATES``, ``SECONDS`` or
    ``CPU_SECONDS``; the other two are here because the searches, as in Rust, decide by them
    what to do next."""

    STATES = "states"
    SECONDS = "seconds"
    CPU_SECONDS = "cpu-seconds"
    MEMORY = "memory"
    INTERRUPTED = "interrupted"


#: The game's kind of move (a castle move, or a Spider one).
M = TypeVar("M")


@dataclass
class End(Generic[M]):
    """How a pass ended: ``"won"`` (with the winning ``path``), ``"exhausted"`` (every
    position expanded) or ``"limit"`` (``stop`` says which limit stopped it)."""

    kind: Literal["won", "exhausted", "limit"]
    path: list[M]
    stop: Stop | None = None


@dataclass(frozen=True)
class Start:
    """When a solve began, by both clocks: the wall clock and this thread's CPU time."""

    wall: float
    cpu: float

    @staticmethod
    def now() -> Start:
        return Start(time.perf_counter(), time.thread_time())


@dataclass(frozen=True)
class Deadline:
    """When a pass must stop: a time on the wall clock, a CPU time of the solving thread, or
    both (``None``: no such limit)."""

    wall: float | None = None
    cpu: float | None = None

    @staticmethod
    def after(
        max_seconds: float | None, max_cpu_seconds: float | None, start: Start, fraction: float
    ) -> Deadline:
        """``fraction`` of each limit's time, counted from ``start``."""
        return Deadline(
            None if max_seconds is None else start.wall + max_seconds * fraction,
            None if max_cpu_seconds is None else start.cpu + max_cpu_seconds * fraction,
        )


@dataclass
class Budget:
    """What a pass may spend; both count from the start of the solve."""

    max_states: int | None
    deadline: Deadline

    def spend(self, counter: Counter) -> Stop | None:
        """Count one expansion, or say which limit forbids it."""
        if self.max_states is not None and counter.expanded >= self.max_states:
            return Stop.STATES
        counter.expanded += 1
        if counter.expanded % POLL_EVERY == 0:
            if self.deadline.wall is not None and time.perf_counter() >= self.deadline.wall:
                return Stop.SECONDS
            if self.deadline.cpu is not None and time.thread_time() >= self.deadline.cpu:
                return Stop.CPU_SECONDS
        return None


@dataclass
class Counter:
    """The expansions of the whole solve, over all its passes."""

    expanded: int = 0
