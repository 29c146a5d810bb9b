"""The breadth-first walk both games' ``shorten`` make through the positions of a win.

Translation of ``rust/src/solver/walk.rs`` (``shortest_through``), which
``rust/src/castle/shorten.rs`` and ``rust/src/spider/shorten.rs`` both use.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TypeVar

#: A position's key, its columns in place (moves name columns by place).
K = TypeVar("K", bound=Hashable)
#: The game's kind of move.
M = TypeVar("M")


def walk(line: Sequence[K], moves_from: Callable[[int], Iterable[tuple[M, K]]]) -> list[M]:
    """The shortest line from ``line[0]`` to ``line[-1]`` through the positions of ``line`` (a
    winning line's keys, the deal's first): a breadth-first search over those positions, where
    any legal move from one of them to another is an edge. Each position is numbered by its
    first place in ``line``; ``moves_from(i)`` gives every legal move from position ``i``, in
    the game's order, with the key of the position it leads to. Positions are taken in the
    order the queue meets them, their moves in that order, so the line is the Rust one. Loops
    and detours drop out; every move stays legal where it is played."""
    index: dict[K, int] = {}
    for i, key in enumerate(line):
        index.setdefault(key, i)
    goal = index[line[-1]]
    came_from: dict[int, tuple[int, M]] = {}
    reached = {0}
    queue = deque([0])
    while queue:
        i = queue.popleft()
        if i == goal:
            break
        for move, key in moves_from(i):
            j = index.get(key)
            if j is not None and j not in reached:
                reached.add(j)
                came_from[j] = (i, move)
                queue.append(j)
    out: list[M] = []
    at = goal
    while at in came_from:
        at, move = came_from[at]
        out.append(move)
    out.reverse()
    return out
