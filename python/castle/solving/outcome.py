"""What a solver's answer is made of, for every game: the statuses, the limits a search runs
under (and what makes a limit nonsense), and an answer as JSON. ``castle.solve`` and
``castle.solving.spider`` both speak it; it imports neither."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, NamedTuple, Protocol

from ..cards import shown
from ..errors import LimitError

Status = Literal["solved", "unsolvable", "unknown"]

#: Default bound on what a solve holds (bytes): its tables, stacks and beam layers.
DEFAULT_MAX_MEMORY = 4 * 2**30
#: The largest limits accepted: anything above is a typo (a year of search, 2**62 states, 1 TiB).
MAX_SECONDS_LIMIT = 365 * 24 * 3600
MAX_STATES_LIMIT = 2**62
MAX_MEMORY_LIMIT = 2**40
MAX_DISK_LIMIT = 2**50


class Progress(NamedTuple):
    """How a search is going, as ``solve(..., progress=)`` reports it about once a second."""

    #: Positions expanded so far (within a thousand).
    states: int
    seconds: float
    #: Bytes the search holds now, as ``max_memory`` counts them.
    memory: int
    #: Bytes its files in the spill directory hold now.
    disk: int


#: What ``solve(..., progress=)`` calls; an exception it raises stops the search and is raised.
ProgressCallback = Callable[[Progress], object]


#: How often a search that may be cancelled looks at its :class:`threading.Event`.
CANCEL_SECONDS = 0.05


class Cancelled(Exception):
    """A search stopped because its ``cancel`` event was set (caught by the solve that ran it,
    whose answer is then ``"unknown"`` with ``limit`` ``"cancelled"``)."""


class Canceller(Protocol):
    """What ``solve(..., cancel=)`` takes: a :class:`threading.Event`, or anything with its
    ``is_set``."""

    def is_set(self) -> bool: ...


def core_progress(
    progress: ProgressCallback | None, cancel: Canceller | None = None
) -> tuple[Callable[[int, float, int, int], object] | None, float]:
    """``progress`` as the native module calls it (with the four numbers), and how often:
    about once a second, or every :data:`CANCEL_SECONDS` with ``cancel`` (then
    :class:`Cancelled` stops the search once it is set, and ``progress`` is still called
    about once a second)."""
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable, not {type(progress).__name__}")
    if cancel is None:
        if progress is None:
            return None, 1.0
        return lambda states, seconds, memory, disk: progress(
            Progress(states, seconds, memory, disk)
        ), 1.0
    told = [0.0]

    def check(states: int, seconds: float, memory: int, disk: int) -> None:
        if cancel.is_set():
            raise Cancelled
        if progress is not None and seconds - told[0] >= 1.0:
            told[0] = seconds
            progress(Progress(states, seconds, memory, disk))

    return check, CANCEL_SECONDS


class _Answer(Protocol):
    @property
    def status(self) -> Status: ...
    @property
    def states(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def limit(self) -> str | None: ...


class _Dealt(Protocol):
    @property
    def variant(self) -> str: ...
    @property
    def number(self) -> int | None: ...


def solution_json(
    answer: _Answer, moves: list[dict[str, Any]], deal: _Dealt | None = None
) -> dict[str, Any]:
    """A solver's answer as JSON-ready data, the same shape for every game."""
    out: dict[str, Any] = {}
    if deal is not None:
        out["variant"] = deal.variant
        out["deal"] = deal.number
    out.update(status=answer.status, moves=moves, states=answer.states)
    out["seconds"] = round(answer.seconds, 6)
    if answer.limit is not None:
        out["limit"] = answer.limit
    return out


def check_limits(
    max_states: int | None,
    max_seconds: float | None,
    max_memory: int | None = None,
    max_cpu_seconds: float | None = None,
) -> None:
    """Raise :class:`LimitError` for limits that make no sense."""
    for name, value in (
        ("max_states", max_states),
        ("max_seconds", max_seconds),
        ("max_cpu_seconds", max_cpu_seconds),
        ("max_memory", max_memory),
    ):
        if value is None:  # no limit: the most common, checked first
            continue
        problem = limit_problem(name, value)
        if problem is not None:
            raise LimitError(f"{name} {problem}")


def limit_problem(name: str, value: object) -> str | None:
    """What is wrong with ``value`` as the limit ``name`` (``max_states``, ``max_seconds``,
    ``max_cpu_seconds``, ``max_memory`` or ``max_disk``; ``None``: no limit, which is fine),
    worded to follow the limit's name ("must be ..."); ``None`` if nothing is. The command
    line puts its flags before it."""
    if value is None:
        return None
    if name == "max_states":
        if isinstance(value, bool) or not isinstance(value, int):
            ok = False
        else:
            ok = 1 <= value <= MAX_STATES_LIMIT
        return None if ok else f"must be a whole number from 1 to 2**62, not {shown(value)}"
    if name in ("max_seconds", "max_cpu_seconds"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            ok = False
        else:
            # Compared before isfinite, which cannot take an int too large for a float.
            ok = 0 < value <= MAX_SECONDS_LIMIT and math.isfinite(value)
        return None if ok else f"must be a positive number up to a year, not {shown(value)}"
    if name in _BYTES_LIMITS:
        most, words = _BYTES_LIMITS[name]
        if isinstance(value, bool) or not isinstance(value, int):
            ok = False
        else:
            ok = 2**20 <= value <= most
        return None if ok else f"must be between 1 MiB and {words} in bytes, not {shown(value)}"
    raise ValueError(f"no limit named {name!r}")


#: The limits in bytes: the most each may be, in words.
_BYTES_LIMITS = {"max_memory": (MAX_MEMORY_LIMIT, "1 TiB"), "max_disk": (MAX_DISK_LIMIT, "1 PiB")}


def check_spill(spill_dir: str | os.PathLike[str] | None, max_disk: int | None) -> Path | None:
    """``spill_dir`` as a path, or :class:`LimitError` if it is not a directory this process
    may write in, or if ``max_disk`` makes no sense (or comes without a directory)."""
    problem = limit_problem("max_disk", max_disk)
    if problem is not None:
        raise LimitError(f"max_disk {problem}")
    if spill_dir is None:
        if max_disk is not None:
            raise LimitError("max_disk needs a spill_dir to bound")
        return None
    if not isinstance(spill_dir, (str, os.PathLike)):
        raise LimitError(f"spill_dir must be a directory's path, not {shown(spill_dir)}")
    path = Path(spill_dir)
    if not path.is_dir():
        raise LimitError(f"spill_dir is not a directory: {shown(str(path))}")
    if not os.access(path, os.W_OK | os.X_OK):
        raise LimitError(f"spill_dir is not writable: {shown(str(path))}")
    return path


__all__ = [
    "CANCEL_SECONDS",
    "DEFAULT_MAX_MEMORY",
    "MAX_DISK_LIMIT",
    "MAX_MEMORY_LIMIT",
    "MAX_SECONDS_LIMIT",
    "MAX_STATES_LIMIT",
    "Cancelled",
    "Canceller",
    "Progress",
    "ProgressCallback",
    "Status",
    "check_limits",
    "check_spill",
    "core_progress",
    "limit_problem",
    "solution_json",
]
