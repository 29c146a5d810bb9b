"""The free-cell solver: a portfolio of short tries (depth-first ones, ``dive``, then
best-first ones), then the complete best-first search, over steps (a single card, or a run
moved as a unit) each followed by the safe moves, positions taken nearest a win first, every
position entered once in a table keyed up to the order of the cells and of the columns.

Translation of ``rust/src/cells/search.rs``.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass

from ...solving.cells import CellsDeal, CellsMove, CellsSolution
from ...solving.outcome import check_limits
from ..solver import Budget, Counter, Deadline, End, Start, Stop, finish
from .dive import Dive
from .moves import auto_moves, replays_to_win, undo
from .order import COMPLETE_WEIGHTS, OTHER_WEIGHTS, WEIGHTS, Weights, rank_steps
from .shorten import shorten
from .state import CellsState, Key, Placed
from .steps import Step, apply_step, generate, generate_runs, line_of, undo_step


@dataclass(frozen=True)
class Try:
    """A step of the portfolio: a search ranked by ``weights`` that gives up after ``states``
    expansions of its own; depth first (a :class:`~.dive.Dive`, which a later try with the
    same weights goes on with) if ``dive``, else best first."""

    weights: Weights
    states: int
    dive: bool = False


#: The portfolio of ``cells/search.rs``, try for try: dives ranked by three weights in turn,
#: 300 positions each, twice round (the second round goes on where the first stopped), then
#: the best-first tries.
PORTFOLIO = (
    *(Try(w, 300, dive=True) for w in (WEIGHTS, OTHER_WEIGHTS[3], OTHER_WEIGHTS[2]) * 2),
    Try(WEIGHTS, 500),
    Try(OTHER_WEIGHTS[0], 500),
    Try(OTHER_WEIGHTS[1], 1_000),
    Try(OTHER_WEIGHTS[2], 2_000),
    Try(OTHER_WEIGHTS[3], 4_000),
    Try(WEIGHTS, 8_000),
)

#: What lets the next try (or the complete search) go on after a try ends.
RESUMABLE = (Stop.STATES, Stop.MEMORY)


def solve(
    deal: CellsDeal,
    *,
    max_states: int | None = None,
    max_seconds: float | None = None,
    max_cpu_seconds: float | None = None,
    short: bool = False,
) -> CellsSolution:
    """Decide ``deal`` exactly as :func:`castle.solve` does for the free-cell games: the
    :data:`PORTFOLIO`'s tries, then the complete search ranked by :data:`COMPLETE_WEIGHTS`;
    with ``short``, the win made shorter. The same status, states and moves as the core."""
    check_limits(max_states, max_seconds, max_cpu_seconds=max_cpu_seconds)
    start = Start.now()
    counter = Counter()
    deadline = Deadline.after(max_seconds, max_cpu_seconds, start, 1.0)
    end = tries(deal, max_states, deadline, counter)
    if resumable(end):
        end = search(deal, Budget(max_states, deadline), COMPLETE_WEIGHTS, counter)
    if end.kind == "won" and short:
        end = End("won", shorten(deal, end.path))

    def wins(moves: Sequence[CellsMove]) -> bool:
        return replays_to_win(deal, moves)

    return finish(end, counter, start.wall, CellsSolution, wins)


def tries(
    deal: CellsDeal, max_states: int | None, deadline: Deadline, counter: Counter
) -> End[CellsMove]:
    """The :data:`PORTFOLIO`'s tries in turn, until one ends otherwise than at its states."""
    end: End[CellsMove] = End("limit", [], Stop.STATES)
    # The dives begun, one for each weights: a dive with weights met before goes on.
    dives: dict[Weights, Dive] = {}
    for t in PORTFOLIO:
        # A try ends at its own states, or at the caller's limits.
        cap = counter.expanded + t.states
        until = Budget(cap if max_states is None else min(cap, max_states), deadline)
        if t.dive:
            if t.weights not in dives:
                dives[t.weights] = Dive(deal, t.weights)
            end = dives[t.weights].go(until, counter)
        else:
            end = search(deal, until, t.weights, counter)
        if not resumable(end):
            break
    return end


def resumable(end: End[CellsMove]) -> bool:
    return end.kind == "limit" and end.stop in RESUMABLE


@dataclass
class Node:
    """A position expanded: its placed key, the node it was reached from (the deal's is its
    own), the step made there (``None`` for the deal) and its steps from the deal."""

    placed: Placed
    parent: int
    step: Step | None
    depth: int


#: A step waiting in the queue: how near a win the position after it looks, then minus the
#: order it was met in (of those as near, the last met comes first, so that a line of equal
#: estimates is followed as in a depth-first search), the node it is made from, the step.
Waiting = tuple[int, int, int, Step]


def search(deal: CellsDeal, budget: Budget, weights: Weights, counter: Counter) -> End[CellsMove]:
    """A best-first search: the queue holds steps not yet made, each ranked by the position it
    leads to, and a position is entered in the table when its step is taken from the queue."""
    state = CellsState.from_deal(deal)
    made: list[CellsMove] = []
    auto_moves(state, made)
    if state.is_won():
        return End("won", made)
    best = BestFirst(state, budget, weights, counter)
    # The deal itself first; its step is never made.
    next_up: tuple[int, Step | None] | None = (0, None)
    while True:
        if next_up is not None:
            parent, step = next_up
            next_up = None
        elif best.open:
            _, _, parent, step = heapq.heappop(best.open)
        else:
            return End("exhausted", [])
        end = best.take(parent, step)
        if end is not None:
            if end.kind == "won":
                return End("won", line_to(deal, best.nodes, end.path))
            return End(end.kind, [], end.stop)


class BestFirst:
    """What one best-first search holds: the position, the table, the nodes, the queue."""

    def __init__(self, state: CellsState, budget: Budget, weights: Weights, counter: Counter):
        self.state = state
        self.budget = budget
        self.weights = weights
        self.counter = counter
        self.table: set[Key] = set()
        self.nodes: list[Node] = []
        self.open: list[Waiting] = []
        self.met = 0
        # The node whose position ``state`` holds, if one does: most steps taken from the
        # queue are made from the node expanded last, which then needs no decoding.
        self.current: int | None = None

    def take(self, parent: int, step: Step | None) -> End[Step] | None:
        """The position after ``step`` from node ``parent`` (the deal itself the first time):
        passed over if seen, else entered and expanded. How the search ends, if it does
        here (a win as the steps' last one, read back by :func:`line_to`)."""
        state = self.state
        made: list[CellsMove] = []
        if step is not None:
            if self.current != parent:
                state.set_placed(self.nodes[parent].placed)
                self.current = parent
            apply_step(state, step)
            auto_moves(state, made)
        key = state.key()
        if key in self.table:
            take_back(state, step, made)
            return None
        self.table.add(key)
        stop = self.budget.spend(self.counter)
        if stop is not None:
            return End("limit", [], stop)
        at = len(self.nodes)
        depth = self.nodes[parent].depth + 1 if self.nodes else 0
        self.nodes.append(Node(state.placed_key(), parent, step, depth))
        won = self.queue(at, depth + 1)
        if won is not None:
            return End("won", [won])
        self.current = at
        return None

    def queue(self, parent: int, depth: int) -> Step | None:
        """Each step from node ``parent`` (the position ``state`` holds) made with its safe
        moves, ranked and queued; the first that wins, if one does."""
        steps: list[Step] = []
        generate(self.state, steps)
        generate_runs(self.state, steps)
        return rank_steps(
            self.state,
            steps,
            self.weights,
            lambda near, child: self.wait(near + self.weights.depth * depth, parent, child),
        )

    def wait(self, near: int, parent: int, child: Step) -> None:
        """Queue ``child`` from node ``parent``, ``near`` a win."""
        self.met += 1
        heapq.heappush(self.open, (near, -self.met, parent, child))


def take_back(state: CellsState, step: Step | None, made: list[CellsMove]) -> None:
    """Take back the safe moves ``made`` after ``step``, then ``step``."""
    while made:
        undo(state, made.pop())
    if step is not None:
        undo_step(state, step)


def line_to(deal: CellsDeal, nodes: list[Node], last: list[Step]) -> list[CellsMove]:
    """The line from the deal to the last node, then the step ``last`` holds."""
    steps = list(last)
    i = len(nodes) - 1
    while i != 0:
        step = nodes[i].step
        assert step is not None
        steps.append(step)
        i = nodes[i].parent
    steps.reverse()
    return line_of(deal, steps)
