"""castle: Beleaguered Castle, Streets and Alleys, Citadel and Spider; deals, a complete solver,
and a game.

>>> import castle
>>> deal = castle.Deal.from_number("beleaguered-castle", 2)
>>> castle.solve(deal).status
'solved'
"""

from __future__ import annotations

from importlib import metadata

from . import actions
from .actions import ActionError, TableAction
from .cards import CARDS, RANKS, SUITS, Card
from .deal import MAX_DEAL_NUMBER, Deal, parse_deal_range
from .errors import (
    BoardError,
    CastleError,
    IllegalMoveError,
    LimitError,
    SaveError,
    VariantError,
)
from .game import Action, Game
from .levels import LEVELS, Level, LevelError
from .outcome import DEFAULT_MAX_MEMORY, Progress
from .plan import Hint
from .records import LevelRecord
from .saves import SaveStore
from .solve import FOUNDATION, Move, Solution, solve
from .spider import SPIDER_VARIANTS, SpiderDeal, SpiderMove, SpiderSolution
from .spider_game import SpiderGame, SpiderHint
from .table import Reply, Table
from .variants import DEFAULT_VARIANT, VARIANTS
from .view import ColumnView, Lift, View

#: The installed distribution's version, which maturin takes from Cargo.toml.
__version__ = metadata.version("castle-solitaire")

__all__ = [
    "CARDS",
    "DEFAULT_MAX_MEMORY",
    "DEFAULT_VARIANT",
    "FOUNDATION",
    "LEVELS",
    "MAX_DEAL_NUMBER",
    "RANKS",
    "SPIDER_VARIANTS",
    "SUITS",
    "VARIANTS",
    "Action",
    "ActionError",
    "BoardError",
    "Card",
    "CastleError",
    "ColumnView",
    "Deal",
    "Game",
    "Hint",
    "IllegalMoveError",
    "Level",
    "LevelError",
    "LevelRecord",
    "Lift",
    "LimitError",
    "Move",
    "Progress",
    "Reply",
    "SaveError",
    "SaveStore",
    "Solution",
    "SpiderDeal",
    "SpiderGame",
    "SpiderHint",
    "SpiderMove",
    "SpiderSolution",
    "Table",
    "TableAction",
    "VariantError",
    "View",
    "actions",
    "parse_deal_range",
    "solve",
]
