"""The Spider reference (castle.reference.spider) against the Rust solver, state for state."""

from __future__ import annotations

import castle
import pytest
from castle import SpiderDeal, SpiderGame
from castle.reference import spider as ref
from castle.reference.spider.search import Slice
from castle.solving.settings import SolveSettings
from castle.solving.spider import solve_spider
from castle.surveys.autoplay import play


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "number", "left", "states", "width"),
    # Positions some moves before the end of the solver's own win, so that the reference wins
    # within a test's time (the first beam wins; the win is shortened), a whole deal, and one
    # beam of a given width (the fair hint's samples).
    [
        ("spider-1", 1, 15, 10_000, None),
        ("spider-2", 3, 10, 10_000, None),
        ("spider", 2, 10, 10_000, None),
        ("spider", 2, None, 1_500, None),
        ("spider-1", 3, 20, 8_000, 100),
    ],
)
def test_the_reference_matches_the_solver_state_for_state(
    variant: str, number: int, left: int | None, states: int, width: int | None
) -> None:
    deal = SpiderDeal.from_number(variant, number)
    if left is not None:
        line = castle.solve(deal, max_seconds=30).moves
        game = SpiderGame(deal)
        for move in line[: len(line) - left]:
            play(game, move)
        deal = game.position
    fast = solve_spider(deal, SolveSettings(max_states=states), beam_width=width)
    slow = ref.solve(deal, max_states=states, beam_width=width)
    assert (fast.status, fast.states, fast.moves) == (slow.status, slow.states, slow.moves)
    assert left is None or fast.status == "solved"


@pytest.mark.slow
def test_the_references_slice_is_the_complete_search_cut_short() -> None:
    # As spider/search.rs's test: the complete search wins one-suit deal 946 (which every beam
    # of the portfolio fails) in 4,335 positions; a slice that long is that win, and a slice of
    # half costs its half before the complete search starts over.
    deal = SpiderDeal.from_number("spider-1", 946)
    whole = ref.solve(deal, steps=())
    assert (whole.status, whole.states) == ("solved", 4_335)
    sliced = ref.solve(deal, steps=(Slice(4_335),))
    assert (sliced.moves, sliced.states) == (whole.moves, 4_335)
    cut = ref.solve(deal, steps=(Slice(4_335 // 2),))
    assert (cut.moves, cut.states) == (whole.moves, 4_335 // 2 + 4_335)
