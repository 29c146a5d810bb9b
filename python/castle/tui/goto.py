"""Where the player goes next: what a screen hands back when it closes (Textual's ``dismiss``,
received by the callback given to ``push_screen``). The results and the menu hand it to the
table under them, the table and the level picker to the app, which alone opens the screen it
names: the screens need not know the app."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ..game.new_game import AnyGame


@dataclass(frozen=True)
class Play:
    """Play ``game`` (the picker's Continue)."""

    game: AnyGame


@dataclass(frozen=True)
class NewDeal:
    """A new deal at ``level_id`` (deal number ``deal``, else one the level picks); when it
    counts an unfinished game as lost, the player has said yes to that already."""

    level_id: str
    deal: int | None = None


@dataclass(frozen=True)
class Levels:
    """The level picker."""


#: Where a screen sends the player.
Goto = Union[Play, NewDeal, Levels]

__all__ = ["Goto", "Levels", "NewDeal", "Play"]
