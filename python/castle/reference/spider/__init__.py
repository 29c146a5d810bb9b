"""The pure-Python Spider solver: the same search as ``rust/src/spider``, step for step.

For the same deal and ``max_states`` it returns the same status, states and moves as
:func:`castle.solve` on a :class:`castle.SpiderDeal`. Each module translates the Rust module of
the same name in ``rust/src/spider``: ``state``, ``moves``, ``order``, ``beam``, ``search``.
"""

from __future__ import annotations

from .moves import SpiderMove, apply, generate, is_legal, replay, undo
from .search import solve
from .state import SpiderState

__all__ = ["SpiderMove", "SpiderState", "apply", "generate", "is_legal", "replay", "solve", "undo"]
