"""The player's statistics per level (docs/rules.md §3): wins, losses, win percentage, current and
best streaks of wins."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .errors import SaveError


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
        values = [data[k] for k in ("wins", "losses", "streak", "best_streak")]
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values):
            raise SaveError(f"not a level record: {data!r}")
        record = cls(*values)
        if record.streak > record.best_streak or record.best_streak > record.wins:
            raise SaveError(f"inconsistent level record: {data!r}")
        return record

    def __str__(self) -> str:
        percentage = "-" if self.win_percentage is None else f"{self.win_percentage:.0f}%"
        return (
            f"{self.wins} won, {self.losses} lost ({percentage}); "
            f"streak {self.streak}, best {self.best_streak}"
        )


__all__ = ["LevelRecord"]
