"""The orbit pass: the reference follows the Rust core expansion for
expansion, its "no" never contradicts a known verdict, and it decides deals the plain search
cannot."""

from __future__ import annotations

from typing import Any

import castle
import castle_lab
import pytest
from castle import reference
from castle.reference.castle import orbits, search
from castle.reference.solver import Budget, Counter, Deadline
from castle.solving.solve import make_move

from .test_layers import KINDS, SMALL_PROOFS, endgame

#: The orbit pass tried at once, and at every fourfold growth of the table after.
AT_ONCE = 1


#: A proof whose orbit pass branches where cards go up, and passes over repeats there.
BRANCHING = ("beleaguered-castle", 71)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "number"), [*SMALL_PROOFS, ("streets-and-alleys", 101), BRANCHING]
)
def test_the_reference_follows_the_orbit_pass_on_proofs(variant: str, number: int) -> None:
    deal = castle.Deal.from_number(variant, number)
    for after in (AT_ONCE, 300):
        status, _, states, _, limit = castle_lab.solve(deal.core, None, 1 << 30, orbits_after=after)
        assert status == "unsolvable"
        slow = reference.solve(deal, orbits_after=after)
        assert (slow.status, slow.states, slow.limit) == (status, states, limit)
    # Cut short inside an orbit pass: the same count, the same limit.
    cut = states - 50
    status, _, states, _, limit = castle_lab.solve(deal.core, cut, 1 << 30, orbits_after=300)
    slow = reference.solve(deal, max_states=cut, orbits_after=300)
    assert (slow.status, slow.states, slow.limit) == (status, states, limit)
    assert status == "unknown"


@pytest.mark.slow
def test_the_branching_deal_branches_and_passes_over_repeats(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # So that the case above follows Rust through branching too, not only straight lines.
    keys: list[object] = []
    within = orbits.within

    def counted(*args: Any) -> tuple[object, ...]:
        keys.append(key := within(*args))
        return key

    monkeypatch.setattr(orbits, "within", counted)
    assert reference.solve(castle.Deal.from_number(*BRANCHING), orbits_after=AT_ONCE).status == (
        "unsolvable"
    )
    assert len(set(keys)) < len(keys)


@pytest.mark.parametrize("variant", castle.VARIANTS)
def test_the_reference_follows_the_orbit_pass_to_a_win(variant: str) -> None:
    # A win the orbit pass cannot prove (it proves only "no"): it comes upon a won position
    # and leaves the deal to the depth-first pass, which wins it, in both.
    wins = 0
    for number in range(1, 9):
        try:
            deal = endgame(variant, number, 36)
        except AssertionError:
            continue  # not a won deal
        status, moves, states, _ = castle_lab.complete_pass(
            deal.core, 5000, None, None, None, AT_ONCE
        )
        counter = Counter()
        end = search.search(
            deal, "complete", Budget(5000, Deadline()), counter, orbits_after=AT_ONCE
        )
        assert (end.kind, counter.expanded) == (KINDS[status], states), number
        assert end.path == [make_move(*m) for m in moves], number
        if status == "solved":
            assert reference.replay(deal, end.path).is_won()
            wins += 1
    assert wins >= 2


def test_a_deal_other_solvers_leave_open_is_proved_lost() -> None:
    # Streets and Alleys 77: undecided by other solvers, and by the plain complete pass in
    # 14 GiB; the orbit pass, tried once the quick pass has run dry, proves it in 48,480
    # states (186 too: tests/core/test_known_verdicts.py).
    deal = castle.Deal.from_number("streets-and-alleys", 77)
    solution = castle.solve(deal)
    assert solution.status == "unsolvable"
    assert solution.states < 3_000_000
