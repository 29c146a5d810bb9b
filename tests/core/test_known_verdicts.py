"""The solver against known truth: PySolFC deals 1-200 of each castle variant, as decided by
other solvers (tests/data/known-verdicts.tsv). Every claimed win replays to a win through
the reference rules; no verdict may contradict the file."""

from __future__ import annotations

from collections import Counter

import castle
import castle_lab
import pytest
from castle.reference import replay
from castle.solving.solve import make_move
from verdicts import known_verdicts

# A state budget (not seconds) keeps the test deterministic on any machine.
MAX_STATES = 2_000_000
# Deals this budget leaves undecided. Other solvers leave 77 and 186 undecided too; 29 is a
# known win that needs more. The solver may decide more than this, never fewer.
HARD = {("streets-and-alleys", 29), ("streets-and-alleys", 77), ("streets-and-alleys", 186)}


@pytest.fixture(scope="module")
def outcomes() -> dict[tuple[str, int], tuple[str, castle.Solution]]:
    out = {}
    for (variant, number), verdict in known_verdicts().items():
        deal = castle.Deal.from_number(variant, number)
        out[variant, number] = (verdict, castle.solve(deal, max_states=MAX_STATES))
    return out


def test_the_file_has_every_deal() -> None:
    counts = Counter(v for v, _ in known_verdicts())
    assert counts == {"beleaguered-castle": 200, "streets-and-alleys": 200, "citadel": 200}


@pytest.mark.slow
def test_no_verdict_contradicts_the_known_ones(
    outcomes: dict[tuple[str, int], tuple[str, castle.Solution]],
) -> None:
    wrong = [
        (key, verdict, s.status)
        for key, (verdict, s) in outcomes.items()
        if (verdict, s.status) in {("winnable", "unsolvable"), ("unwinnable", "solved")}
    ]
    assert wrong == []


@pytest.mark.slow
def test_every_claimed_win_replays(
    outcomes: dict[tuple[str, int], tuple[str, castle.Solution]],
) -> None:
    for (variant, number), (_, s) in outcomes.items():
        if s.status == "solved":
            state = replay(castle.Deal.from_number(variant, number), s.moves)
            assert state.is_won(), (variant, number)


@pytest.mark.slow
def test_beleaguered_castle_1_to_200_is_decided_134_to_66(
    outcomes: dict[tuple[str, int], tuple[str, castle.Solution]],
) -> None:
    statuses = Counter(s.status for (v, _), (_, s) in outcomes.items() if v == "beleaguered-castle")
    assert statuses == {"solved": 134, "unsolvable": 66}
    # Deal 67 is a win a well-known solver gives up; deal 48 needs tens of millions of
    # positions for a plain depth-first search.
    assert outcomes["beleaguered-castle", 67][1].status == "solved"
    assert outcomes["beleaguered-castle", 48][1].status == "solved"


@pytest.mark.slow
def test_only_the_known_hard_deals_stay_undecided(
    outcomes: dict[tuple[str, int], tuple[str, castle.Solution]],
) -> None:
    undecided = {key for key, (_, s) in outcomes.items() if s.status == "unknown"}
    assert undecided <= HARD


@pytest.mark.slow
def test_the_orbit_pass_never_contradicts_the_known_ones() -> None:
    # The orbit pass tried at once, and at every fourfold growth of the complete pass's table
    # after: its "no" is a proof, so no winnable deal may end unsolvable, and every deal the
    # file decides is decided the same way (the two it leaves open, Streets and Alleys 77 and
    # 186, it proves lost).
    got = {}
    for (variant, number), verdict in known_verdicts().items():
        if (variant, number) == ("streets-and-alleys", 29):
            # A win the depth-first pass finds after 15 million states (35 s here): the orbit
            # pass's tries only slow it.
            continue
        deal = castle.Deal.from_number(variant, number)
        status, moves, *_ = castle_lab.solve(deal.core, None, 1 << 30, orbits_after=1)
        got[variant, number] = status
        if status == "solved":
            state = replay(deal, [make_move(*m) for m in moves])
            assert state.is_won(), (variant, number)
        want = {"winnable": "solved", "unwinnable": "unsolvable", "unknown": "unsolvable"}
        assert status == want[verdict], (variant, number, verdict)
    assert len(got) == 599
