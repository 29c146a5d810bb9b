"""The player's statistics per level (docs/rules.md §3): wins, losses, win percentage, current and
best streaks of wins; and the player's settings, kept in the same file."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from ..cards import shown
from ..errors import SaveError

#: The largest count a save or statistics file may hold (moves, undos, wins, streaks):
#: 2**53 - 1, the largest whole number every JSON reader keeps exactly (the browser's too),
#: and more than any player could make.
MAX_COUNT = 2**53 - 1


def count_field(value: object) -> int:
    """A count in a save or statistics file; :class:`SaveError` unless a whole number 0 to
    :data:`MAX_COUNT`."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise SaveError(f"expected a count (0 to 2**53 - 1), found {shown(value)}")
    return value


@dataclass(frozen=True)
class LevelRecord:
    wins: int = 0
    losses: int = 0
    #: Wins in a row, up to the last game played.
    streak: int = 0
    best_streak: int = 0

    @property
    def played(self) -> int:
        return self.wins + self.losses

    @property
    def win_percentage(self) -> float | None:
        """Wins as a percentage of games finished (None before the first)."""
        return None if self.played == 0 else 100.0 * self.wins / self.played

    def after(self, won: bool) -> LevelRecord:
        """The record with one more game."""
        if won:
            streak = self.streak + 1
            return LevelRecord(self.wins + 1, self.losses, streak, max(self.best_streak, streak))
        return LevelRecord(self.wins, self.losses + 1, 0, self.best_streak)

    def to_json(self) -> dict[str, int]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> LevelRecord:
        if not isinstance(data, dict) or set(data) != {"wins", "losses", "streak", "best_streak"}:
            raise SaveError(f"not a level record: {data!r}")
        names = ("wins", "losses", "streak", "best_streak")
        try:
            record = cls(*(count_field(data[name]) for name in names))
        except SaveError as e:
            raise SaveError(f"not a level record: {e}") from None
        if record.streak > record.best_streak or record.best_streak > record.wins:
            raise SaveError(f"inconsistent level record: {data!r}")
        return record

    def __str__(self) -> str:
        percentage = "-" if self.win_percentage is None else f"{self.win_percentage:.0f}%"
        return (
            f"{self.wins} won, {self.losses} lost ({percentage}); "
            f"streak {self.streak}, best {self.best_streak}"
        )


@dataclass(frozen=True)
class Settings:
    """What the player chose in the menu, kept from one start to the next."""

    #: A terminal bell on refused moves and on a win.
    sound: bool = True
    #: Spider hints from what the player can see only (``castle.game.fair``); False: hints that peek
    #: at the face-down cards and the stock.
    fair_hints: bool = True

    def to_json(self) -> dict[str, bool]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> Settings:
        """The settings saved; keys it does not know are left out (a later castle's), a
        value of the wrong kind is :class:`SaveError`."""
        if not isinstance(data, dict):
            raise SaveError(f"not settings: {data!r}")
        names = {f.name for f in fields(cls)}
        known = {k: v for k, v in data.items() if k in names}
        if not all(isinstance(v, bool) for v in known.values()):
            raise SaveError(f"not settings: {data!r}")
        return cls(**known)


__all__ = ["MAX_COUNT", "LevelRecord", "Settings", "count_field"]
