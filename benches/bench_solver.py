"""The Rust solver against the pure-Python reference, on the same deals at the same budget.

    pytest benches/bench_solver.py -n 0     # in one process: xdist (addopts) turns benchmarks off

Each benchmark solves the same fixed deals with ``max_states`` = 2000; both expand exactly the
same states (tests/reference/castle/test_search.py holds them to it), so the ratio of their
times is the ratio of their speeds per expanded state. The summary at the end prints states per
second for each and the ratio.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import castle
import pytest
from castle import reference

MAX_STATES = 2000
DEALS = [
    castle.Deal.from_number(variant, number)
    for variant in castle.VARIANTS
    for number in (4, 5, 6, 7, 8, 9, 10)
]
#: Expanded states over all DEALS, the same for both solvers.
STATES = sum(castle.solve(deal, max_states=MAX_STATES).states for deal in DEALS)


def solve_all(solve: Callable[..., castle.Solution]) -> int:
    return sum(solve(deal, max_states=MAX_STATES).states for deal in DEALS)


@pytest.mark.parametrize(
    ("name", "solve"), [("rust", castle.solve), ("reference", reference.solve)]
)
def test_solve_fixed_deals(
    benchmark: Any,
    rates: dict[str, tuple[int, float]],
    name: str,
    solve: Callable[..., castle.Solution],
) -> None:
    rounds = 20 if name == "rust" else 2
    states = benchmark.pedantic(solve_all, args=(solve,), rounds=rounds, iterations=1)
    assert states == STATES
    mean = benchmark.stats.stats.mean
    rates[name] = (STATES, mean)
    benchmark.extra_info["states"] = STATES
    benchmark.extra_info["states_per_second"] = STATES / mean
