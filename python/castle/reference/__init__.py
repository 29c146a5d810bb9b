"""The pure-Python solvers: the same searches as the Rust core, step for step.

They are the algorithms' readable specification and the baseline the benchmarks compare against.
For the same deal and ``max_states`` they return the same status, the same number of expanded
states and the same moves as :func:`castle.solve`; the tests hold them to that. The folders are
the crate's, and each module translates the Rust file of the same name:

=========================  ==========================================================
``reference/solver/``      ``rust/src/solver/``: what both searches share: ``budget``
                           (limits spent, ``Stop``, how a pass ended), ``outcome`` (the
                           end-of-search step), ``walk`` (the breadth-first walk of
                           both ``shorten``)
``reference/castle/``      ``rust/src/castle/``: ``state``, ``compact`` (the complete
                           pass's key), ``moves`` (with ``replay``), ``order``,
                           ``search``, ``layers``, ``orbits`` (the complete pass's
                           proof over orbits), ``beam``, ``shorten``
``reference/spider/``      ``rust/src/spider/``: ``state``, ``moves``, ``order``,
                           ``search``, ``beam``, ``shorten``
``reference/cells/``       ``rust/src/cells/``: ``variant``, ``state``, ``moves``
                           (with ``replay``; ``runs`` and ``steps`` are its
                           supermoves and the search's steps), ``order``,
                           ``dive``, ``search``, ``shorten``
=========================  ==========================================================

The castle game's names are here too (``reference.solve``, ``reference.replay``, ...); Spider's
are in :mod:`castle.reference.spider`, the free-cell games' in :mod:`castle.reference.cells`.
"""

from __future__ import annotations

from .castle import (
    State,
    all_legal,
    apply,
    generate,
    is_legal,
    is_safe_to_foundation,
    next_automatic,
    replay,
    solve,
    undo,
)

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
