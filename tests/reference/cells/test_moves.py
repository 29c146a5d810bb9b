"""The free-cell reference's rules (castle.reference.cells: moves, runs, steps) against the
core's: along seeded random plays of every variant, the same legal moves in the same order, the
same safe moves, runs and supermoves' single moves, and the same position after each move; a
dig is the single moves it stands for, each legal by the core's rules; and every win of the
core's solver replays by the reference's rules."""

from __future__ import annotations

import random

import castle
import pytest
from castle import CellsDeal, IllegalMoveError
from castle.reference import cells as ref
from castle.reference.cells.moves import CELL, COLUMN
from castle.reference.cells.steps import (
    Dig,
    Step,
    apply_step,
    generate,
    generate_digs,
    step_moves,
    undo_step,
)
from castle.solving.cells import CELLS_VARIANTS, TO_FOUNDATION, CellsMove, Place, public_move


def core_moves(tuples: list[tuple[int, str, int, str, int]]) -> list[CellsMove]:
    return [public_move(*t) for t in tuples]


def core_single_moves(deal: CellsDeal, m: CellsMove) -> list[CellsMove] | None:
    try:
        return core_moves(deal.core.single_moves(*m.core))
    except ValueError:
        return None


def run_candidates(state: ref.CellsState) -> list[CellsMove]:
    """Every card under a column's top moved with the cards above it to every other column,
    legal or not."""
    return [
        CellsMove(col[-k], COLUMN[src], COLUMN[dst])
        for src, col in enumerate(state.cols)
        for k in range(2, len(col) + 1)
        for dst in range(len(state.cols))
        if dst != src
    ]


def assert_same_position(state: ref.CellsState, deal: CellsDeal) -> None:
    assert (state.cols, state.cells, state.foundations) == (
        deal.columns,
        deal.cells,
        deal.foundations,
    )
    assert state.is_won() == deal.is_won


@pytest.mark.parametrize("variant", CELLS_VARIANTS)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_rules_agree_with_the_core_along_random_plays(variant: str, seed: int) -> None:
    rng = random.Random(f"{variant} {seed}")
    deal = CellsDeal.from_number(variant, rng.randint(1, 1_000_000))
    state = ref.CellsState.from_deal(deal)
    for _ in range(120):
        legal: list[CellsMove] = []
        ref.all_legal(state, legal)
        assert legal == core_moves(deal.core.legal_moves())
        made: list[CellsMove] = []
        ref.auto_moves(state.copy(), made)
        assert made == core_moves(deal.core.safe_moves())
        assert [ref.run_len(state, c) for c in range(len(state.cols))] == [
            deal.core.movable(c) for c in range(len(state.cols))
        ]
        runs = run_candidates(state)
        for m in rng.sample(runs, min(len(runs), 40)):
            assert ref.single_moves(state, m) == core_single_moves(deal, m), m
        playable = legal + [m for m in runs if ref.single_moves(state, m) is not None]
        if not playable:
            break
        m = rng.choice(playable)
        singles = ref.single_moves(state, m)
        assert singles is not None
        for single in singles:
            assert ref.is_legal(state, single)
            ref.apply(state, single)
        deal = CellsDeal(deal.core.play(*m.core))
        assert_same_position(state, deal)


def placed(state: ref.CellsState) -> tuple[object, ...]:
    return (state.cols, state.cells, state.foundations)


@pytest.mark.parametrize("variant", CELLS_VARIANTS)
def test_a_dig_is_the_single_moves_it_stands_for(variant: str) -> None:
    # Along seeded random plays (a dig half the time, when there is one; the safe moves after
    # each step): each dig, made and taken back, leaves the position as it was; the single
    # moves it stands for are legal one after another, by the reference's rules and the
    # core's, and lead where it leads.
    rng = random.Random(f"digs {variant}")
    digs = 0
    for number in range(1, 11):
        deal = CellsDeal.from_number(variant, number)
        state = ref.CellsState.from_deal(deal)
        for _ in range(80):
            steps: list[Step] = []
            generate_digs(state, steps)
            digs += len(steps)
            for step in steps:
                assert isinstance(step, Dig)
                before = state.copy()
                apply_step(state, step)
                after = state.copy()
                undo_step(state, step)
                assert placed(state) == placed(before), step
                replay = state.copy()
                moves = step_moves(state, step)
                assert placed(state) == placed(before), step
                # The cards over the one dug out, then it.
                assert len(moves) == bin(step.cells).count("1") + bin(step.spaces).count("1") + 1
                assert moves[-1] == CellsMove(step.card, COLUMN[step.src], step.dst)
                core = deal
                for m in moves:
                    assert ref.is_legal(replay, m), (step, m)
                    ref.apply(replay, m)
                    core = CellsDeal(core.core.play(*m.core))
                assert placed(replay) == placed(after), step
                assert_same_position(after, core)
            singles: list[Step] = []
            generate(state, singles)
            choice = steps if steps and (rng.random() < 0.5 or not singles) else singles
            if not choice:
                break
            step = rng.choice(choice)
            made = step_moves(state, step)
            apply_step(state, step)
            ref.auto_moves(state, made)
            for m in made:
                deal = CellsDeal(deal.core.play(*m.core))
            assert_same_position(state, deal)
    assert digs > 100, digs


def test_moves_are_taken_back_exactly() -> None:
    deal = CellsDeal.from_number("eight-off", 5)
    state = ref.CellsState.from_deal(deal)
    legal: list[CellsMove] = []
    ref.all_legal(state, legal)
    assert legal
    for m in legal:
        after = state.copy()
        ref.apply(after, m)
        ref.undo(after, m)
        assert (after.cols, after.cells, after.foundations) == (
            state.cols,
            state.cells,
            state.foundations,
        )


def test_moves_that_name_no_card_or_no_place_are_not_legal() -> None:
    deal = CellsDeal.from_number("freecell", 1)
    state = ref.CellsState.from_deal(deal)
    top, under = state.cols[0][-1], state.cols[0][-2]
    for m in [
        CellsMove(under, COLUMN[0], CELL[0]),  # not on top
        CellsMove(top, COLUMN[0], COLUMN[0]),  # nowhere
        CellsMove(top, COLUMN[0], Place("cell", -1)),
        CellsMove(top, COLUMN[0], Place("cell", 4)),  # FreeCell has four
        CellsMove(top, COLUMN[0], Place("column", 8)),
        CellsMove(top, Place("column", -8), CELL[0]),
        CellsMove(top, TO_FOUNDATION, CELL[0]),
    ]:
        assert not ref.is_legal(state, m), m
        assert ref.single_moves(state, m) is None, m
        assert not deal.core.is_legal(*m.core), m


def test_a_line_that_breaks_a_rule_does_not_replay() -> None:
    deal = CellsDeal.from_number("freecell", 3)
    line = castle.solve(deal).moves
    assert ref.replay(deal, line).is_won()
    assert not ref.replay(deal, line[:-1]).is_won()
    # The first two moves in a row off one column swapped: the second is not legal before the
    # first (its card is under the first's).
    i = next(i for i in range(len(line) - 1) if line[i].src == line[i + 1].src == COLUMN[1])
    broken = [*line[:i], line[i + 1], line[i], *line[i + 2 :]]
    with pytest.raises(IllegalMoveError, match=f"move {i + 1}"):
        ref.replay(deal, broken)


@pytest.mark.slow
@pytest.mark.parametrize("variant", CELLS_VARIANTS)
def test_every_win_of_the_core_replays_by_the_reference(variant: str) -> None:
    # FreeCell's deals 1-200 and 1-50 of each other game; the core's shortened lines (which
    # move cards between cells too) for the first 20.
    last = 200 if variant == "freecell" else 50
    wins = 0
    for n in range(1, last + 1):
        deal = CellsDeal.from_number(variant, n)
        for short in (False, True) if n <= 20 else (False,):
            solution = castle.solve(deal, max_states=100_000, short=short)
            if solution.status == "solved":
                assert ref.replay(deal, solution.moves).is_won(), (n, short)
                wins += 1
    # Every FreeCell deal of these is won; of the others' deals, most (Baker's Game: 40).
    assert wins >= 0.7 * last
