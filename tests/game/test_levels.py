"""The player's levels (castle.game.levels): each picks its deals."""

from __future__ import annotations

import random

import pytest
from castle import Deal
from castle.game.levels import LEVELS, LevelError, is_proven_winnable, pick_deal


def test_levels_pick_their_deals() -> None:
    assert set(LEVELS) == {"easy", "medium", "hard", "citadel", "spider", "spider-2", "spider-1"}
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
    with pytest.raises(LevelError, match="unknown level 'expert'"):
        pick_deal("expert")
