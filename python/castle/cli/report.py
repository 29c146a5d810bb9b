"""What a batch found: per-deal records, winnability with its interval, times, the summary."""

from __future__ import annotations

import math
import statistics
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from rich.console import Console
from rich.text import Text

from ..variants import NAMES
from .output import format_percent, format_seconds, status_text

#: The standard normal quantile for a two-sided 95% interval.
Z95 = 1.959963984540054
STATUSES = ("solved", "unsolvable", "unknown")


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


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default)."""
    if trials < 1 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials >= 1, not {successes}/{trials}")
    p = successes / trials
    z2 = z * z
    scale = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / scale
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / scale
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q``-th percentile (``q`` in 0-100) of non-empty ``values``."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass
class BatchSummary:
    """Tallies of a batch, finished or interrupted, kept small enough for millions of deals."""

    variant: str
    label: str
    planned: int
    jobs: int
    limits: str = ""
    counts: Counter[str] = field(default_factory=Counter)
    unknown_limits: Counter[str] = field(default_factory=Counter)
    seconds: array[float] = field(default_factory=lambda: array("d"))
    wall_seconds: float = 0.0
    interrupted: bool = False
    failure: str | None = None

    def add(self, result: DealResult) -> None:
        self.counts[result.status] += 1
        if result.status == "unknown":
            self.unknown_limits[result.limit or "?"] += 1
        self.seconds.append(result.seconds)

    @property
    def finished(self) -> int:
        return len(self.seconds)

    @property
    def decided(self) -> int:
        return self.counts["solved"] + self.counts["unsolvable"]

    def winnability(self) -> tuple[float, float, float] | None:
        """Solved over decided deals, with its 95% Wilson interval; None if none decided."""
        if not self.decided:
            return None
        solved = self.counts["solved"]
        return (solved / self.decided, *wilson_interval(solved, self.decided))

    def lines(self) -> list[Text]:
        """The summary, a line per fact."""
        n = self.finished
        name = NAMES.get(self.variant, self.variant)
        rate = n / self.wall_seconds if self.wall_seconds > 0 else 0.0
        done = f"{n:,} deals"
        if self.interrupted:
            done = f"interrupted after {n:,} of {self.planned:,} deals"
        elif self.failure:
            done = f"stopped after {n:,} of {self.planned:,} deals"
        jobs = "1 job" if self.jobs == 1 else f"{self.jobs} jobs"
        header = Text.assemble(
            (f"{name} deals {self.label}", "bold"),
            ": ",
            (done, "bold yellow" if n < self.planned else ""),
            f" in {format_seconds(self.wall_seconds)}, {jobs} ({rate:,.1f} deals/s)",
        )
        out = [header]
        if self.limits:
            out.append(Text(f"  limits per deal: {self.limits}", style="dim"))
        if not n:
            out.append(Text("  no deal finished"))
            return out
        counts = self.counts
        width = len(f"{n:,}")
        for status in STATUSES:
            line = Text("  ")
            line.append_text(status_text(status))
            line.append(
                " " * (11 - len(status))
                + f"{counts[status]:>{width},}  {format_percent(counts[status] / n):>6}"
            )
            if status == "unknown" and counts[status]:
                limits = self.unknown_limits.most_common()
                line.append(
                    "  (" + ", ".join(f"{k} limit: {v:,}" for k, v in limits) + ")",
                    style="dim",
                )
            out.append(line)
        out.extend(self._winnability_lines())
        times = self.seconds
        out.append(
            Text(
                f"time per deal: median {format_seconds(statistics.median(times))}, "
                f"p99 {format_seconds(percentile(times, 99))}, max {format_seconds(max(times))}"
            )
        )
        return out

    def _winnability_lines(self) -> list[Text]:
        won = self.winnability()
        if won is None:
            return [Text("winnable: no deal decided yet (all unknown)")]
        point, low, high = won
        counts = self.counts
        out = [
            Text.assemble(
                "winnable: ",
                (format_percent(point), "bold"),
                f" of the {self.decided:,} decided deals (solved / (solved + unsolvable)); "
                f"95% Wilson interval {format_percent(low)} to {format_percent(high)}",
            )
        ]
        unknown = counts["unknown"]
        if unknown:
            n = self.finished
            lose = counts["solved"]
            win = lose + unknown
            lose_low, lose_high = wilson_interval(lose, n)
            win_low, win_high = wilson_interval(win, n)
            out.append(
                Text(
                    f"  of all {n:,} deals, counting the {unknown:,} unknown as lost: "
                    f"{format_percent(lose / n)} ({format_percent(lose_low)} to "
                    f"{format_percent(lose_high)}); as won: {format_percent(win / n)} "
                    f"({format_percent(win_low)} to {format_percent(win_high)})",
                    style="dim",
                )
            )
        return out

    def print(self, console: Console) -> None:
        for line in self.lines():
            console.print(line)
