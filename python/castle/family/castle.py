"""The castle games' family (Beleaguered Castle, Streets and Alleys, Citadel): every card in
sight, one card moved at a time, the foundations built up by suit."""

from __future__ import annotations

from typing import Any

from ..solving.deal import MAX_DEAL_NUMBER, Deal
from ..solving.settings import SolveSettings
from ..solving.solution import FOUNDATION, Move, Solution, solve_castle
from ..variants import VARIANTS
from .protocol import AnyDeal, AnyMove, AnySolution


class CastleFamily:
    """The castle games as a :class:`castle.family.Family`."""

    name = "castle"
    title = "the castle games"
    variants: tuple[str, ...] = VARIANTS
    save_format = "castle-game"
    solved_words = "the moves below win (automatic foundation moves included)"
    plays = True
    autoplays = True
    offers_survey = True
    offers_short = True
    offers_spill = True
    rules_section = 1
    # The game of §3 itself: its players' guide reads all of §3.
    shared_play: tuple[str, ...] = ()
    tips_heading = "Castle games"
    autoplay_settings = frozenset({"max_states", "max_seconds"})
    autoplay_verdicts = True

    def owns(self, deal: object) -> bool:
        return isinstance(deal, Deal)

    def last_deal(self, variant: str) -> int:
        return MAX_DEAL_NUMBER

    def deal(self, variant: str, number: int) -> Deal:
        return Deal.from_number(variant, number)

    def read_board(self, text: str, variant: str | None) -> Deal:
        return Deal.from_text(text, variant)

    def solve(self, deal: AnyDeal, settings: SolveSettings) -> Solution:
        assert isinstance(deal, Deal)
        return solve_castle(deal, settings)

    def move_text(self, move: AnyMove, arrow: str) -> str:
        """``7H  column 4 → column 6``, ``AS  column 2 → foundation``."""
        assert isinstance(move, Move)
        dst = f"column {move.dst + 1}" if isinstance(move.dst, int) else FOUNDATION
        return f"{move.card}  column {move.src + 1} {arrow} {dst}"

    def solution_json(self, deal: AnyDeal, solution: AnySolution) -> dict[str, Any]:
        assert isinstance(deal, Deal) and isinstance(solution, Solution)
        return solution.to_json(deal)


CASTLE = CastleFamily()

__all__ = ["CASTLE", "CastleFamily"]
