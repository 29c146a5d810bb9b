"""The castle family's reference search (``rust/src/castle/``): ``state``, ``compact`` (the
complete pass's key), ``moves`` (and the replay that checks a win), ``order``, ``search`` (the
passes), ``walk`` (the depth-first walk, with what ``keys.rs`` keys it by), ``hand_off`` (the
layers past the walk's table), ``layers``, ``orbits``, ``beam`` and ``shorten``, each the
translation of the Rust file of the same name."""

from __future__ import annotations

from .moves import (
    all_legal,
    apply,
    generate,
    is_legal,
    is_safe_to_foundation,
    next_automatic,
    replay,
    undo,
)
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
