"""The pure-Python Spider solver: the same search as ``rust/src/spider/``, step for step.

For the same deal and ``max_states`` it returns the same status, states and moves as
:func:`castle.solve` on a :class:`castle.SpiderDeal`. Each module translates the Rust file of
the same name in ``rust/src/spider/``: ``state``, ``moves``, ``estimate``, ``order``, ``beam``,
``search``, ``shorten``; what both games' searches share is in :mod:`castle.reference.solver`.
Moves are the API's :class:`castle.SpiderMove` (re-exported here).
"""

from __future__ import annotations

from ...solving.spider import SpiderMove
from .moves import apply, deal_move, generate, is_legal, off_move, replay, run_move, undo
from .search import solve
from .state import SpiderState

__all__ = [
    "SpiderMove",
    "SpiderState",
    "apply",
    "deal_move",
    "generate",
    "is_legal",
    "off_move",
    "replay",
    "run_move",
    "solve",
    "undo",
]
