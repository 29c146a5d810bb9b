"""The terminal player driven by Textual's pilot, as its tests drive it (``tests/tui/``): an app
run at a size, what its message line says, which places are marked, the keys of a move; and
the positions those tests play."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import castle
from castle import Deal, SpiderDeal
from castle.tui.app import CastleApp
from textual.pilot import Pilot
from textual.widgets import Static

DEAL = Deal.from_number("beleaguered-castle", 2)

#: Every foundation at 6; column 1 ends in a run of three (9S 8D 7C) that two empty columns
#: (3 and 8) let move onto the TH of column 2; column 6 ends TS 7S, not a run. The 7H under
#: the 8H keeps the game from finishing itself.
RUNS = Deal.from_text(
    "Foundations: C-6 D-6 H-6 S-6\n"
    ": 9S 8D 7C\n: KD TH\n:\n: KC QC JC TC 9C 8C 7D\n: 7H KH QH JH 9H 8H\n"
    ": KS QS JS TS 7S\n: QD JD TD 9D 8S\n:\n",
    "beleaguered-castle",
)

SPIDER_ENDGAME = SpiderDeal.from_text(
    "Stock:\nOff: S S S S S S\n"
    "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S | AS\n"
    "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S\nAS\n:\n:\n:\n:\n:\n:\n:\n"
)

Play = Callable[[CastleApp, Pilot[None]], Awaitable[None]]


def run(app: CastleApp, play: Play, size: tuple[int, int] = (100, 40)) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await play(app, pilot)

    asyncio.run(main())


def card_row(card: int) -> tuple[int, int]:
    """Where to press on card ``card`` of a column (bottom 0): under the column's number."""
    return (2, 1 + card)


def message(app: CastleApp) -> str:
    return str(app.screen.query_one("#message", Static).render())


def marked(app: CastleApp) -> set[str]:
    return {str(w.id) for w in app.screen.query(".target")}


def thinking(app: CastleApp) -> bool:
    return bool(app.screen.query_one("#thinking", Static).display)


def keys_for(move: castle.Move) -> list[str]:
    """The key presses that make ``move``: its column, then its destination (or f)."""
    to = "f" if move.dst == castle.FOUNDATION else str(int(move.dst) + 1)
    return [str(move.src + 1), to]
