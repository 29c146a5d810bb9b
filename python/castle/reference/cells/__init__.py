"""The pure-Python free-cell solver: the same search as ``rust/src/cells/``, state for state.

For the same deal and ``max_states`` it returns the same status, states and moves as
:func:`castle.solve` on a :class:`castle.CellsDeal`; its rules check a win move by move
(:func:`replay`) apart from the core's. Each module translates the Rust file of its name in
``rust/src/cells/``: ``variant`` (the rules that differ between the games), ``state``,
``moves`` (the single-card rules, the safe moves, the replay), ``steps`` (what the search
tries: single moves, runs, digs), ``order``, ``dive`` (a depth-first search over a table it
may share), ``pack`` (eight dig dives sharing one table and a complete dive with its own, each
a turn at a time), ``search`` (the pack, then the win shortened), ``shorten``; ``moves.rs`` is
in two here: ``moves`` and ``runs`` (a run moved as a unit, as its single moves).
Moves are the API's :class:`castle.CellsMove`.
"""

from __future__ import annotations

from ...solving.cells import CellsMove
from .moves import all_legal, apply, auto_moves, is_legal, is_safe, replay, undo
from .runs import run_len, run_moves, single_moves
from .search import solve
from .state import CellsState

__all__ = [
    "CellsMove",
    "CellsState",
    "all_legal",
    "apply",
    "auto_moves",
    "is_legal",
    "is_safe",
    "replay",
    "run_len",
    "run_moves",
    "single_moves",
    "solve",
    "undo",
]
