"""A depth-first search: from each position the steps in the order of the estimates of the
positions they lead to, the first followed until it ends (won, or every step from it leading
where the search has been), then the next. It holds one line and the steps not yet taken beside
it, and a table of the positions entered, which it may share with other dives (``pack``): one
bad step early can keep a dive below that step for long, so the solver runs several, each a
turn at a time. It can stop at a count of positions and go on later from where it stopped. A
dive takes every step (:attr:`Steps.ALL`), or digs in place of a card parked alone
(:attr:`Steps.DIGS`).

Translation of ``rust/src/cells/dive.rs``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ...solving.cells import CellsDeal, CellsMove
from ..solver import Budget, Counter, End, Stop
from .moves import auto_moves, undo
from .order import Weights, rank_steps
from .state import CellsState, Key
from .steps import (
    Step,
    apply_step,
    generate,
    generate_digs,
    generate_runs,
    left_out_by_digs,
    line_of,
    undo_step,
)


class Steps(Enum):
    """The steps a dive takes from a position."""

    #: Every single-card move, and runs moved as a unit: a dive that runs out of positions
    #: has been everywhere.
    ALL = "all"
    #: As fc-solve's first scans do: a card goes into a cell, or alone into an empty column,
    #: only as a part of a dig (:class:`~.steps.Dig`) that puts another card up or onto a
    #: column, and a card that lies on a card it fits is not moved alone onto another
    #: column. Lines are shorter, but a dive that runs out proves nothing.
    DIGS = "digs"


@dataclass
class Frame:
    """A position on the line: the step that led to it, the safe moves made after that step
    (their count, the last ones in the dive's ``safe``), and where its steps not yet taken
    start in the dive's ``ranked``."""

    step: Step
    safe: int
    ahead: int


#: The bits of the noise's state (a ``u64`` in the core).
MASK = (1 << 64) - 1


class Noise:
    """Whole numbers from 0 to ``most - 1`` added to a dive's estimates, so that dives part
    ways where their weights alone would rank steps alike: xorshift64 from a fixed seed, on 64
    bits as the core's, so the same numbers in the same order."""

    def __init__(self, most: int, seed: int):
        self.most = most
        self.state = (seed | 1) & MASK

    def next(self) -> int:
        s = self.state
        s ^= (s << 13) & MASK
        s ^= s >> 7
        s ^= (s << 17) & MASK
        self.state = s
        return s % self.most


class Dive:
    """A depth-first search of one deal, taking ``steps``, ranked by ``weights`` (and
    ``noise``, if it has some), over a table of positions it is handed at each turn."""

    def __init__(
        self,
        deal: CellsDeal,
        weights: Weights,
        noise: Noise | None = None,
        steps: Steps = Steps.ALL,
    ):
        self.deal = deal
        self.weights = weights
        self.noise = noise
        self.steps = steps
        self.state = CellsState.from_deal(deal)
        #: The safe moves made after the line's steps.
        self.safe: list[CellsMove] = []
        #: The steps not yet taken from the line's positions, each position's in a block
        #: after those of the position before it, best last (taken first).
        self.ranked: list[tuple[int, Step]] = []
        #: The line's positions past the deal's.
        self.line: list[Frame] = []
        self.begun = False

    def go(self, table: set[Key], budget: Budget, counter: Counter) -> End[CellsMove]:
        """Go on until the dive ends, or ``budget`` stops it (a limit of ``Stop.STATES`` when
        its states are spent: it may go on after that), entering positions in ``table`` (the
        same table at every turn, which other dives may share: it passes over their positions
        as over its own)."""
        if not self.begun:
            self.begun = True
            end = self.begin(table, budget, counter)
            if end is not None:
                return end
        while True:
            if budget.max_states is not None and counter.expanded >= budget.max_states:
                return End("limit", [], Stop.STATES)
            step = self.next_step()
            if step is None:
                if not self.line:
                    return End("exhausted", [])
                self.back()
                continue
            end = self.take(step, table, budget, counter)
            if end is not None:
                return end

    def begin(self, table: set[Key], budget: Budget, counter: Counter) -> End[CellsMove] | None:
        """The deal's position: its safe moves, then entered (unless another dive has) and
        expanded."""
        auto_moves(self.state, self.safe)
        if self.state.is_won():
            return End("won", list(self.safe))
        self.safe.clear()
        key = self.state.key()
        # The deal's position is counted once, by the dive that enters it; the others of a
        # pack take its steps too.
        if key not in table:
            table.add(key)
            stop = budget.spend(counter)
            if stop is not None:
                return End("limit", [], stop)
        won = self.push()
        if won is not None:
            return End("won", line_of(self.deal, [won]))
        return None

    def take(
        self, step: Step, table: set[Key], budget: Budget, counter: Counter
    ) -> End[CellsMove] | None:
        """The position after ``step``: passed over if seen, else put on the line and
        expanded. How the dive ends, if it does here."""
        state = self.state
        count = len(self.safe)
        apply_step(state, step)
        auto_moves(state, self.safe)
        count = len(self.safe) - count
        key = state.key()
        if key in table:
            self.take_back(step, count)
            return None
        table.add(key)
        stop = budget.spend(counter)
        if stop is not None:
            return End("limit", [], stop)
        self.line.append(Frame(step, count, len(self.ranked)))
        won = self.push()
        if won is not None:
            steps = [f.step for f in self.line] + [won]
            return End("won", line_of(self.deal, steps))
        return None

    def back(self) -> None:
        """Every step from the line's last position taken: back to the position before."""
        frame = self.line.pop()
        self.take_back(frame.step, frame.safe)

    def take_back(self, step: Step, count: int) -> None:
        """Take back the last ``count`` safe moves, then ``step``."""
        for _ in range(count):
            undo(self.state, self.safe.pop())
        undo_step(self.state, step)

    def push(self) -> Step | None:
        """The steps from the position ``state`` holds, ranked, as a new block; the step that
        wins, if one does. A dig dive's single moves leave out some
        (:func:`~.steps.left_out_by_digs`), and its digs come last."""
        state = self.state
        steps: list[Step] = []
        generate(state, steps)
        if self.steps == Steps.DIGS:
            steps = [s for s in steps if not left_out_by_digs(state, s)]
        generate_runs(state, steps)
        if self.steps == Steps.DIGS:
            generate_digs(state, steps)
        start = len(self.ranked)
        won = rank_steps(state, steps, self.weights, self.rank)
        # Best last; of steps as near, the one met last: the sort is stable, as the core's.
        self.ranked[start:] = sorted(self.ranked[start:], key=lambda r: -r[0])
        return won

    def rank(self, near: int, step: Step) -> None:
        """Add ``step``, ``near`` a win, to the last block, with the dive's noise (drawn in
        the order the steps are ranked, as the core draws it)."""
        bump = 0 if self.noise is None else self.noise.next()
        self.ranked.append((near + bump, step))

    def next_step(self) -> Step | None:
        """The next step of the line's last position's block, taken off it."""
        start = self.line[-1].ahead if self.line else 0
        if len(self.ranked) > start:
            return self.ranked.pop()[1]
        return None
