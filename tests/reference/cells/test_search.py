"""The free-cell reference's search (castle.reference.cells) against the Rust solver, state
for state: the same status, states expanded and moves, at a budget the pack's dives end within
or pass, to a win by one dive or another, to a proof that there is none (as many positions as
one dive alone enters), and with the win shortened."""

from __future__ import annotations

from collections.abc import Sequence

import castle
import pytest
from castle import CellsDeal
from castle.reference import cells as ref
from castle.reference.cells.order import DIVE_WEIGHTS, Weights
from castle.reference.cells.pack import pack
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
@pytest.mark.parametrize("states", [300, 1_200])
def test_the_reference_matches_the_solver_state_for_state(variant: str, states: int) -> None:
    # Deals 1-3: at 300 states some end undecided in the first dive's turn, at 1,200 in the
    # third dive's; most are won on the way, by one dive or another.
    for n in (1, 2, 3):
        deal = CellsDeal.from_number(variant, n)
        assert_same(castle.solve(deal, max_states=states), ref.solve(deal, max_states=states))


@pytest.mark.parametrize(
    ("variant", "number", "states"),
    # A deal the first dive proves lost within its first turn (the others then run out at
    # once: every step from the deal leads where it has been), and deals that take every dive
    # several turns (their last dives run out in the second round).
    [
        ("stronghold", 23, 141),
        ("bakers-game", 22, 1_138),
        ("siegecraft", 191, 2_116),
        ("seahaven-towers", 75, 2_188),
    ],
)
def test_the_pack_proves_the_same_deals_lost_as_one_dive_alone(
    variant: str, number: int, states: int
) -> None:
    deal = CellsDeal.from_number(variant, number)
    fast, slow = castle.solve(deal), ref.solve(deal)
    assert_same(fast, slow)
    assert (slow.status, slow.states) == ("unsolvable", states)
    # Every position reachable, entered once by one dive or another.
    assert alone(deal, DIVE_WEIGHTS[:1]) == ("exhausted", states)


def alone(deal: CellsDeal, weights: Sequence[Weights]) -> tuple[str, int]:
    """How the pack of ``weights`` ends on ``deal``, and its positions."""
    counter = Counter()
    end = pack(deal, weights, Budget(None, Deadline()), counter)
    return end.kind, counter.expanded


@pytest.mark.parametrize(
    ("variant", "number", "states"),
    # Won by a dive with noise, in the first round: FreeCell deal 5 by the third dive, Baker's
    # Game deal 2 by the fourth; in the second, each dive going on where it stopped: Baker's
    # Game deal 1 by the sixth.
    [("freecell", 5, 1_277), ("bakers-game", 2, 1_544), ("bakers-game", 1, 6_636)],
)
def test_the_reference_matches_the_later_dives(variant: str, number: int, states: int) -> None:
    deal = CellsDeal.from_number(variant, number)
    fast, slow = castle.solve(deal), ref.solve(deal)
    assert_same(fast, slow)
    assert (slow.status, slow.states) == ("solved", states)


@pytest.mark.parametrize("states", [2_345, 4_321])
def test_the_reference_matches_the_solver_stopped_within_a_later_round(states: int) -> None:
    # Baker's Game deal 1 stopped in the middle of a dive's turn, in the first round and the
    # second: undecided at the same count.
    deal = CellsDeal.from_number("bakers-game", 1)
    fast, slow = castle.solve(deal, max_states=states), ref.solve(deal, max_states=states)
    assert_same(fast, slow)
    assert (slow.status, slow.states, slow.limit) == ("unknown", states, "states")


@pytest.mark.slow
def test_the_pack_proves_freecell_11982_lost_as_one_dive_alone() -> None:
    # The one deal of FreeCell 1-32000 that no play wins: every dive runs out, having entered
    # 71,775 positions between them, as many as the first dive enters alone.
    deal = CellsDeal.from_number("freecell", 11982)
    fast, slow = castle.solve(deal), ref.solve(deal)
    assert_same(fast, slow)
    assert (slow.status, slow.states) == ("unsolvable", 71_775)
    assert alone(deal, DIVE_WEIGHTS[:1]) == ("exhausted", 71_775)


@pytest.mark.slow
def test_the_reference_matches_the_solver_after_many_rounds() -> None:
    # The sixth dive wins Stronghold deal 5 in its fourth turn (30 turns, 14,507 positions).
    deal = CellsDeal.from_number("stronghold", 5)
    fast, slow = castle.solve(deal), ref.solve(deal)
    assert_same(fast, slow)
    assert (slow.status, slow.states) == ("solved", 14_507)


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
