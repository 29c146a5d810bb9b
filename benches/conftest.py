"""Prints states per second for each solver and their ratio after the benchmarks."""

from __future__ import annotations

import pytest

#: Per solver: (expanded states per round, mean seconds per round).
RATES = pytest.StashKey[dict[str, tuple[int, float]]]()


@pytest.fixture
def rates(request: pytest.FixtureRequest) -> dict[str, tuple[int, float]]:
    return request.config.stash.setdefault(RATES, {})


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    results = config.stash.get(RATES, {})
    if not results:
        return
    write = terminalreporter.write_line
    write("")
    write("states per second (the same expanded states for each solver):")
    for name, (states, mean) in results.items():
        write(f"  {name:<10} {states / mean:>14,.0f}")
    if {"rust", "reference"} <= results.keys():
        write(f"  rust / reference: {results['reference'][1] / results['rust'][1]:,.0f}x")
