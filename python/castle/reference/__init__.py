"""The pure-Python solver: the same search as the Rust one (``rust/src/solver``), step for step.

It is the algorithm's readable specification and the baseline the benchmarks compare against.
For the same deal and ``max_states`` it returns the same status, the same number of expanded
states and the same moves as :func:`castle.solve`; the tests hold it to that. Each module
here translates the Rust module of the same name:

========================  ================================
``reference/state.py``    ``rust/src/state.rs``
``reference/moves.py``    ``rust/src/moves.rs``
``reference/order.py``    ``rust/src/solver/order.rs``
``reference/search.py``   ``rust/src/solver/search.rs``
``reference/budget.py``   ``rust/src/solver/budget.rs``
``reference/beam.py``     ``rust/src/solver/beam.rs``
``reference/shorten.py``  ``rust/src/solver/shorten.rs``
========================  ================================
"""

from __future__ import annotations

from .moves import all_legal, apply, generate, is_legal, is_safe_to_foundation, next_automatic, undo
from .replay import replay
from .search import solve
from .state import State

__all__ = [
    "State",
    "all_legal",
    "apply",
    "generate",
    "is_legal",
    "is_safe_to_foundation",
    "next_automatic",
    "replay",
    "solve",
    "undo",
]
