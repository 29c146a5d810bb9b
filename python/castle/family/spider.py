"""Spider's family (two decks of 1, 2 or 4 suits): face-down cards, a stock dealt a row at a
time, runs of a suit taken off whole."""

from __future__ import annotations

from typing import Any

from ..solving.deal import MAX_DEAL_NUMBER
from ..solving.settings import SolveSettings
from ..solving.spider import SPIDER_VARIANTS, SpiderDeal, SpiderMove, SpiderSolution, solve_spider
from .protocol import AnyDeal, AnyMove, AnySolution


class SpiderFamily:
    """Spider as a :class:`castle.family.Family`."""

    name = "spider"
    title = "Spider"
    variants: tuple[str, ...] = SPIDER_VARIANTS
    save_format = "castle-spider-game"
    solved_words = "the moves below win (deals from the stock and runs taken off included)"
    plays = True
    autoplays = True
    offers_survey = False
    offers_short = False
    offers_spill = False
    rules_section = 4
    shared_play: tuple[str, ...] = (
        "Undo and redo",
        "Saves and Continue",
        "Statistics",
        "Menu and pause",
        "The start and the end",
    )
    tips_heading = "Spider"
    autoplay_settings = frozenset({"fair", "samples", "seed", "max_states"})
    autoplay_verdicts = False

    def owns(self, deal: object) -> bool:
        return isinstance(deal, SpiderDeal)

    def last_deal(self, variant: str) -> int:
        return MAX_DEAL_NUMBER

    def deal(self, variant: str, number: int) -> SpiderDeal:
        return SpiderDeal.from_number(variant, number)

    def read_board(self, text: str, variant: str | None) -> SpiderDeal:
        return SpiderDeal.from_text(text, variant)

    def solve(self, deal: AnyDeal, settings: SolveSettings) -> SpiderSolution:
        assert isinstance(deal, SpiderDeal)  # short and spilling: refused by castle.solve
        return solve_spider(deal, settings)

    def move_text(self, move: AnyMove, arrow: str) -> str:
        """``9S 8S  column 3 → column 8``, ``deal from the stock``, ``off: KS-AS from column 4``."""
        assert isinstance(move, SpiderMove)
        if move.kind == "deal":
            return "deal from the stock"
        assert move.src is not None
        if move.kind == "off":
            return f"off: {move.cards[0]}-{move.cards[-1]} from column {move.src + 1}"
        assert move.dst is not None
        run = " ".join(map(str, move.cards))
        return f"{run}  column {move.src + 1} {arrow} column {move.dst + 1}"

    def solution_json(self, deal: AnyDeal, solution: AnySolution) -> dict[str, Any]:
        assert isinstance(deal, SpiderDeal) and isinstance(solution, SpiderSolution)
        return solution.to_json(deal)


SPIDER = SpiderFamily()

__all__ = ["SPIDER", "SpiderFamily"]
