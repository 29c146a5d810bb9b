"""Making a found Spider win shorter: cut the loops, then the shortest line through the
positions left, the breadth-first walk both games share (:func:`castle.reference.solver.walk`).

Translation of ``rust/src/spider/shorten.rs``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

from ...solving.spider import SpiderDeal, SpiderMove
from ..solver import walk
from .moves import apply, generate, undo
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
    """The shortest line through the positions of ``moves`` (a line without loops, so each
    position is met once), any legal move from one to another counting."""
    state = SpiderState.from_deal(deal)
    states = [state.copy()]
    for m in moves:
        apply(state, m)
        states.append(state.copy())

    def moves_from(i: int) -> Iterator[tuple[SpiderMove, Hashable]]:
        here = states[i].copy()
        legal: list[SpiderMove] = []
        generate(here, False, legal)
        for m in legal:
            turned = apply(here, m)
            yield m, placed_key(here)
            undo(here, m, turned)

    return walk([placed_key(s) for s in states], moves_from)
