"""A new game at any level: castle levels make a :class:`castle.Game`, Spider levels a
:class:`castle.SpiderGame` (the player's screens and line mode start games through this)."""

from __future__ import annotations

import random
import time
from typing import Union

from .game import Game
from .levels import is_spider, level, numbered_deal
from .playclock import Clock
from .saves import SaveStore
from .spider_game import SpiderGame

AnyGame = Union[Game, SpiderGame]


def new_game(
    level_id: str,
    store: SaveStore | None = None,
    deal_number: int | None = None,
    *,
    clock: Clock = time.monotonic,
    rng: random.Random | None = None,
) -> AnyGame:
    """A new game at the level: deal ``deal_number``, or one the level picks. An unfinished
    saved game with a move made counts as a loss first. Easy refuses a deal the solver does
    not win quickly (:class:`castle.LevelError`)."""
    chosen = level(level_id).id
    deal = None if deal_number is None else numbered_deal(chosen, deal_number)
    kind: type[AnyGame] = SpiderGame if is_spider(chosen) else Game
    return kind.new(chosen, deal=deal, store=store, clock=clock, rng=rng)


__all__ = ["AnyGame", "new_game"]
