"""Spider beam searches: breadth-first, keeping the ``width`` positions nearest a win (by
weights the portfolio varies) at each layer.

Translation of ``rust/src/spider/beam.rs``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable

from ...solving.spider import SpiderDeal, SpiderMove
from ..solver import Budget, Counter, End
from .estimate import Weights
from .moves import apply, generate, undo
from .state import SpiderState

BEAM_WIDTHS = (1_000, 3_000, 10_000)

#: A beam whose best position has not improved for this many layers gives up.
STALL_LAYERS = 50


def beam_search(
    deal: SpiderDeal, width: int, weights: Weights, budget: Budget, counter: Counter
) -> End[SpiderMove]:
    """A beam search of ``width`` ranked by ``weights``. The Rust beam works out a child's
    estimate and 64-bit key from its parent's columns and the cards the move moves, without
    making the move; this one makes each move and counts the whole position, and its table holds
    the keys themselves (a hash collision there would only drop a position)."""
    root = SpiderState.from_deal(deal)
    if root.is_won():
        return End("won", [])
    seen: set[Hashable] = {root.key()}
    # Every node kept, as (parent index, move; the root's is never read); the layer as (node
    # index, state).
    nodes: list[tuple[int, SpiderMove]] = [(-1, SpiderMove("deal", ()))]
    layer: list[tuple[int, SpiderState]] = [(0, root)]
    moves: list[SpiderMove] = []
    best, stalled = math.inf, 0
    while layer:
        candidates: list[tuple[int, Hashable, int, SpiderMove]] = []
        for i, (node, state) in enumerate(layer):
            stop = budget.spend(counter)
            if stop is not None:
                return End("limit", [], stop)
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
                    candidates.append((weights.estimate(state), key, i, m))
                undo(state, m, turned)
        candidates.sort(key=lambda c: c[0])
        if candidates:
            if candidates[0][0] < best:
                best, stalled = candidates[0][0], 0
            else:
                stalled += 1
                if stalled > STALL_LAYERS:
                    return End("exhausted", [])  # wandering on a plateau: as good as dry
        # The best ``width`` distinct positions; only kept positions enter the table.
        in_layer: set[Hashable] = set()
        next_layer: list[tuple[int, SpiderState]] = []
        for _, key, i, m in candidates:
            if len(next_layer) == width:
                break
            if key in in_layer:
                continue
            in_layer.add(key)
            seen.add(key)
            state = layer[i][1].copy()
            apply(state, m)
            nodes.append((layer[i][0], m))
            next_layer.append((len(nodes) - 1, state))
        layer = next_layer
    return End("exhausted", [])
