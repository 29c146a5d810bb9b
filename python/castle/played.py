"""What every game in play keeps, castle or Spider: the actions done (each with the position
before it) and undone, the move and undo counters, the clock, and the store it saves to."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .errors import IllegalMoveError
from .playclock import Clock, PlayClock

if TYPE_CHECKING:
    from .saves import SaveStore

#: A game's action (castle: :class:`castle.Action`; Spider: :class:`castle.SpiderMove`) and
#: position (:class:`castle.Deal` or :class:`castle.SpiderDeal`).
A = TypeVar("A")
P = TypeVar("P")


class Played(Generic[A, P]):
    def __init__(self, position: P, clock: Clock, store: SaveStore | None) -> None:
        self._position = position
        self._done: list[tuple[A, P]] = []
        self._undone: list[A] = []
        self._moves = 0
        self._undos = 0
        self._timer = PlayClock(clock)
        self._store = store

    @property
    def is_won(self) -> bool:
        raise NotImplementedError

    def to_save(self) -> dict[str, Any]:
        raise NotImplementedError

    @property
    def moves(self) -> int:
        """Moves made, each undo included (each game says what a move is)."""
        return self._moves

    @property
    def undos(self) -> int:
        return self._undos

    @property
    def history(self) -> tuple[A, ...]:
        return tuple(action for action, _ in self._done)

    @property
    def can_undo(self) -> bool:
        return bool(self._done) and not self.is_won

    @property
    def can_redo(self) -> bool:
        return bool(self._undone) and not self.is_won

    @property
    def seconds(self) -> float:
        """Seconds of play: the clock stops while paused and once the game is won."""
        return self._timer.seconds

    @property
    def paused(self) -> bool:
        return not self._timer.running and not self.is_won

    def pause(self) -> None:
        """Stop the clock (the menu is open), and save."""
        if self._timer.running:
            self._timer.stop()
            self._save()

    def unpause(self) -> None:
        if not self.is_won:
            self._timer.start()

    def undo(self) -> A:
        """Take back the last action whole (it counts as a move; its points go too)."""
        if self.is_won:
            raise IllegalMoveError("the game is won")
        if not self._done:
            raise IllegalMoveError("nothing to undo")
        action, before = self._done.pop()
        self._position = before
        self._undone.append(action)
        self._moves += 1
        self._undos += 1
        self._save()
        return action

    def _check_playing(self) -> None:
        if self.is_won:
            raise IllegalMoveError("the game is won")

    def _finish_if_won(self, level_id: str, *, record: bool = True) -> None:
        """At a win: the clock stops, and the win enters the level's statistics."""
        if self.is_won and self._timer.running:
            self._timer.stop()
            if self._store is not None and record:
                self._store.record_result(level_id, won=True)

    def _save(self) -> None:
        if self._store is not None:
            self._store.save_game(self)


__all__ = ["Played"]
