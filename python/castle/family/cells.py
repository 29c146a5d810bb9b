"""The free-cell games' family (FreeCell, Baker's Game, Eight Off, Seahaven Towers and the
castle games with cells): every card in sight, cells that hold one card each. castle solves,
surveys and plays them (``castle autoplay`` excepted: see :attr:`CellsFamily.autoplays`)."""

from __future__ import annotations

from typing import Any

from ..solving.cells import (
    CELLS_VARIANTS,
    CellsDeal,
    CellsMove,
    CellsSolution,
    cells_rules,
    solve_cells,
)
from ..solving.settings import SolveSettings
from .protocol import AnyDeal, AnyMove, AnySolution


class CellsFamily:
    """The free-cell games as a :class:`castle.family.Family`."""

    name = "cells"
    title = "the free-cell games"
    variants: tuple[str, ...] = CELLS_VARIANTS
    plays = True
    # Every card is in sight, so a fair player is the solver itself: ``castle autoplay``
    # would only replay ``castle survey``'s verdicts.
    autoplays = False
    offers_survey = True
    save_format = "castle-cells-game"
    solved_words = "the moves below win (the solver's safe moves to the foundations included)"
    offers_short = True
    offers_spill = False
    rules_section = 6
    shared_play: tuple[str, ...] = (
        "Undo and redo",
        "Saves and Continue",
        "Statistics",
        "Menu and pause",
        "The start and the end",
        "Hints",
        "The score",
    )
    tips_heading = "Free-cell games"
    autoplay_settings: frozenset[str] = frozenset()
    autoplay_verdicts = False

    def owns(self, deal: object) -> bool:
        return isinstance(deal, CellsDeal)

    def last_deal(self, variant: str) -> int:
        return cells_rules(variant).last_deal

    def deal(self, variant: str, number: int) -> CellsDeal:
        return CellsDeal.from_number(variant, number)

    def read_board(self, text: str, variant: str | None) -> CellsDeal:
        return CellsDeal.from_text(text, variant)

    def solve(self, deal: AnyDeal, settings: SolveSettings) -> CellsSolution:
        assert isinstance(deal, CellsDeal)  # spilling: refused by castle.solve
        return solve_cells(deal, settings)

    def move_text(self, move: AnyMove, arrow: str) -> str:
        """``7H  column 4 → cell 2``, ``AS  cell 1 → foundation``."""
        assert isinstance(move, CellsMove)
        return f"{move.card}  {move.src} {arrow} {move.dst}"

    def solution_json(self, deal: AnyDeal, solution: AnySolution) -> dict[str, Any]:
        assert isinstance(deal, CellsDeal) and isinstance(solution, CellsSolution)
        return solution.to_json(deal)


CELLS = CellsFamily()

__all__ = ["CELLS", "CellsFamily"]
