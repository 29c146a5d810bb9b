"""Making a found Spider win shorter (``spider/shorten.rs``)."""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable

from ...spider import SpiderDeal
from .moves import SpiderMove, apply, generate, undo
from .state import SpiderState

BFS_LIMIT = 50_000


def shorten(deal: SpiderDeal, moves: list[SpiderMove]) -> list[SpiderMove]:
    """Cut the loops, then (for lines of at most ``BFS_LIMIT`` moves) the shortest line
    through the positions left."""
    line = cut_loops(deal, moves)
    if len(line) > BFS_LIMIT:
        return line
    return shortest_through(deal, line)


def placed_key(state: SpiderState) -> Hashable:
    """The position with every column in its place."""
    columns = tuple((tuple(c.cards[: c.down]), tuple(c.cards[c.down :])) for c in state.cols)
    return (columns, state.dealt)


def cut_loops(deal: SpiderDeal, moves: list[SpiderMove]) -> list[SpiderMove]:
    state = SpiderState.from_deal(deal)
    keys = [placed_key(state)]
    seen = {keys[0]: 0}
    out: list[SpiderMove] = []
    for m in moves:
        apply(state, m)
        key = placed_key(state)
        at = seen.get(key)
        if at is not None:
            for dropped in keys[at + 1 :]:
                del seen[dropped]
            del keys[at + 1 :]
            del out[at:]
        else:
            out.append(m)
            seen[key] = len(keys)
            keys.append(key)
    return out


def shortest_through(deal: SpiderDeal, moves: list[SpiderMove]) -> list[SpiderMove]:
    state = SpiderState.from_deal(deal)
    states = [state.copy()]
    for m in moves:
        apply(state, m)
        states.append(state.copy())
    index = {placed_key(s): i for i, s in enumerate(states)}
    goal = len(moves)
    came_from: list[tuple[int, SpiderMove] | None] = [None] * len(states)
    reached = [False] * len(states)
    reached[0] = True
    queue = deque([0])
    while queue:
        i = queue.popleft()
        if i == goal:
            break
        here = states[i].copy()
        legal: list[SpiderMove] = []
        generate(here, False, legal)
        for m in legal:
            turned = apply(here, m)
            j = index.get(placed_key(here))
            if j is not None and not reached[j]:
                reached[j] = True
                came_from[j] = (i, m)
                queue.append(j)
            undo(here, m, turned)
    out = []
    at = goal
    while (step := came_from[at]) is not None:
        before, m = step
        out.append(m)
        at = before
    out.reverse()
    return out
