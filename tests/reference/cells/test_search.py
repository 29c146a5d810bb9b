"""The free-cell reference's search (castle.reference.cells) against the Rust solver, state
for state: the same status, states expanded and moves, at a budget the portfolio's tries end
within or pass, to a win, to a proof that there is none, and with the win shortened."""

from __future__ import annotations

import castle
import pytest
from castle import CellsDeal
from castle.reference import cells as ref
from castle.solving.cells import CELLS_VARIANTS, CellsSolution


def assert_same(fast: CellsSolution, slow: CellsSolution) -> None:
    assert (fast.status, fast.states, fast.limit, fast.moves) == (
        slow.status,
        slow.states,
        slow.limit,
        slow.moves,
    )


@pytest.mark.parametrize("variant", CELLS_VARIANTS)
@pytest.mark.parametrize("states", [300, 1_200])
def test_the_reference_matches_the_solver_state_for_state(variant: str, states: int) -> None:
    # Deals 1-3: at 300 states some end undecided in the first dive, at 1,200 in the fourth
    # try (the first dive's second round); most are won on the way, by one try or another.
    for n in (1, 2, 3):
        deal = CellsDeal.from_number(variant, n)
        assert_same(castle.solve(deal, max_states=states), ref.solve(deal, max_states=states))


@pytest.mark.parametrize(
    ("variant", "number", "states"),
    # Deals the first dive proves lost in a few hundred positions, and one it proves lost in
    # its second round (459 positions of its own, after 600 of the other two dives).
    [("stronghold", 23, 141), ("stronghold", 18, 177), ("siegecraft", 23, 1_059)],
)
def test_the_reference_proves_the_same_deals_lost(variant: str, number: int, states: int) -> None:
    deal = CellsDeal.from_number(variant, number)
    fast, slow = castle.solve(deal), ref.solve(deal)
    assert_same(fast, slow)
    assert (slow.status, slow.states) == ("unsolvable", states)


@pytest.mark.parametrize(
    ("variant", "number", "states"),
    # Won in the dives' second round, each dive going on where it stopped: FreeCell deal 1 and
    # Baker's Game deal 2 by the first weights' dive, Stronghold deal 54 by the third's.
    [("freecell", 1, 1_014), ("bakers-game", 2, 1_182), ("stronghold", 54, 1_690)],
)
def test_the_reference_matches_the_dives_second_round(
    variant: str, number: int, states: int
) -> None:
    deal = CellsDeal.from_number(variant, number)
    fast, slow = castle.solve(deal), ref.solve(deal)
    assert_same(fast, slow)
    assert (slow.status, slow.states) == ("solved", states)


@pytest.mark.slow
def test_the_reference_matches_the_solver_past_the_dives() -> None:
    # Every dive gives up (1,800 positions); the first best-first try too (500); the second
    # wins Seahaven Towers deal 1.
    deal = CellsDeal.from_number("seahaven-towers", 1)
    fast, slow = castle.solve(deal), ref.solve(deal)
    assert_same(fast, slow)
    assert (slow.status, slow.states) == ("solved", 2_799)


@pytest.mark.slow
def test_the_reference_matches_the_complete_search_after_the_tries() -> None:
    # Every try of the portfolio gives up (17,800 positions in all); the complete search,
    # ranked with the steps from the deal, wins in 448 more.
    deal = CellsDeal.from_number("stronghold", 5)
    fast, slow = castle.solve(deal), ref.solve(deal)
    assert_same(fast, slow)
    assert (slow.status, slow.states) == ("solved", 18_248)


@pytest.mark.parametrize(
    ("variant", "number"), [("freecell", 7), ("private-lane", 7), ("stronghold", 3)]
)
def test_the_shortened_wins_are_the_solvers(variant: str, number: int) -> None:
    # Deals whose win the walk through its positions makes shorter.
    deal = CellsDeal.from_number(variant, number)
    fast = castle.solve(deal, short=True)
    slow = ref.solve(deal, short=True)
    assert_same(fast, slow)
    assert ref.replay(deal, slow.moves).is_won()
    assert len(slow.moves) < len(ref.solve(deal).moves)


def test_a_deal_won_by_the_safe_moves_alone_is_won_at_once() -> None:
    deal = CellsDeal.from_text(
        "Foundations: H-Q C-K D-K S-K\nFreecells: KH - - -\n:\n:\n:\n:\n:\n:\n:\n:\n"
    )
    fast, slow = castle.solve(deal), ref.solve(deal)
    assert_same(fast, slow)
    assert (slow.status, slow.states, len(slow.moves)) == ("solved", 0, 1)
