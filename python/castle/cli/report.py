"""What a batch found: per-deal records, verdict tallies with winnability and times, the summary.

The numbers come from :mod:`castle.surveys.stats`; this module only counts and words them.
"""

from __future__ import annotations

import signal
from array import array
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

from rich.console import Console
from rich.text import Text

from ..surveys.stats import distribution, proportion, winnability
from ..variants import NAMES
from .output import format_percent, format_seconds, status_text

STATUSES = ("solved", "unsolvable", "unknown")

#: What stopped an unknown, for the summaries: "2 hit the time limit".
LIMIT_WORDS = {
    "seconds": "hit the time limit",
    "cpu-seconds": "hit the CPU time limit",
    "states": "hit the states limit",
    "memory": "hit the memory limit",
    "disk": "hit the disk limit",
    "interrupted": "were interrupted",
}


def unknown_causes(limits: Counter[str]) -> str:
    """``2 hit the time limit, 1 hit the states limit``: the unknowns by what stopped them,
    most first (``?``: a row that recorded none)."""
    return ", ".join(
        f"{n:,} {LIMIT_WORDS.get(limit, 'had no limit recorded' if limit == '?' else limit)}"
        for limit, n in limits.most_common()
    )


class DealResult(NamedTuple):
    """One deal of a batch, as a worker reports it (``json`` only when asked for)."""

    position: int
    number: int
    status: str
    states: int
    seconds: float
    moves: int
    limit: str | None
    json: str | None = None


@dataclass
class VerdictTally:
    """Verdicts, states and times of a set of deals (a batch, or a survey's whole store): what
    the summaries count and word.

    Kept small enough for millions of deals: counters and two arrays of numbers.
    """

    counts: Counter[str] = field(default_factory=Counter)
    unknown_limits: Counter[str] = field(default_factory=Counter)
    seconds: array[float] = field(default_factory=lambda: array("d"))
    states: array[int] = field(default_factory=lambda: array("q"))

    def add(self, status: str, limit: str | None, seconds: float, states: int) -> None:
        self.counts[status] += 1
        if status == "unknown":
            self.unknown_limits[limit or "?"] += 1
        self.seconds.append(seconds)
        self.states.append(states)

    @property
    def finished(self) -> int:
        return len(self.seconds)

    @property
    def decided(self) -> int:
        return self.counts["solved"] + self.counts["unsolvable"]

    def lines(self, *, p90: bool = False) -> list[Text]:
        """A line per verdict, winnability with its interval, the time per deal (with its
        90th percentile if ``p90``); ``[]`` when there are no deals."""
        n = self.finished
        if not n:
            return []
        counts = self.counts
        width = len(f"{n:,}")
        out = []
        for status in STATUSES:
            line = Text("  ")
            line.append_text(status_text(status))
            line.append(
                " " * (11 - len(status))
                + f"{counts[status]:>{width},}  {format_percent(counts[status] / n):>6}"
            )
            if status == "unknown" and counts[status]:
                line.append(f"  ({unknown_causes(self.unknown_limits)})", style="dim")
            out.append(line)
        out.extend(self._winnability_lines())
        times = distribution(self.seconds)
        assert times is not None
        spread = f"median {format_seconds(times.median)}, "
        if p90:
            spread += f"p90 {format_seconds(times.p90)}, "
        spread += f"p99 {format_seconds(times.p99)}, max {format_seconds(times.max)}"
        out.append(Text(f"time per deal: {spread}"))
        return out

    def _winnability_lines(self) -> list[Text]:
        counts = self.counts
        won = winnability(counts["solved"], counts["unsolvable"])
        if won is None:
            return [Text("winnable: no deal decided yet (all unknown)")]
        out = [
            Text.assemble(
                "winnable: ",
                (format_percent(won.point), "bold"),
                f" of the {won.trials:,} decided deals (solved / (solved + unsolvable)); "
                f"95% Wilson interval {format_percent(won.low)} to {format_percent(won.high)}",
            )
        ]
        unknown = counts["unknown"]
        if unknown:
            n = self.finished
            lose = proportion(counts["solved"], n)
            win = proportion(counts["solved"] + unknown, n)
            assert lose is not None and win is not None
            out.append(
                Text(
                    f"  of all {n:,} deals, counting the {unknown:,} unknown as lost: "
                    f"{format_percent(lose.point)} ({format_percent(lose.low)} to "
                    f"{format_percent(lose.high)}); as won: {format_percent(win.point)} "
                    f"({format_percent(win.low)} to {format_percent(win.high)})",
                    style="dim",
                )
            )
        return out


@dataclass
class BatchSummary:
    """A batch, finished or interrupted: what was asked, how it went, and its
    :class:`VerdictTally`."""

    variant: str
    label: str
    planned: int
    jobs: int
    limits: str = ""
    tally: VerdictTally = field(default_factory=VerdictTally)
    wall_seconds: float = 0.0
    interrupted: bool = False
    #: The signal that interrupted the batch (SIGINT for Ctrl+C).
    stop_signal: int = signal.SIGINT
    failure: str | None = None
    #: Where the deals were solved when not in local processes (``Dask tcp://...``).
    engine: str | None = None

    def add(self, result: DealResult) -> None:
        self.tally.add(result.status, result.limit, result.seconds, result.states)

    @property
    def finished(self) -> int:
        return self.tally.finished

    def progress_text(self) -> str:
        """``200 deals``, or ``interrupted after 50 of 200 deals`` for a batch cut short."""
        n = self.finished
        if self.interrupted:
            return f"interrupted after {n:,} of {self.planned:,} deals"
        if self.failure:
            return f"stopped after {n:,} of {self.planned:,} deals"
        return f"{n:,} deals"

    def speed_text(self) -> str:
        """`` in 1.53 s, 2 jobs (131.1 deals/s)``."""
        rate = self.finished / self.wall_seconds if self.wall_seconds > 0 else 0.0
        jobs = "1 job" if self.jobs == 1 else f"{self.jobs} jobs"
        if self.engine:
            threads = "1 thread" if self.jobs == 1 else f"{self.jobs} threads"
            jobs = f"{self.engine}, {threads}"
        return f" in {format_seconds(self.wall_seconds)}, {jobs} ({rate:,.1f} deals/s)"

    def lines(self) -> list[Text]:
        """The summary, a line per fact."""
        name = NAMES.get(self.variant, self.variant)
        header = Text.assemble(
            (f"{name} deals {self.label}", "bold"),
            ": ",
            (self.progress_text(), "bold yellow" if self.finished < self.planned else ""),
            self.speed_text(),
        )
        out = [header]
        if self.limits:
            out.append(Text(f"  limits per deal: {self.limits}", style="dim"))
        if not self.finished:
            out.append(Text("  no deal finished"))
            return out
        out.extend(self.tally.lines())
        return out

    def print(self, console: Console) -> None:
        for line in self.lines():
            console.print(line)
