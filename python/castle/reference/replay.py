"""Replaying a move list through the reference rules: how a claimed win is checked."""

from __future__ import annotations

from collections.abc import Iterable

from ..deal import Deal
from ..errors import IllegalMoveError
from ..solve import Move
from .moves import apply, is_legal
from .state import State


def replay(deal: Deal, moves: Iterable[Move]) -> State:
    """Play ``moves`` from ``deal``, checking each; raise :class:`IllegalMoveError` at the first
    illegal one. Returns the final position (``.is_won()`` tells whether the moves won)."""
    state = State.from_deal(deal)
    for i, move in enumerate(moves):
        if not is_legal(state, move):
            raise IllegalMoveError(f"move {i + 1} ({move}) is not legal here")
        apply(state, move)
    return state
