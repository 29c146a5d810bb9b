"""The Spider solver: a portfolio of beam searches (and a slice of the depth-first search),
then a complete depth-first search that sees the face-down cards and the stock.

Translation of ``rust/src/spider/search.rs``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace

from ...solving.outcome import check_limits
from ...solving.spider import SpiderDeal, SpiderMove, SpiderSolution, check_beam_width
from ..solver import Budget, Counter, Deadline, End, Start, Stop, finish
from .beam import BEAM_WIDTHS, beam_search
from .estimate import WEIGHTS, Weights
from .moves import apply, generate, replay, undo
from .order import order_moves
from .shorten import shorten
from .state import SpiderState

#: The states the portfolio's shares are taken of (a caller's lower limit cuts it short).
PORTFOLIO_STATES = 10_000_000


@dataclass(frozen=True)
class Beam:
    """A portfolio step: a beam search of ``width`` ranked by ``weights``."""

    width: int
    weights: Weights
    share: float


@dataclass(frozen=True)
class Slice:
    """A portfolio step: a slice of the depth-first search of at most ``states`` positions
    (its own count, not a share)."""

    states: int


#: The portfolios' depth-first slice.
SLICE = Slice(50_000)


#: :data:`WEIGHTS` with an empty column worth 5.
EMPTY_5 = replace(WEIGHTS, empty=5)

#: :data:`WEIGHTS` with a change of suit charged 1.
SUIT_BREAK_1 = replace(WEIGHTS, suit_break=1)

#: The portfolio of ``spider/search.rs``, step for step.
PORTFOLIO: tuple[Beam | Slice, ...] = (
    Beam(BEAM_WIDTHS[0], WEIGHTS, 0.1),
    Beam(BEAM_WIDTHS[0], EMPTY_5, 0.2),
    Beam(BEAM_WIDTHS[1], WEIGHTS, 0.35),
    Beam(BEAM_WIDTHS[1], EMPTY_5, 0.5),
    SLICE,
    Beam(BEAM_WIDTHS[2], EMPTY_5, 0.65),
    Beam(BEAM_WIDTHS[1], replace(EMPTY_5, down=7), 0.7),
    Beam(BEAM_WIDTHS[1], replace(EMPTY_5, down=8, suit_break=3), 0.75),
    Beam(BEAM_WIDTHS[1], replace(WEIGHTS, down=7), 0.8),
    Beam(BEAM_WIDTHS[2], WEIGHTS, 1.0),
)


#: The portfolio for two suits (``TWO_SUIT_PORTFOLIO``): beams that charge a change of suit
#: less after the two narrow beams.
TWO_SUIT_PORTFOLIO: tuple[Beam | Slice, ...] = (
    *PORTFOLIO[:2],
    Beam(BEAM_WIDTHS[1], SUIT_BREAK_1, 0.3),
    Beam(BEAM_WIDTHS[1], replace(WEIGHTS, empty=2, suit_break=2), 0.4),
    SLICE,
    Beam(BEAM_WIDTHS[2], SUIT_BREAK_1, 0.6),
    Beam(BEAM_WIDTHS[2], EMPTY_5, 0.8),
    Beam(BEAM_WIDTHS[2], WEIGHTS, 1.0),
)


def portfolio(variant: str) -> tuple[Beam | Slice, ...]:
    """The portfolio for ``variant``'s deck."""
    return TWO_SUIT_PORTFOLIO if variant == "spider-2" else PORTFOLIO


@dataclass
class Frame:
    start: int
    end: int
    next: int


def solve(
    deal: SpiderDeal,
    *,
    max_states: int | None = None,
    max_seconds: float | None = None,
    max_cpu_seconds: float | None = None,
    beam_width: int | None = None,
    steps: tuple[Beam | Slice, ...] | None = None,
) -> SpiderSolution:
    """Decide ``deal`` exactly as :func:`castle.solve` does for Spider: the ``steps`` in turn
    (with ``beam_width``, as :func:`castle.solving.spider.solve_spider`: one beam of that width),
    then the complete search."""
    check_beam_width(beam_width)
    if beam_width is not None:
        steps = (Beam(beam_width, WEIGHTS, 1.0),)
    elif steps is None:
        steps = portfolio(deal.variant)
    check_limits(max_states, max_seconds, max_cpu_seconds=max_cpu_seconds)
    start = Start.now()
    counter = Counter()
    deadline = Deadline.after(max_seconds, max_cpu_seconds, start, 1.0)

    def until(states: int) -> Budget:
        # A step ends when the solve has expanded ``states``, as in spider/search.rs (a beam's
        # share is of the states only); the caller's limits stop any step.
        return Budget(states if max_states is None else min(states, max_states), deadline)

    # The portfolio's steps while one ends at its share of the states (or a beam runs dry),
    # then the complete search with the whole budget; the deadline ends every step alike.
    resumable = (Stop.STATES, Stop.MEMORY)
    end: End[SpiderMove] = End("limit", [], Stop.STATES)
    for step in steps:
        if end.stop not in resumable:
            break
        if isinstance(step, Beam):
            budget = until(int(PORTFOLIO_STATES * step.share))
            end = beam_search(deal, step.width, step.weights, budget, counter)
            if end.kind == "exhausted":
                end = End("limit", [], Stop.STATES)  # a beam that runs dry proves nothing
        else:
            end = search(deal, until(counter.expanded + step.states), counter)
    if end.stop in resumable:
        budget = Budget(max_states, deadline)
        end = search(deal, budget, counter)
    if end.kind == "won":
        end = End("won", shorten(deal, end.path))

    def wins(moves: Sequence[SpiderMove]) -> bool:
        return replay(deal, moves).is_won()

    return finish(end, counter, start.wall, SpiderSolution, wins)


def search(deal: SpiderDeal, budget: Budget, counter: Counter) -> End[SpiderMove]:
    """The complete depth-first search: every new position is entered in the table and
    expanded once."""
    state = SpiderState.from_deal(deal)
    table: set[Hashable] = set()
    path: list[tuple[SpiderMove, bool]] = []
    moves: list[SpiderMove] = []
    frames: list[Frame] = []
    if state.is_won():
        return End("won", [])
    table.add(state.key())
    while True:
        stop = budget.spend(counter)
        if stop is not None:
            return End("limit", [], stop)
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
