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

from ..solving.outcome import Status
from ..words import plural

P = TypeVar("P", bound=Hashable)
M = TypeVar("M")


@dataclass(frozen=True)
class Step(Generic[M]):
    """The plan's move from a position, and how many moves of the plan remain from there
    (this one included)."""

    move: M
    left: int


@dataclass(frozen=True)
class Hint(Generic[M]):
    """Advice from the current position, the same for every game: ``move`` is the next step
    of a win when ``status`` is ``"solved"`` (``left`` moves of the plan remain, this one
    included; 0 where there is no plan of this deal, as for a fair Spider hint);
    ``"unsolvable"`` means no win is possible from here (a proof); ``"unknown"`` that the
    search found none within its budget. ``searched``: whether this hint took a new search
    (False: the plan's next step, or a won game). ``why``: why there is no move, when the
    status does not say it (the fair Spider hint's "no move helps")."""

    status: Status
    move: M | None
    left: int = 0
    searched: bool = False
    why: str | None = None

    def __str__(self) -> str:
        if self.move is not None:
            if self.left:
                return f"try {self.move} ({plural(self.left, 'move')} to a win)"
            return f"try {self.move}"
        if self.why is not None:
            return self.why
        if self.status == "solved":
            return "the game is won"
        if self.status == "unsolvable":
            return "no win from here: undo, or start a new deal"
        return "no hint found in time"


class Plan(Generic[P, M]):
    """The moves of one plan from ``start``, and each position along it: a win (``status``
    "solved"), or the fair Spider hint's moves up to the next card shown ("unknown")."""

    def __init__(
        self,
        start: P,
        moves: Sequence[M],
        play: Callable[[P, M], P],
        status: Status = "solved",
    ) -> None:
        self.moves = tuple(moves)
        self.status = status
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


__all__ = ["Hint", "Plan", "Step"]
