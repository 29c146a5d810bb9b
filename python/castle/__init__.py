"""castle: Beleaguered Castle, Streets and Alleys, Citadel and Spider; deals, a complete solver,
and a game. The free-cell games (FreeCell, Baker's Game, Eight Off, Seahaven Towers, ...):
deals, a complete solver and a game.

>>> import castle
>>> deal = castle.Deal.from_number("beleaguered-castle", 2)
>>> castle.solve(deal).status
'solved'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# The solver's names, at once (their modules are those any solve loads anyway); the player's
# names below, on first use.
from .cards import CARDS, RANKS, SUITS, Card
from .errors import (
    BoardError,
    CastleError,
    IllegalMoveError,
    LimitError,
    SaveError,
    VariantError,
)
from .lazy import lazy_names
from .solving.cells import CELLS_VARIANTS, CellsDeal, CellsMove, CellsSolution
from .solving.deal import MAX_DEAL_NUMBER, Deal, parse_deal_range
from .solving.known import known_verdict
from .solving.outcome import DEFAULT_MAX_MEMORY, Progress
from .solving.solve import FOUNDATION, Move, Solution, solve
from .solving.spider import SPIDER_VARIANTS, SpiderDeal, SpiderMove, SpiderSolution
from .variants import DEFAULT_VARIANT, VARIANTS

if TYPE_CHECKING:
    from . import actions
    from .actions import ActionError, TableAction
    from .game.cells_game import CellsAction, CellsGame
    from .game.game import Action, Game
    from .game.levels import LEVELS, Level, LevelError
    from .game.plan import Hint
    from .game.spider_game import SpiderGame, SpiderHint
    from .saves.records import LevelRecord
    from .saves.store import SaveStore
    from .table.table import Reply, Table
    from .table.view import ColumnView, Lift, View
    from .version import __version__ as __version__
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
            "Action": "castle.game.game",
            "CellsAction": "castle.game.cells_game",
            "CellsGame": "castle.game.cells_game",
            "Game": "castle.game.game",
            "LEVELS": "castle.game.levels",
            "Level": "castle.game.levels",
            "LevelError": "castle.game.levels",
            "Hint": "castle.game.plan",
            "LevelRecord": "castle.saves.records",
            "SaveStore": "castle.saves.store",
            "SpiderGame": "castle.game.spider_game",
            "SpiderHint": "castle.game.spider_game",
            "Reply": "castle.table.table",
            "Table": "castle.table.table",
            "__version__": "castle.version",
            "ColumnView": "castle.table.view",
            "Lift": "castle.table.view",
            "View": "castle.table.view",
        },
    )

__all__ = [
    "CARDS",
    "CELLS_VARIANTS",
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
    "CellsAction",
    "CellsDeal",
    "CellsGame",
    "CellsMove",
    "CellsSolution",
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
