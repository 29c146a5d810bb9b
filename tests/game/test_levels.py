"""The player's levels (castle.game.levels): each picks its deals."""

from __future__ import annotations

import random

import pytest
from castle import CELLS_VARIANTS, CellsDeal, Deal, solve
from castle.game.levels import (
    LEVELS,
    LevelError,
    is_proven_winnable,
    numbered_deal,
    pick_deal,
)


def test_levels_pick_their_deals() -> None:
    castle_and_spider = {"easy", "medium", "hard", "citadel", "spider", "spider-2", "spider-1"}
    assert set(LEVELS) == castle_and_spider | {"freecell", "freecell-easy", *CELLS_VARIANTS}
    rng = random.Random(7)
    for _ in range(3):
        easy = pick_deal("easy", rng)
        assert isinstance(easy, Deal) and is_proven_winnable(easy)
        assert easy.variant == "beleaguered-castle"
    assert pick_deal("medium", rng).variant == "beleaguered-castle"
    assert pick_deal("spider-2", rng).variant == "spider-2"
    assert pick_deal("hard", rng).variant == "streets-and-alleys"
    assert pick_deal("citadel", rng).variant == "citadel"
    assert pick_deal("easy", random.Random(3)) == pick_deal("easy", random.Random(3))
    freecell = pick_deal("freecell-easy", rng)
    assert isinstance(freecell, CellsDeal) and freecell.variant == "freecell"
    assert solve(freecell, max_states=200_000).status == "solved"
    assert pick_deal("eight-off", rng).variant == "eight-off"
    with pytest.raises(LevelError, match="unknown level 'expert'"):
        pick_deal("expert")


def test_easy_freecell_refuses_a_deal_the_solver_proves_lost() -> None:
    # FreeCell deal 11982 is lost (a complete search): FreeCell deals it, Easy FreeCell not.
    assert numbered_deal("freecell", 11982) == CellsDeal.from_number("freecell", 11982)
    with pytest.raises(LevelError, match=r"Easy FreeCell plays only those \(try --level freecell"):
        numbered_deal("freecell-easy", 11982)
    assert numbered_deal("freecell-easy", 1).number == 1
