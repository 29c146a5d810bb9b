"""castle: Beleaguered Castle, Streets and Alleys, Citadel and Spider; deals, a complete solver,
and a game.

>>> import castle
>>> deal = castle.Deal.from_number("beleaguered-castle", 2)
>>> castle.solve(deal).status
'solved'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# The solver's names, at once: castle.solve is both a module and its function, and the
# function must be the package's ``solve`` (a submodule first imported later would be set on the
# package under that name). Their modules are those castle.solve loads anyway.
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
from .known import known_verdict
from .lazy import lazy_names
from .outcome import DEFAULT_MAX_MEMORY, Progress
from .solve import FOUNDATION, Move, Solution, solve
from .spider import SPIDER_VARIANTS, SpiderDeal, SpiderMove, SpiderSolution
from .variants import DEFAULT_VARIANT, VARIANTS

if TYPE_CHECKING:
    from . import actions
    from .actions import ActionError, TableAction
    from .game import Action, Game
    from .levels import LEVELS, Level, LevelError
    from .plan import Hint
    from .records import LevelRecord
    from .saves import SaveStore
    from .spider_game import SpiderGame, SpiderHint
    from .table import Reply, Table
    from .version import __version__ as __version__
    from .view import ColumnView, Lift, View
else:
    # The player's names and the installed version, on first use: the game, its table, the
    # saves (platformdirs) and importlib.metadata would be most of import castle's time, and the
    # solver's commands never use them.
    __getattr__ = lazy_names(
        __name__,
        {
            "actions": "castle.actions",
            "ActionError": "castle.actions",
            "TableAction": "castle.actions",
            "Action": "castle.game",
            "Game": "castle.game",
            "LEVELS": "castle.levels",
            "Level": "castle.levels",
            "LevelError": "castle.levels",
            "Hint": "castle.plan",
            "LevelRecord": "castle.records",
            "SaveStore": "castle.saves",
            "SpiderGame": "castle.spider_game",
            "SpiderHint": "castle.spider_game",
            "Reply": "castle.table",
            "Table": "castle.table",
            "__version__": "castle.version",
            "ColumnView": "castle.view",
            "Lift": "castle.view",
            "View": "castle.view",
        },
    )

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
    "known_verdict",
    "parse_deal_range",
    "solve",
]
