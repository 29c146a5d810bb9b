"""The steps the search takes: single-card moves, less those that lead only to a position of
the same key and the safe ones (made already), runs of two cards or more moved as a unit, and
digs (a card dug out from under others, put up or onto another column).

Translation of ``rust/src/cells/steps.rs`` (``generate``, ``Step``, ``generate_runs``,
``generate_digs``, ``apply_step``, ``undo_step``, ``step_moves``, and ``line_of``: a line of
steps read back as single moves).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ...cards import Card
from ...solving.cells import TO_FOUNDATION, CellsDeal, CellsMove, Place
from .moves import CELL, COLUMN, apply, auto_moves, card_at, fits, fits_column, goes_up, undo
from .runs import run_len, run_moves
from .state import CellsState


@dataclass(frozen=True)
class Run:
    """The top ``count`` cards of column ``src`` moved as a unit onto column ``dst`` (the
    single moves it stands for are made when the line is read back)."""

    src: int
    count: int
    dst: int


@dataclass(frozen=True)
class Dig:
    """A card dug out: the cards over ``card`` in column ``src`` parked one each, the top card
    first, in the cells of the bit mask ``cells`` (lowest first) and then the empty columns of
    the bit mask ``spaces``, and ``card`` then put up or onto another column's top card
    (``dst``)."""

    src: int
    cells: int
    spaces: int
    card: Card
    dst: Place


#: A step of the search: one card, a run, or a dig.
Step = Union[CellsMove, Run, Dig]


def parks(dig: Dig) -> list[Place]:
    """Where ``dig`` parks the cards over its card, in order: its cells, then its empty
    columns."""
    cells = [place for i, place in enumerate(CELL) if dig.cells >> i & 1]
    return cells + [place for i, place in enumerate(COLUMN) if dig.spaces >> i & 1]


def generate(state: CellsState, out: list[Step]) -> None:
    """Append the single-card moves the search tries, from each column's top then each cell:
    to the foundation (none is safe: those are made already), onto each column whose top it
    fits, into the first empty column (not a column's only card), into the first empty cell
    (from a column only). The others lead only to a position of the same key."""
    cols = state.cols
    first_empty = next((c for c, col in enumerate(cols) if not col), None)
    free_cell = next((c for c, cell in enumerate(state.cells) if cell is None), None)
    sources = [(COLUMN[c], col[-1], len(col) == 1) for c, col in enumerate(cols) if col]
    sources += [(CELL[c], card, False) for c, card in enumerate(state.cells) if card is not None]
    for src, card, alone in sources:
        if goes_up(state, card):
            out.append(CellsMove(card, src, TO_FOUNDATION))
        for to, col in enumerate(cols):
            if col and COLUMN[to] != src and fits(state, card, col[-1]):
                out.append(CellsMove(card, src, COLUMN[to]))
        if first_empty is not None and not alone and fits_column(state, card, first_empty):
            out.append(CellsMove(card, src, COLUMN[first_empty]))
        if free_cell is not None and src.kind == "column":
            out.append(CellsMove(card, src, CELL[free_cell]))


def generate_runs(state: CellsState, out: list[Step]) -> None:
    """Append the runs of two cards or more the search moves as a unit: onto each column whose
    top card the run's bottom card fits, and the longest that may go into the first empty
    column (not a whole column: that leads to a position of the same key), each if the cells
    and the empty columns allow it."""
    free = state.free_cells()
    empty = state.empty_columns()
    first_empty = next((c for c, col in enumerate(state.cols) if not col), None)
    for src, col in enumerate(state.cols):
        run = run_len(state, src)
        if run < 2:
            continue
        top = col[-1].rank
        for to, target in enumerate(state.cols):
            if not target:
                continue
            # The one count whose bottom card is one rank below the target's top (ranks rise
            # by one down a run).
            count = target[-1].rank - top
            if (
                to != src
                and 2 <= count <= run
                and count <= state.rules.max_run(free, empty)
                and fits(state, col[-count], target[-1])
            ):
                out.append(Run(src, count, to))
        if first_empty is not None:
            count = empty_column_run(state, src, run, free, empty)
            if count >= 2:
                out.append(Run(src, count, first_empty))


def on_a_card_it_fits(state: CellsState, col: list[Card], at: int) -> bool:
    """Whether the card at ``at`` in ``col`` lies on a card it fits: moved alone, it would only
    trade one card it fits for another (and break a run)."""
    return at > 0 and fits(state, col[at], col[at - 1])


def left_out_by_digs(state: CellsState, step: Step) -> bool:
    """Whether a dig dive leaves out ``step``, a single move: a card from a column into a cell,
    or alone into an empty column (its digs do those with a purpose), or off a card it fits
    onto another column's (:func:`on_a_card_it_fits`)."""
    if not isinstance(step, CellsMove) or step.src.kind != "column":
        return False
    if step.dst.kind == "cell":
        return True
    if step.dst.kind != "column":
        return False
    col = state.cols[step.src.index or 0]
    return not state.cols[step.dst.index or 0] or on_a_card_it_fits(state, col, len(col) - 1)


def generate_digs(state: CellsState, out: list[Step]) -> None:
    """Append the digs (:class:`Dig`): each card under no more cards than the free cells and
    the empty columns hold (one each; the empty columns only where any card may go into one),
    the cards over it parked in the first free cells, then the first empty columns, and it put
    up, or onto another column's top card that it fits unless it lies on one it fits already
    (that would only break a run). What the dig dives search instead of a card into a cell
    (``dive``). Column by column: its digs that put a card up, shallowest first, then those
    onto columns (the order ties are broken in)."""
    spots = [("cell", c) for c, cell in enumerate(state.cells) if cell is None]
    if not state.rules.kings_only:
        spots += [("column", c) for c, col in enumerate(state.cols) if not col]
    # The masks of the first ``depth`` parks, for each depth.
    masks = [(0, 0)]
    for kind, c in spots:
        cells, spaces = masks[-1]
        masks.append((cells | 1 << c, spaces) if kind == "cell" else (cells, spaces | 1 << c))
    for src, col in enumerate(state.cols):
        deepest = min(len(spots), max(len(col) - 1, 0))
        for depth in range(1, deepest + 1):
            card = col[-1 - depth]
            if goes_up(state, card):
                cells, spaces = masks[depth]
                out.append(Dig(src, cells, spaces, card, TO_FOUNDATION))
        for depth in range(1, deepest + 1):
            at = len(col) - 1 - depth
            card = col[at]
            if on_a_card_it_fits(state, col, at):
                continue
            cells, spaces = masks[depth]
            for to, target in enumerate(state.cols):
                if to != src and target and fits(state, card, target[-1]):
                    out.append(Dig(src, cells, spaces, card, COLUMN[to]))


def empty_column_run(state: CellsState, src: int, run: int, free: int, empty: int) -> int:
    """The longest run of column ``src`` (``run`` long) that may go into an empty column: not
    the whole column; where an empty column takes only a king, the run down from its king."""
    col = state.cols[src]
    count = min(run, state.rules.max_run(free, empty - 1))
    if count == len(col):
        count -= 1
    if state.rules.kings_only:
        count = next((k for k in range(1, count + 1) if col[-k].rank == 13), 0)
    return count


def apply_step(state: CellsState, step: Step) -> None:
    """Make ``step`` (a run's cards go across at once: the single moves between do not matter
    here)."""
    if isinstance(step, Run):
        shift(state, step.src, step.dst, step.count)
    elif isinstance(step, Dig):
        src = COLUMN[step.src]
        for park in parks(step):
            apply(state, CellsMove(state.cols[step.src][-1], src, park))
        apply(state, CellsMove(step.card, src, step.dst))
    else:
        apply(state, step)


def undo_step(state: CellsState, step: Step) -> None:
    """Take back ``step``, the last step made."""
    if isinstance(step, Run):
        shift(state, step.dst, step.src, step.count)
    elif isinstance(step, Dig):
        src = COLUMN[step.src]
        undo(state, CellsMove(step.card, src, step.dst))
        for park in reversed(parks(step)):
            parked = card_at(state, park)
            assert parked is not None, "a card parked"
            undo(state, CellsMove(parked, src, park))
    else:
        undo(state, step)


def shift(state: CellsState, src: int, dst: int, count: int) -> None:
    """The top ``count`` cards of column ``src`` put on column ``dst``, in order."""
    col = state.cols[src]
    state.cols[dst].extend(col[-count:])
    del col[-count:]


def step_moves(state: CellsState, step: Step) -> list[CellsMove]:
    """The single moves ``step`` stands for, made from ``state`` (left as it was found)."""
    if isinstance(step, Run):
        singles = run_moves(state, step.src, step.count, step.dst)
        assert singles is not None, "a run the search could move"
        return singles
    if isinstance(step, Dig):
        src = COLUMN[step.src]
        over = reversed(state.cols[step.src])
        moves = [CellsMove(top, src, park) for park, top in zip(parks(step), over)]
        return [*moves, CellsMove(step.card, src, step.dst)]
    return [step]


def line_of(deal: CellsDeal, steps: list[Step]) -> list[CellsMove]:
    """The single moves of ``steps`` made from ``deal``, each step's safe moves after it (and
    the deal's before the first)."""
    state = CellsState.from_deal(deal)
    line: list[CellsMove] = []
    auto_moves(state, line)
    for step in steps:
        for m in step_moves(state, step):
            apply(state, m)
            line.append(m)
        auto_moves(state, line)
    return line
