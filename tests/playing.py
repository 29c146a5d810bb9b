"""What tests that play a game ask of it (shared by the player's tests and the saves')."""

from __future__ import annotations

import castle


def tappable(game: castle.Game, column: int) -> bool:
    """Whether a tap on ``column`` would move a card (asked of a copy: ``game`` is untouched)."""
    try:
        castle.Game(game.position).tap(column)
    except castle.IllegalMoveError:
        return False
    return True
