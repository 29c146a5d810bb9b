"""A new game at any level: castle levels make a :class:`castle.Game`, Spider levels a
:class:`castle.SpiderGame`, the free-cell levels a :class:`castle.CellsGame` (the player's
screens and line mode start games through this)."""

from __future__ import annotations

import random
import time
from typing import Union, cast

from ..saves.store import SaveStore
from .cells_game import CellsGame
from .game import Game
from .levels import level, level_family, numbered_deal
from .playclock import Clock
from .played import Played
from .spider_game import SpiderGame

AnyGame = Union[Game, SpiderGame, CellsGame]


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
    # The family's game class, entered in Played.KINDS by its save format as it was defined.
    kind = cast("type[AnyGame]", Played.KINDS[level_family(chosen).save_format])
    return kind.new(chosen, deal=deal, store=store, clock=clock, rng=rng)


__all__ = ["AnyGame", "new_game"]
