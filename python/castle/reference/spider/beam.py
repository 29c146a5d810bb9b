"""Spider beam searches (``spider/beam.rs``)."""

from __future__ import annotations

from collections.abc import Hashable

from ...spider import SpiderDeal
from ..budget import Budget, Counter, End
from .moves import SpiderMove, apply, generate, undo
from .state import SpiderState

BEAM_WIDTHS = (100, 1_000, 10_000)


def estimate(state: SpiderState) -> int:
    """How far ``state`` looks from a win, as ``spider/beam.rs`` counts it."""
    cost = 0
    for col in state.cols:
        cost += 6 * col.down
        up = col.face_up()
        for lower, upper in zip(up, up[1:]):
            if lower.rank != upper.rank + 1:
                cost += 3
            elif lower.suit != upper.suit:
                cost += 1
        if not col.cards:
            cost = max(0, cost - 2)
        cost += len(col.cards) // 2
    return cost + 3 * len(state.stock_left())


def beam_search(deal: SpiderDeal, width: int, budget: Budget, counter: Counter) -> End[SpiderMove]:
    root = SpiderState.from_deal(deal)
    if root.is_won():
        return End("won", [])
    seen: set[Hashable] = {root.key()}
    # Every node kept, as (parent index, move); the layer as (node index, state).
    nodes: list[tuple[int, SpiderMove]] = [(-1, SpiderMove("deal"))]
    layer: list[tuple[int, SpiderState]] = [(0, root)]
    moves: list[SpiderMove] = []
    while layer:
        candidates: list[tuple[int, int, SpiderMove]] = []
        for i, (node, state) in enumerate(layer):
            limit = budget.spend(counter)
            if limit is not None:
                return End("limit", [], limit)
            moves.clear()
            generate(state, True, moves)
            for m in moves:
                turned = apply(state, m)
                if state.is_won():
                    undo(state, m, turned)
                    path = [m]
                    at = node
                    while at != 0:
                        parent, mv = nodes[at]
                        path.append(mv)
                        at = parent
                    path.reverse()
                    return End("won", path)
                key = state.key()
                if key not in seen:
                    seen.add(key)
                    candidates.append((estimate(state), i, m))
                undo(state, m, turned)
        candidates.sort(key=lambda c: c[0])
        next_layer = []
        for _, i, m in candidates[:width]:
            state = layer[i][1].copy()
            apply(state, m)
            nodes.append((layer[i][0], m))
            next_layer.append((len(nodes) - 1, state))
        layer = next_layer
    return End("exhausted", [])
