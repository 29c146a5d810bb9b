"""The search, in three passes; the first two look for a win only.

The quick pass gives up completeness for speed: its table treats positions that differ only in
suits as one, so it never looks at a second position of the same shape. A win it finds is a
real win (its moves are legal moves from the deal); running out of moves there proves nothing.
It may expand ``QUICK_STATES`` positions, the beam pass (``beam.py``) ``BEAM_STATES`` more. The
complete pass then searches with exact keys (``compact.py``'s, kept frame by frame): every
position reachable from the deal is expanded at most once, so running out of moves proves there
is no win. Each pass ends at a fixed count of the solve's expansions or at ``max_states``,
whichever comes first: a solve under ``max_states`` is the unlimited solve cut short.

Translation of ``rust/src/castle/search.rs``. What the Rust walk does for time and memory alone
is not translated: its table in two stages (a hash set, then ``solver/packed.rs``), its
children keyed at once and prefetched, and its stack of two-byte frames and moves change no
position and no order (a Rust test runs every combination against the others).
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

from ...deal import Deal
from ...outcome import check_limits
from ...solve import FOUNDATION, Move, Solution
from ..solver import Budget, Counter, End, Stop, finish
from .beam import beam_pass, shortest_beam
from .compact import Compact, CompactKey
from .moves import apply, generate, play_automatic, replay, undo
from .order import order_moves
from .shorten import shorten
from .state import State

Pass = Literal["quick", "complete"]

#: Expansions the quick pass may use (fewer if ``max_states`` ends the solve first).
QUICK_STATES = 1_000_000
#: Expansions the beam pass may use after the quick pass (the same proviso).
BEAM_STATES = QUICK_STATES // 10


@dataclass
class Frame:
    """A position on the search stack: its moves are ``moves[start:end]``, ``next`` is the one
    to try next, and ``path_len`` is the length of the move path that reached it."""

    start: int
    end: int
    next: int
    path_len: int
    #: The move back to the parent position, when one move (and no automatic move) led here.
    back: Move | None
    #: The position's compact key (the complete pass; 0 in the quick pass).
    key: CompactKey


def reverse(move: Move) -> Move | None:
    """The move that takes back ``move`` (none for a move to a foundation)."""
    if move.dst == FOUNDATION:
        return None
    return Move(move.card, move.dst, move.src)


def solve(
    deal: Deal,
    *,
    max_states: int | None = None,
    max_seconds: float | None = None,
    short: bool = False,
) -> Solution:
    """Decide ``deal`` exactly as :func:`castle.solve` does: the quick pass, the beam pass,
    then (unless one won) the complete pass; with ``short``, then beam searches for a shorter
    win while the limits allow. (No memory bound: the tables here are plain sets.)"""
    check_limits(max_states, max_seconds)
    started = time.perf_counter()

    def deadline(fraction: float) -> float | None:
        return None if max_seconds is None else started + max_seconds * fraction

    def until(states: int) -> int:
        # A pass ends when the solve has expanded ``states``, or at the caller's state limit.
        return states if max_states is None else min(states, max_states)

    counter = Counter()
    end = search(deal, "quick", Budget(until(QUICK_STATES), deadline(0.1)), counter)
    # The beam pass (and its time up to a fifth of the limit). Enough for the deals it wins;
    # on the deals it cannot win, small beside the proof (a quarter of the quick pass's states
    # doubled the 99th percentile of Beleaguered Castle 1-2000).
    if not (end.kind == "won" or end.stop == Stop.INTERRUPTED):
        budget = Budget(until(counter.expanded + BEAM_STATES), deadline(0.2))
        end = beam_pass(deal, budget, counter)
    # The whole budget: the complete pass's, and the short mode's after it.
    budget = Budget(max_states, deadline(1.0))
    if not (end.kind == "won" or end.stop == Stop.INTERRUPTED):
        end = search(deal, "complete", budget, counter)
    if end.kind == "won":
        moves = shorten(deal, end.path)
        if short:
            moves = shortest_beam(deal, moves, budget, counter)
        end = End("won", moves)

    def wins(moves: Sequence[Move]) -> bool:
        return replay(deal, moves).is_won()

    return finish(end, counter, started, Solution, wins)


def child_key(compact: Compact, key: CompactKey, state: State, line: Sequence[Move]) -> CompactKey:
    """The compact key of ``state``, reached by ``line`` (a move and its automatic moves, or
    the deal's automatic moves) from the position of compact key ``key``: each card moved now
    lies on what ``state``'s exact key says (a card moved twice, as a move and then up, is
    placed twice, the last time right)."""
    for move in line:
        key = compact.place(key, move.card, state.below[move.card.index])
    return key


def search(deal: Deal, pass_: Pass, budget: Budget, counter: Counter) -> End[Move]:
    """One depth-first pass. Every new position reached is entered in the table and expanded
    once; ``counter`` counts expansions over all passes."""
    state = State.from_deal(deal)
    # The complete pass's keys are compact keys relative to the deal, the quick pass's rank keys.
    compact = Compact(deal) if pass_ == "complete" else None
    table: set[Hashable] = set()
    path: list[Move] = []
    moves: list[Move] = []
    frames: list[Frame] = []

    play_automatic(state, path)
    if state.is_won():
        return End("won", path)
    # The deal's key, kept through the automatic moves.
    kept = 0 if compact is None else child_key(compact, compact.dealt_key(), state, path)
    table.add(state.rank_key() if compact is None else kept)
    while True:
        # `state` is a new position, just entered in the table (and not won): expand it.
        stop = budget.spend(counter)
        if stop is not None:
            return End("limit", [], stop)
        start = len(moves)
        generate(state, moves)
        order_moves(state, moves, start)
        # Reached by one move and no automatic ones: that move's reverse leads back to the
        # parent, which is in the table, so it is known to be seen without a lookup.
        by_one_move = bool(frames) and frames[-1].path_len + 1 == len(path)
        back = reverse(path[-1]) if by_one_move else None
        frames.append(Frame(start, len(moves), start, len(path), back, kept))

        # Find the next new position: try the next move of the deepest frame, backtracking
        # from frames whose moves are all tried.
        while True:
            if not frames:
                return End("exhausted", [])
            frame = frames[-1]
            if frame.next == frame.end:
                del moves[frame.start :]
                frames.pop()
                if frames:
                    unwind(state, path, frames[-1].path_len)
                continue
            move = moves[frame.next]
            frame.next += 1
            if move == frame.back:
                continue
            apply(state, move)
            path.append(move)
            play_automatic(state, path)
            if state.is_won():
                return End("won", path)
            k: Hashable
            if compact is None:
                k = state.rank_key()
            else:
                k = kept = child_key(compact, frame.key, state, path[frame.path_len :])
            if k in table:
                unwind(state, path, frame.path_len)
                continue
            table.add(k)
            break


def unwind(state: State, path: list[Move], length: int) -> None:
    """Take back moves until the path is ``length`` long."""
    while len(path) > length:
        undo(state, path.pop())
