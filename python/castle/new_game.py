"""A new game at any level: castle levels make a :class:`castle.Game`, Spider levels a
:class:`castle.SpiderGame` (the player's screens and line mode start games through this)."""

from __future__ import annotations

import random
import time
from typing import Union

from .deal import Deal
from .game import Game
from .levels import LevelError, is_proven_winnable, is_spider, level
from .playclock import Clock
from .saves import SaveStore
from .spider import SpiderDeal
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
    chosen = level(level_id)
    if is_spider(level_id):
        deal = None if deal_number is None else SpiderDeal.from_number(chosen.variant, deal_number)
        return SpiderGame.new(chosen.id, deal=deal, store=store, clock=clock, rng=rng)
    if deal_number is None:
        return Game.new(chosen.id, store=store, clock=clock, rng=rng)
    castle_deal = Deal.from_number(chosen.variant, deal_number)
    if chosen.winnable_only and not is_proven_winnable(castle_deal):
        raise LevelError(
            f"deal {deal_number} is not one the solver wins quickly: Easy plays only those "
            "(try --level medium)"
        )
    return Game.new(chosen.id, deal=castle_deal, store=store, clock=clock, rng=rng)


__all__ = ["AnyGame", "new_game"]
