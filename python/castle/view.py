"""What every front end shows of a game, worded once: the status line (level, deal, moves,
time, score, and each game's own count). The start of the game core's front-end-neutral view
(issue 16); the terminal player and the line mode both draw it."""

from __future__ import annotations

from .levels import level
from .new_game import AnyGame
from .spider_game import SpiderGame
from .words import clock_text


def status_line(game: AnyGame) -> str:
    """``Medium · deal 2 · moves 1 · time 0:04 · score 0 · cards up 4/52``."""
    line = (
        f"{level(game.level).name} · {game.deal_name} · moves {game.moves} · "
        f"time {clock_text(game.seconds)} · score {game.score}"
    )
    if isinstance(game, SpiderGame):
        return line + f" · stock {game.stock} · runs off {len(game.off)}/8"
    return line + f" · cards up {game.progress}/52"


__all__ = ["status_line"]
