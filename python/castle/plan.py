"""A hint's plan: one win, kept as the positions along it, so that hints are the steps of one
plan and never argue with each other.

A search from each new position finds *a* win, not the same one: the next position's win may
well begin with the move back, and hints that each start a different win loop forever. So a
game keeps the win its last search found. While the player's position lies on it (by any path:
a supermove, an auto-finish, an undo back along it), the hint is the plan's move from there,
with no new search; only off the plan does the game search again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)
M = TypeVar("M")


@dataclass(frozen=True)
class Step(Generic[M]):
    """The plan's move from a position, and how many moves of the plan remain from there
    (this one included)."""

    move: M
    left: int


class Plan(Generic[P, M]):
    """The moves of one win from ``start``, and each position along it."""

    def __init__(self, start: P, moves: Sequence[M], play: Callable[[P, M], P]) -> None:
        self.moves = tuple(moves)
        #: The step of the plan made from each position it passes (the latest, should the
        #: line pass a position twice).
        self._steps: dict[P, int] = {}
        position = start
        for i, move in enumerate(self.moves):
            self._steps[position] = i
            position = play(position, move)

    def step(self, position: P) -> Step[M] | None:
        """The plan's next move from ``position``, or None when the position is off the plan
        (or its end)."""
        i = self._steps.get(position)
        if i is None:
            return None
        return Step(self.moves[i], len(self.moves) - i)


__all__ = ["Plan", "Step"]
