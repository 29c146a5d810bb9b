"""The statistics of batches and surveys: winnability with its Wilson interval, percentiles.

One place for both ``castle solve --deals`` and ``castle survey``, so that the two always
agree on what "winnable" and "p99" mean.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from typing import NamedTuple

#: The standard normal quantile for a two-sided 95% interval.
Z95 = 1.959963984540054


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


class Proportion(NamedTuple):
    """``successes`` of ``trials``: the fraction and its 95% Wilson interval."""

    successes: int
    trials: int
    point: float
    low: float
    high: float


def proportion(successes: int, trials: int) -> Proportion | None:
    """The fraction with its 95% Wilson interval; None when there are no trials."""
    if trials < 1:
        return None
    return Proportion(successes, trials, successes / trials, *wilson_interval(successes, trials))


def winnability(solved: int, unsolvable: int) -> Proportion | None:
    """Solved over decided deals (unknown ones left out); None if none was decided."""
    return proportion(solved, solved + unsolvable)


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q``-th percentile (``q`` in 0-100) of non-empty ``values``."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


class Distribution(NamedTuple):
    """Where the values of a batch lie: the median, nearest-rank p90 and p99, the maximum."""

    median: float
    p90: float
    p99: float
    max: float


def distribution(values: Iterable[float]) -> Distribution | None:
    """The :class:`Distribution` of ``values``; None when there are none."""
    ordered = sorted(values)  # once: percentile() of sorted values sorts in linear time
    if not ordered:
        return None
    return Distribution(
        median=statistics.median(ordered),
        p90=percentile(ordered, 90),
        p99=percentile(ordered, 99),
        max=ordered[-1],
    )


__all__ = [
    "Z95",
    "Distribution",
    "Proportion",
    "distribution",
    "percentile",
    "proportion",
    "wilson_interval",
    "winnability",
]
