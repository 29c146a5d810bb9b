"""A run of cards moved as a unit onto another column (a supermove), as the single moves it
stands for through the empty cells and the empty columns.

Translation of ``rust/src/cells/moves.rs`` (its runs: ``run_len``, ``run_moves``,
``single_moves``, ``move_run``).
"""

from __future__ import annotations

from ...solving.cells import CellsMove
from .moves import CELL, COLUMN, apply, fits, fits_column, is_legal
from .state import CellsState


def run_len(state: CellsState, c: int) -> int:
    """How many top cards of column ``c`` form a run (each on the card one rank higher that it
    fits)."""
    col = state.cols[c]
    n = 1 if col else 0
    while n < len(col) and fits(state, col[-n], col[-n - 1]):
        n += 1
    return n


def run_moves(state: CellsState, src: int, count: int, dst: int) -> list[CellsMove] | None:
    """The top ``count`` cards of column ``src`` moved as a unit onto column ``dst``, as the
    single moves it stands for: ``None`` unless they are a run, fit ``dst``, and are no more
    than :meth:`~castle.reference.cells.variant.Rules.max_run` allows."""
    n = len(state.cols)
    if not (0 <= src < n and 0 <= dst < n) or src == dst or count <= 0:
        return None
    if count > run_len(state, src) or not fits_column(state, state.cols[src][-count], dst):
        return None
    empties = [c for c in range(n) if c != dst and not state.cols[c]]
    if count > state.rules.max_run(state.free_cells(), len(empties)):
        return None
    work = state.copy()
    out: list[CellsMove] = []
    move_run(work, src, count, dst, [] if state.rules.kings_only else empties, out)
    return out


def single_moves(state: CellsState, m: CellsMove) -> list[CellsMove] | None:
    """The single moves ``m`` stands for, if it is legal here: itself, if it is a single-card
    move; if its card lies under others in a column and it goes to another column, the run
    from it to the top moved as a unit (:func:`run_moves`)."""
    if is_legal(state, m):
        return [m]
    if m.src.kind != "column" or m.dst.kind != "column":
        return None
    src, dst = m.src.index, m.dst.index
    if src is None or dst is None or not 0 <= src < len(state.cols):
        return None
    col = state.cols[src]
    if m.card not in col:
        return None
    return run_moves(state, src, len(col) - col.index(m.card), dst)


def move_run(
    state: CellsState, src: int, count: int, dst: int, empties: list[int], out: list[CellsMove]
) -> None:
    """Move ``count`` top cards of ``src`` onto ``dst`` through the empty cells and
    ``empties``, each single move made on ``state`` and appended to ``out``: through the cells
    alone when they hold all but one; else half the run to an empty column (through the
    others), the rest to ``dst``, then the half onto it."""
    if count <= state.free_cells() + 1:
        move_through_cells(state, src, count, dst, out)
        return
    spare, rest = empties[0], empties[1:]
    half = min((state.free_cells() + 1) << len(rest), count - 1)
    move_run(state, src, half, spare, rest, out)
    move_run(state, src, count - half, dst, rest, out)
    move_run(state, spare, half, dst, rest, out)


def move_through_cells(
    state: CellsState, src: int, count: int, dst: int, out: list[CellsMove]
) -> None:
    """The top ``count - 1`` cards of ``src`` to the first empty cells, the next onto ``dst``,
    then the parked ones back onto it, last parked first."""

    def play(m: CellsMove) -> None:
        apply(state, m)
        out.append(m)

    parked = []
    for _ in range(count - 1):
        cell = state.cells.index(None)
        card = state.cols[src][-1]
        play(CellsMove(card, COLUMN[src], CELL[cell]))
        parked.append((cell, card))
    play(CellsMove(state.cols[src][-1], COLUMN[src], COLUMN[dst]))
    for cell, card in reversed(parked):
        play(CellsMove(card, CELL[cell], COLUMN[dst]))
