"""The depth-first search (``solver/search.rs``). Complete: every position reachable from the
deal is expanded at most once (the table remembers it), so a search that runs out of moves has
proved there is no win."""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..deal import Deal
from ..solve import Move, Solution, Status, check_limits
from .moves import apply, generate, play_automatic, undo
from .order import order_moves
from .state import State

#: How often (in expansions) the clock is read.
POLL_EVERY = 1024


@dataclass
class Frame:
    """A position on the search stack: its moves are ``moves[start:end]``, ``next`` is the one
    to try next, and ``path_len`` is the length of the move path that reached it."""

    start: int
    end: int
    next: int
    path_len: int


def solve(
    deal: Deal, *, max_states: int | None = None, max_seconds: float | None = None
) -> Solution:
    """Search ``deal`` for a win, exactly as :func:`castle.solve` does (without its memory
    bound: the table here is a plain set)."""
    check_limits(max_states, max_seconds)
    started = time.perf_counter()
    state = State.from_deal(deal)
    table: set[bytes] = set()
    path: list[Move] = []
    moves: list[Move] = []
    frames: list[Frame] = []
    expanded = 0

    def finish(status: Status, path: list[Move], limit: str | None = None) -> Solution:
        return Solution(status, tuple(path), expanded, time.perf_counter() - started, limit)

    play_automatic(state, path)
    if state.is_won():
        return finish("solved", path)
    table.add(state.key())
    while True:
        # `state` is a new position, just entered in the table (and not won): expand it.
        if max_states is not None and expanded >= max_states:
            return finish("unknown", [], "states")
        expanded += 1
        if (
            expanded % POLL_EVERY == 0
            and max_seconds is not None
            and time.perf_counter() - started >= max_seconds
        ):
            return finish("unknown", [], "seconds")
        start = len(moves)
        generate(state, moves)
        order_moves(state, moves, start)
        frames.append(Frame(start, len(moves), start, len(path)))

        # Find the next new position: try the next move of the deepest frame, backtracking
        # from frames whose moves are all tried.
        while True:
            if not frames:
                return finish("unsolvable", [])
            frame = frames[-1]
            if frame.next == frame.end:
                del moves[frame.start :]
                frames.pop()
                if frames:
                    unwind(state, path, frames[-1].path_len)
                continue
            move = moves[frame.next]
            frame.next += 1
            apply(state, move)
            path.append(move)
            play_automatic(state, path)
            if state.is_won():
                return finish("solved", path)
            key = state.key()
            if key in table:
                unwind(state, path, frame.path_len)
                continue
            table.add(key)
            break


def unwind(state: State, path: list[Move], length: int) -> None:
    """Take back moves until the path is ``length`` long."""
    while len(path) > length:
        undo(state, path.pop())
