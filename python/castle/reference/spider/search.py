"""The Spider solver (``spider/search.rs``): beam searches, then a complete depth-first
search that sees the face-down cards and the stock."""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass

from ...solve import check_limits
from ...spider import SpiderDeal, SpiderMove, SpiderSolution
from ..budget import Budget, Counter, End
from .beam import BEAM_WIDTHS, beam_search
from .moves import SpiderMove as Move
from .moves import apply, generate, replay, undo
from .order import order_moves
from .shorten import shorten
from .state import SpiderState

#: The states the portfolio's shares are taken of when the caller sets no state limit.
PORTFOLIO_STATES = 10_000_000


@dataclass
class Frame:
    start: int
    end: int
    next: int


def solve(
    deal: SpiderDeal, *, max_states: int | None = None, max_seconds: float | None = None
) -> SpiderSolution:
    """Decide ``deal`` exactly as :func:`castle.solve` does for Spider."""
    check_limits(max_states, max_seconds)
    started = time.perf_counter()
    counter = Counter()

    def share(fraction: float) -> Budget:
        states = PORTFOLIO_STATES if max_states is None else max_states
        deadline = None if max_seconds is None else started + max_seconds * fraction
        return Budget(int(states * fraction), deadline)

    # The portfolio of spider/search.rs: the narrow beam, a slice of the depth-first search,
    # the wider beams, then the complete search.
    resumable = ("states", "seconds", "memory")
    end = beam_search(deal, BEAM_WIDTHS[0], share(0.1), counter)
    if end.kind == "exhausted" or end.limit in resumable:
        end = search(deal, share(0.3), counter)
    for width in BEAM_WIDTHS[1:]:
        if end.limit not in resumable:
            break
        end = beam_search(deal, width, share(0.9), counter)
        if end.kind == "exhausted":
            end = End("limit", [], "states")  # a beam that runs dry proves nothing
    if end.limit in resumable:
        budget = Budget(max_states, None if max_seconds is None else started + max_seconds)
        end = search(deal, budget, counter)
    if end.kind == "won":
        end = End("won", shorten(deal, end.path))
    seconds = time.perf_counter() - started
    if end.kind == "won":
        replay(deal, end.path)  # raises if the win does not replay
        return SpiderSolution(
            "solved", tuple(public_moves(deal, end.path)), counter.expanded, seconds
        )
    if end.kind == "exhausted":
        return SpiderSolution("unsolvable", (), counter.expanded, seconds)
    return SpiderSolution("unknown", (), counter.expanded, seconds, end.limit)


def public_moves(deal: SpiderDeal, path: list[Move]) -> list[SpiderMove]:
    """The path as :class:`castle.SpiderMove` values, each with the cards it carries."""
    state = SpiderState.from_deal(deal)
    out = []
    for m in path:
        if m.kind == "run":
            cards = tuple(state.cols[m.src].cards[-m.count :])
            out.append(SpiderMove("run", cards, m.src, m.dst))
        elif m.kind == "deal":
            out.append(SpiderMove("deal", tuple(state.stock_left()[:10])))
        else:
            out.append(SpiderMove("off", tuple(state.cols[m.src].cards[-13:]), m.src))
        apply(state, m)
    return out


def search(deal: SpiderDeal, budget: Budget, counter: Counter) -> End[Move]:
    """The complete depth-first search: every new position is entered in the table and
    expanded once."""
    state = SpiderState.from_deal(deal)
    table: set[Hashable] = set()
    path: list[tuple[Move, bool]] = []
    moves: list[Move] = []
    frames: list[Frame] = []
    if state.is_won():
        return End("won", [])
    table.add(state.key())
    while True:
        limit = budget.spend(counter)
        if limit is not None:
            return End("limit", [], limit)
        start = len(moves)
        generate(state, True, moves)
        order_moves(state, moves, start)
        frames.append(Frame(start, len(moves), start))
        while True:
            if not frames:
                return End("exhausted", [])
            frame = frames[-1]
            if frame.next == frame.end:
                del moves[frame.start :]
                frames.pop()
                if path:
                    m, turned = path.pop()
                    undo(state, m, turned)
                continue
            m = moves[frame.next]
            frame.next += 1
            turned = apply(state, m)
            path.append((m, turned))
            if state.is_won():
                return End("won", [step for step, _ in path])
            key = state.key()
            if key in table:
                path.pop()
                undo(state, m, turned)
                continue
            table.add(key)
            break
