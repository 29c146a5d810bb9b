"""The complete pass in layers: the reference follows the Rust core position
for position, a win found in layers replays, and a deal whose depth-first table would pass the
memory bound is decided within it."""

from __future__ import annotations

import castle
import castle_lab
import pytest
from castle import reference
from castle.cards import CARDS
from castle.reference.castle import search
from castle.reference.solver import Budget, Counter, Deadline
from castle.solving.solve import Solution, make_move

SA = "streets-and-alleys"
KINDS = {"solved": "won", "unsolvable": "exhausted", "unknown": "limit"}
# "unsolvable" in 1,100 to 5,000 positions of the complete pass.
SMALL_PROOFS = [("beleaguered-castle", 65), (SA, 31), ("citadel", 65)]


def endgame(variant: str, number: int, up: int) -> castle.Deal:
    """Deal ``number`` played along its win until ``up`` cards are on the foundations."""
    deal = castle.Deal.from_number(variant, number)
    won = castle.solve(deal)
    assert won.status == "solved"
    state = reference.replay(deal, [])
    for i in range(len(won.moves) + 1):
        state = reference.replay(deal, won.moves[:i])
        if sum(state.foundations.values()) >= up:
            break
    tops = [
        f"{suit}-{str(CARDS[13 * 'CDHS'.index(suit) + rank - 1])[:-1]}"
        for suit, rank in ((s, state.foundations[s]) for s in "HCDS")
        if rank
    ]
    lines = [" ".join(str(c) for c in column) or ":" for column in state.columns]
    text = ("Foundations: " + " ".join(tops) + "\n" if tops else "") + "\n".join(lines) + "\n"
    return castle.Deal.from_text(text, variant)


def both(deal: castle.Deal, layers_after: int, max_states: int | None = None) -> Solution:
    """Solves ``deal`` in Rust and in the reference, the complete pass going on in layers
    after ``layers_after`` positions: the same verdict, states and moves."""
    status, moves, states, _, limit = castle_lab.solve(
        deal.core, max_states, 1 << 30, layers_after=layers_after
    )
    slow = reference.solve(deal, max_states=max_states, layers_after=layers_after)
    assert (slow.status, slow.states, slow.limit) == (status, states, limit)
    assert list(slow.moves) == [make_move(*m) for m in moves]
    return slow


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "number"), SMALL_PROOFS)
def test_the_reference_follows_the_layers_on_proofs(variant: str, number: int) -> None:
    deal = castle.Deal.from_number(variant, number)
    plain = castle.solve(deal)
    assert plain.status == "unsolvable"
    for after in (1, 300):
        assert both(deal, after).status == "unsolvable"
        # Each position once: the layers go on from where the depth-first pass stopped, and
        # expand none of the positions it expanded.
        status, _, states, _, _ = castle_lab.solve(deal.core, None, 1 << 30, layers_after=after)
        assert (status, states) == ("unsolvable", plain.states)
    # Cut short in the middle of the layers: the same count, the same limit.
    assert both(deal, 1, max_states=plain.states - 500).status == "unknown"


@pytest.mark.slow
@pytest.mark.parametrize("variant", castle.VARIANTS)
def test_the_reference_follows_the_layers_to_a_win(variant: str) -> None:
    # The complete pass alone (the quick pass wins these at once), in layers from the first
    # position, on endgames small enough for the reference: the same count and the same line,
    # rebuilt from the position next to the win the layers found; it replays.
    wins = 0
    for up in (36, 40):
        for number in range(1, 9):
            try:
                deal = endgame(variant, number, up)
            except AssertionError:
                continue  # not a won deal
            status, moves, states, _ = castle_lab.complete_pass(deal.core, 5000, 1)
            counter = Counter()
            end = search.search(deal, "complete", Budget(5000, Deadline()), counter, layers_after=1)
            assert (end.kind, counter.expanded) == (KINDS[status], states), number
            assert end.path == [make_move(*m) for m in moves], number
            if status == "solved":
                assert reference.replay(deal, end.path).is_won()
                wins += states >= 10  # not won by the first position's automatic moves
    assert wins >= 2
