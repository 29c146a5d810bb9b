"""The layered pass: the complete pass goes on here when the depth-first table is full.

A position's layer (``Compact.layer``) never falls, and every move that keeps it can be taken
back by one move with no automatic move after it; so within a layer the positions form an
undirected graph, and a breadth-first search from all the layer's seeds at once finds each
position at its distance from them. The next level is what the current one leads to, less the
current level and the one before; positions of later layers wait as seeds for their layer's
turn. A level is expanded in the order of its keys (as ints).

Translation of ``rust/src/castle/layers.rs``. Its levels and seeds are sorted runs of keys,
sorted and deduplicated as they grow, and it works out a child's layer from the cards moved;
here they are sets, and the layer is counted afresh: the same positions in the same order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from ...solving.deal import Deal
from ...solving.solve import Move
from ..solver import Budget, Counter, Stop
from .compact import Compact, CompactKey, child_key
from .moves import generate, play, play_automatic, unwind
from .state import State

#: More than any layer: 52 cards, each counted at most twice.
LAYERS = 105


@dataclass
class Layered:
    """How the layered pass ended: ``"won"`` (``key``: a position one move and its automatic
    moves from a win), ``"exhausted"`` (no win) or ``"limit"`` (``stop``)."""

    kind: Literal["won", "exhausted", "limit"]
    key: CompactKey = 0
    stop: Stop | None = None


def by_layer(compact: Compact, keys: Iterable[CompactKey]) -> list[set[CompactKey]]:
    """``keys`` in sets by layer."""
    layers: list[set[CompactKey]] = [set() for _ in range(LAYERS)]
    for key in keys:
        layers[compact.layer(key)].add(key)
    return layers


def layered(
    deal: Deal,
    budget: Budget,
    counter: Counter,
    seeds: list[set[CompactKey]] | None = None,
    visited: list[set[CompactKey]] | None = None,
) -> Layered:
    """Search every position reachable from ``deal``, layer by layer, each once: from the deal,
    or from ``seeds`` with the positions of ``visited`` expanded already (both by layer)."""
    compact = Compact(deal)
    if seeds is None:
        state = State.from_deal(deal)
        line: list[Move] = []
        play_automatic(state, line)
        if state.is_won():
            return Layered("won", compact.encode(state))
        seeds = by_layer(compact, [compact.encode(state)])
    if visited is None:
        visited = [set() for _ in range(LAYERS)]
    for p in range(LAYERS):
        previous: set[CompactKey] = set()
        seen = visited[p]
        level = sorted(seeds[p] - seen)
        seeds[p] = set()
        while level:
            following: set[CompactKey] = set()
            for x in level:
                stop = budget.spend(counter)
                if stop is not None:
                    return Layered("limit", stop=stop)
                state = compact.decode(x)
                fresh: list[Move] = []
                generate(state, fresh)
                for move in fresh:
                    line = []
                    play(state, move, line)
                    if state.is_won():
                        return Layered("won", x)
                    child = child_key(compact, x, state, line)
                    q = compact.layer(child)
                    (following if q == p else seeds[q]).add(child)
                    unwind(state, line, 0)
            current = set(level)
            level = sorted(following - current - previous - seen)
            previous = current
        visited[p] = set()
    return Layered("exhausted")
