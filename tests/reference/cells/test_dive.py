"""The free-cell reference's depth-first search (castle.reference.cells.dive): stopped now and
then, it goes on where it stopped; run out, a complete dive has been everywhere, whatever its
order, and a dig dive has not (it parks a card alone only in a dig); on a table another dive
has closed it finds nothing left; its noise is xorshift64's."""

from __future__ import annotations

import pytest
from castle import CellsDeal
from castle.reference.cells import CellsState, replay
from castle.reference.cells.dive import MASK, Dive, Noise, Steps
from castle.reference.cells.order import DIVE_WEIGHTS, WEIGHTS
from castle.reference.cells.state import Key
from castle.reference.cells.steps import Dig, Step, generate, generate_digs, generate_runs
from castle.reference.solver import Budget, Counter, Deadline, Stop
from castle.solving.cells import CellsMove


def unlimited() -> Budget:
    return Budget(None, Deadline())


@pytest.mark.parametrize("number", [1, 2, 3])
@pytest.mark.parametrize("noise", [None, 5])
@pytest.mark.parametrize("steps", list(Steps))
def test_a_dive_goes_on_where_it_stopped(number: int, noise: int | None, steps: Steps) -> None:
    deal = CellsDeal.from_number("freecell", number)

    def dive() -> Dive:
        return Dive(deal, WEIGHTS, None if noise is None else Noise(8, noise), steps)

    straight = Counter()
    once = dive().go(set(), unlimited(), straight)
    # Won after many stops (tens to hundreds of positions).
    assert once.kind == "won" and straight.expanded > 20
    assert replay(deal, once.path).is_won()
    stopping, table, stopped = dive(), set[Key](), Counter()
    while True:
        until = stopped.expanded + 7
        end = stopping.go(table, Budget(until, Deadline()), stopped)
        if not (end.kind == "limit" and end.stop == Stop.STATES):
            break
        assert stopped.expanded == until
    assert (end.kind, end.path, stopped.expanded) == ("won", once.path, straight.expanded)


@pytest.mark.parametrize(("variant", "number"), [("bakers-game", 22), ("seahaven-towers", 75)])
def test_a_dive_that_runs_out_has_been_everywhere(variant: str, number: int) -> None:
    # Deals no play wins: dives with and without noise, and with other weights, run out having
    # expanded as many positions, each entered once (every position reachable, whatever the
    # order).
    deal = CellsDeal.from_number(variant, number)
    counts = set()
    for weights, noise in [
        (WEIGHTS, None),
        (WEIGHTS, Noise(8, 5)),
        (DIVE_WEIGHTS[4], Noise(100, 9)),
    ]:
        table: set[Key] = set()
        counter = Counter()
        assert Dive(deal, weights, noise).go(table, unlimited(), counter).kind == "exhausted"
        assert counter.expanded == len(table)
        counts.add(counter.expanded)
    assert len(counts) == 1


def test_a_dig_dive_that_runs_out_proves_nothing() -> None:
    # Baker's Game deal 4 is won (by the complete dive, after 2,154 positions), yet the dig
    # dive runs out after 233: the win takes a card into a cell alone, where no dig does.
    deal = CellsDeal.from_number("bakers-game", 4)
    ends = {}
    for steps in Steps:
        table: set[Key] = set()
        counter = Counter()
        end = Dive(deal, WEIGHTS, None, steps).go(table, unlimited(), counter)
        assert counter.expanded == len(table)
        ends[steps] = (end.kind, counter.expanded)
        if end.kind == "won":
            assert replay(deal, end.path).is_won()
    assert ends == {Steps.ALL: ("won", 2_154), Steps.DIGS: ("exhausted", 233)}


@pytest.mark.parametrize("steps", list(Steps))
def test_a_dig_dive_parks_a_card_alone_only_in_a_dig(steps: Steps) -> None:
    # The deal's steps, as the first block ranked: a dig dive's are the complete dive's single
    # moves but a card from a column into a cell or an empty column, its runs, then its digs.
    deal = CellsDeal.from_number("freecell", 1)
    dive = Dive(deal, WEIGHTS, None, steps)
    assert dive.go(set(), Budget(1, Deadline()), Counter()).stop == Stop.STATES
    # The deal's position (after its safe moves), where the dive stopped.
    state = dive.state
    assert not dive.line
    singles: list[Step] = []
    generate(state, singles)
    runs: list[Step] = []
    generate_runs(state, runs)
    digs: list[Step] = []
    generate_digs(state, digs)
    assert any(isinstance(m, CellsMove) and m.dst.kind == "cell" for m in singles)
    assert digs and all(isinstance(d, Dig) for d in digs)
    if steps == Steps.DIGS:
        singles = [m for m in singles if not parks_alone(state, m)]
        expected = singles + runs + digs
    else:
        expected = singles + runs
    ranked = [step for _, step in dive.ranked]
    assert sorted(map(repr, ranked)) == sorted(map(repr, expected))


def parks_alone(state: CellsState, step: Step) -> bool:
    """Whether ``step`` moves a column's top card alone into a cell or an empty column."""
    if not isinstance(step, CellsMove) or step.src.kind != "column":
        return False
    return step.dst.kind == "cell" or (
        step.dst.kind == "column" and not state.cols[step.dst.index or 0]
    )


def test_a_dive_on_a_table_another_has_closed_runs_out_at_once() -> None:
    # The deal's position is another dive's: counted once, by the dive that entered it; every
    # step from it leads where the first dive has been.
    deal = CellsDeal.from_number("bakers-game", 22)
    table: set[Key] = set()
    counter = Counter()
    assert Dive(deal, WEIGHTS).go(table, unlimited(), counter).kind == "exhausted"
    first = counter.expanded
    late = Dive(deal, DIVE_WEIGHTS[1], Noise(8, 3))
    assert late.go(table, unlimited(), counter).kind == "exhausted"
    assert counter.expanded == first == len(table)


def test_the_noise_is_xorshift64_below_its_most() -> None:
    noise = Noise(8, 0x9E37_79B9 * 8)
    # The seed made odd (never the fixed point 0), the state kept to 64 bits.
    assert noise.state == 0x9E37_79B9 * 8 | 1
    drawn = [noise.next() for _ in range(1_000)]
    assert set(drawn) == set(range(8))
    assert 0 < noise.state <= MASK
    again = Noise(8, 0x9E37_79B9 * 8)
    assert [again.next() for _ in range(1_000)] == drawn
    # The first draw by hand: one round of the three shifts, wrapped to 64 bits.
    s = 1
    s ^= s << 13
    s ^= s >> 7
    s ^= (s << 17) & MASK
    assert Noise(1 << 64, 0).next() == s
