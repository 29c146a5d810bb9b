"""What the games of one deck whose foundations build up by suit share (the castle games and
the free-cell games, not Spider): the timed score and the progress record, read from the
foundations (docs/rules.md §3)."""

from __future__ import annotations

from typing import Protocol, TypeVar

from ..errors import IllegalMoveError
from .played import A, Played, Position
from .scoring import progress, timed_score


class SuitPosition(Position, Protocol):
    """A position with four foundations, by suit: how many cards each holds."""

    @property
    def foundations(self) -> dict[str, int]: ...


S = TypeVar("S", bound=SuitPosition)


class OneDeck(Played[A, S]):
    """A game of one deck, four foundations by suit: its scores from its foundations."""

    @property
    def foundations(self) -> dict[str, int]:
        raise NotImplementedError

    @property
    def cards_sent(self) -> int:
        """Cards the player has sent to the foundations (undone ones not counted)."""
        return progress(self.foundations) - progress(self.deal.foundations)

    @property
    def score(self) -> int:
        """The timed score (docs/rules.md §3)."""
        return timed_score(self.cards_sent, self.seconds, self.is_won)

    @property
    def progress(self) -> int:
        """The classic record: cards on the foundations, 52 when won."""
        return progress(self.foundations)

    def redo(self) -> A:
        """Make again the last action undone."""
        self._check_playing()
        if not self._undone:
            raise IllegalMoveError("nothing to redo")
        action = self._undone.pop()
        before = self._position
        self._position, made = self._redone(before, action)
        self._done.append((action, before))
        self._moves += made
        self._acted()
        return action

    def _redone(self, before: S, action: A) -> tuple[S, int]:
        """The position after ``action`` made again from ``before``, and the single moves it
        counts."""
        raise NotImplementedError

    def tally(self) -> str:
        return f"cards up {self.progress}/52"
