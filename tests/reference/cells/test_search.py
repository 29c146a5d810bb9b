"""The free-cell reference's search (castle.reference.cells) against the Rust solver, state
for state: the same status, states expanded and moves, at a budget the pack's dives end within
or pass, to a win by one dive or another (a dig dive, or the complete dive), to a proof that
there is none (the complete dive's positions, every one reachable, and the dig dives' beside
them), and with the win shortened."""

from __future__ import annotations

import castle
import pytest
from castle import CellsDeal
from castle.reference import cells as ref
from castle.reference.cells.dive import Dive, Steps
from castle.reference.cells.order import DIVE_WEIGHTS
from castle.reference.cells.state import Key
from castle.reference.solver import Budget, Counter, Deadline
from castle.solving.cells import CELLS_VARIANTS, CellsSolution


def assert_same(fast: CellsSolution, slow: CellsSolution) -> None:
    assert (fast.status, fast.states, fast.limit, fast.moves) == (
        slow.status,
        slow.states,
        slow.limit,
        slow.moves,
    )


@pytest.mark.parametrize("variant", CELLS_VARIANTS)
@pytest.mark.parametrize("states", [40, 1_200])
def test_the_reference_matches_the_solver_state_for_state(variant: str, states: int) -> None:
    # Deals 1-3: every one is won by the first dig dive in its first turn (13 to 296
    # positions), within 1,200; at 40, 11 of the 21 end undecided within that turn, and the
    # other 10 are won in fewer.
    for n in (1, 2, 3):
        deal = CellsDeal.from_number(variant, n)
        assert_same(castle.solve(deal, max_states=states), ref.solve(deal, max_states=states))


@pytest.mark.parametrize(
    ("variant", "number", "states", "complete"),
    # A deal the first dig dive runs out of within its first turn (38 positions), the other dig
    # dives then at once, in their first (every step from the deal leads where it has been),
    # and the complete dive in its second (141); and deals that take the complete dive many
    # turns (12, 22 and 22).
    [
        ("stronghold", 23, 179, 141),
        ("bakers-game", 22, 1_151, 1_138),
        ("siegecraft", 191, 2_640, 2_116),
        ("seahaven-towers", 75, 2_567, 2_188),
    ],
)
def test_the_pack_proves_the_same_deals_lost_as_the_complete_dive_alone(
    variant: str, number: int, states: int, complete: int
) -> None:
    deal = CellsDeal.from_number(variant, number)
    fast, slow = castle.solve(deal), ref.solve(deal)
    assert_same(fast, slow)
    assert (slow.status, slow.states) == ("unsolvable", states)
    # Every position reachable, entered once by the complete dive, on a table of its own:
    # alone, it enters as many; the pack's other positions are the dig dives'.
    assert alone(deal) == ("exhausted", complete, complete)
    assert states > complete


def alone(deal: CellsDeal) -> tuple[str, int, int]:
    """How the complete dive alone ends on ``deal``, the positions it expands, and those its
    table holds."""
    table: set[Key] = set()
    counter = Counter()
    end = Dive(deal, DIVE_WEIGHTS[0], None, Steps.ALL).go(table, Budget(None, Deadline()), counter)
    return end.kind, counter.expanded, len(table)


@pytest.mark.parametrize(
    ("variant", "number", "states"),
    # Won in the first round: FreeCell deal 21 by the second dig dive (one with noise), deal
    # 135 by the complete dive; in the third, each dive going on where it stopped: FreeCell
    # deal 9529 by the fourth dig dive in its third turn (the eighth ran out in its first);
    # and Baker's Game deal 34 by the complete dive in its twelfth turn, every dig dive having
    # run out in the first round (their steps leave its win out).
    [
        ("freecell", 21, 444),
        ("freecell", 135, 394),
        ("freecell", 9529, 5_529),
        ("bakers-game", 34, 1_242),
    ],
)
def test_the_reference_matches_the_later_dives(variant: str, number: int, states: int) -> None:
    deal = CellsDeal.from_number(variant, number)
    fast, slow = castle.solve(deal), ref.solve(deal)
    assert_same(fast, slow)
    assert (slow.status, slow.states) == ("solved", states)


@pytest.mark.parametrize("states", [1_200, 4_321])
def test_the_reference_matches_the_solver_stopped_within_a_later_round(states: int) -> None:
    # FreeCell deal 9529 (won at 5,529) stopped in the middle of a dig dive's turn, in the
    # first round (the fourth dig dive's) and the second (the seventh's; the eighth has run
    # out): undecided at the same count.
    deal = CellsDeal.from_number("freecell", 9529)
    fast, slow = castle.solve(deal, max_states=states), ref.solve(deal, max_states=states)
    assert_same(fast, slow)
    assert (slow.status, slow.states, slow.limit) == ("unknown", states, "states")


@pytest.mark.slow
def test_the_pack_proves_freecell_11982_lost_as_the_complete_dive_alone() -> None:
    # The one deal of FreeCell 1-32000 that no play wins: the complete dive runs out, having
    # entered every position reachable, 71,775 (as alone); the dig dives entered 3,933 beside.
    deal = CellsDeal.from_number("freecell", 11982)
    fast, slow = castle.solve(deal), ref.solve(deal)
    assert_same(fast, slow)
    assert (slow.status, slow.states) == ("unsolvable", 75_708)
    assert alone(deal) == ("exhausted", 71_775, 71_775)


@pytest.mark.slow
def test_the_reference_matches_the_solver_after_many_rounds() -> None:
    # The fourth dig dive wins Stronghold deal 57 in its eleventh turn, in the eleventh round
    # (68 turns, 17,204 positions; the sixth, seventh and eighth dig dives ran out in the
    # first).
    deal = CellsDeal.from_number("stronghold", 57)
    fast, slow = castle.solve(deal), ref.solve(deal)
    assert_same(fast, slow)
    assert (slow.status, slow.states) == ("solved", 17_204)


@pytest.mark.parametrize(
    ("variant", "number"), [("freecell", 8), ("private-lane", 7), ("stronghold", 3)]
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
