"""Making a found win shorter after the search (``solver/shorten.rs``): a depth-first win
wanders."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from ..cards import Card
from ..deal import Deal
from ..solve import Move
from .moves import all_legal, apply, undo
from .state import State

#: A position with its columns in place (moves name columns by place).
Placed = tuple[tuple[tuple[Card, ...], ...], tuple[tuple[str, int], ...]]


def placed(state: State) -> Placed:
    return tuple(map(tuple, state.columns)), tuple(sorted(state.foundations.items()))


def shorten(deal: Deal, moves: Sequence[Move]) -> list[Move]:
    """The shortest line through the positions of a winning line: a breadth-first search over
    those positions, where any legal move from one of them to another is an edge. Loops and
    detours drop out; every move stays legal where it is played, and the line still wins."""
    state = State.from_deal(deal)
    positions = [placed(state)]
    index = {positions[0]: 0}
    for move in moves:
        apply(state, move)
        position = placed(state)
        index.setdefault(position, len(positions))
        positions.append(position)
    goal = index[positions[len(moves)]]

    # Breadth-first from the deal: positions in the order the queue meets them, moves in
    # `all_legal` order (as in Rust, so the result is the same).
    came_from: dict[int, tuple[int, Move]] = {}
    reached = {0}
    queue = deque([0])
    while queue:
        i = queue.popleft()
        if i == goal:
            break
        columns, foundations = positions[i]
        state = State([list(c) for c in columns], dict(foundations))
        legal: list[Move] = []
        all_legal(state, legal)
        for move in legal:
            apply(state, move)
            j = index.get(placed(state))
            if j is not None and j not in reached:
                reached.add(j)
                came_from[j] = (i, move)
                queue.append(j)
            undo(state, move)
    out = []
    at = goal
    while at in came_from:
        at, move = came_from[at]
        out.append(move)
    out.reverse()
    return out
