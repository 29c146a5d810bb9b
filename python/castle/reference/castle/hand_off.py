"""The complete pass past its table: when the depth-first walk is full, the layered pass
(``layers.py``) goes on from where it stopped, and the line to the win the layers find is
rebuilt by a walk towards it.

Translation of ``rust/src/castle/hand_off.rs``.
"""

from __future__ import annotations

from typing import cast

from ...solving.deal import Deal
from ...solving.solve import Move
from ..solver import Budget, Counter, End
from .compact import Compact, CompactKey, child_key
from .layers import Layered, by_layer
from .moves import apply, generate, play, replay, unwind
from .state import State
from .walk import Stopped, walk

#: The layered pass's seeds and the positions expanded already, by layer.
Seeded = tuple[list[set[CompactKey]], list[set[CompactKey]]]


def hand_off(deal: Deal, stopped: Stopped) -> Layered | Seeded:
    """The layered pass seeded from where the depth-first walk stopped: the positions of its
    table are expanded already, and the positions its untried moves lead to (and the one it
    stopped at) are the seeds, each frame's untried moves in the order it would have tried
    them; or a win met on the way (one that wins ends it there, as in the layers)."""
    compact = Compact(deal)
    # The complete pass's table holds compact keys.
    keys = cast("set[CompactKey]", stopped.table)
    visited = by_layer(compact, (k for k in keys if k != stopped.pending))
    seeds: list[CompactKey] = []
    state = State.from_deal(deal)
    applied = 0
    for frame in stopped.frames:
        for move in stopped.path[applied : frame.path_len]:
            apply(state, move)
        applied = frame.path_len
        for move in stopped.moves[frame.next : frame.end]:
            if move == frame.back:
                continue
            line: list[Move] = []
            play(state, move, line)
            if state.is_won():
                return Layered("won", frame.key)
            seeds.append(child_key(compact, frame.key, state, line))
            unwind(state, line, 0)
    seeds.append(stopped.pending)
    return by_layer(compact, seeds), visited


def rebuild(deal: Deal, next_to_win: CompactKey, budget: Budget, counter: Counter) -> End[Move]:
    """The line to a win through ``next_to_win``, a position one move (and the automatic
    moves after it) from a win: a depth-first pass towards it that enters only the positions
    whose facts are among its own, then the winning move; or a win that pass comes upon
    first."""
    end = walk(deal, Compact(deal), budget, counter, toward=next_to_win)
    if end.kind != "won":
        assert end.kind == "limit", "the layered pass reached a position the deal cannot"
        return end
    state = replay(deal, end.path)
    if state.is_won():
        return end
    fresh: list[Move] = []
    generate(state, fresh)
    for move in fresh:
        line: list[Move] = []
        play(state, move, line)
        if state.is_won():
            return End("won", end.path + line)
        unwind(state, line, 0)
    raise AssertionError("the layered pass's position next to a win has no winning move")
