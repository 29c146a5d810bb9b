"""The one end-of-search step both games' searches take: from how the search ended to the
answer (a :class:`castle.Solution` or a :class:`castle.SpiderSolution`, the outcome generic in
its move type).

Translation of ``rust/src/solver/outcome.rs`` (``Outcome::from_end``, which
``rust/src/castle/search.rs`` and ``rust/src/spider/search.rs`` both end with).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Optional, TypeVar

from ...solving.outcome import Status
from .budget import Counter, End

#: The game's kind of move.
M = TypeVar("M")
#: The game's kind of answer.
A = TypeVar("A")

#: An answer's constructor: status, moves, states, seconds, limit.
Answer = Callable[[Status, tuple[M, ...], int, float, Optional[str]], A]


def finish(
    end: End[M],
    counter: Counter,
    started: float,
    answer: Answer[M, A],
    wins: Callable[[Sequence[M]], bool],
) -> A:
    """The answer ``end`` gives, a win as its (shortened) ``end.path``. Never a wrong answer: a
    win that ``wins`` does not replay to a win raises, as the Rust search panics."""
    if end.kind == "won":
        if not wins(end.path):
            raise AssertionError("a found win does not replay")
        moves = tuple(end.path)
        return answer("solved", moves, counter.expanded, time.perf_counter() - started, None)
    seconds = time.perf_counter() - started
    if end.kind == "exhausted":
        return answer("unsolvable", (), counter.expanded, seconds, None)
    assert end.stop is not None
    return answer("unknown", (), counter.expanded, seconds, end.stop.value)
