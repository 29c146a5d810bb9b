"""castle.reference is the same search as the Rust solver, step for step: for the same deal
and max_states it gives the same status, the same number of expanded states and the same moves."""

from __future__ import annotations

import random

import castle
import pytest
from castle import reference

MAX_STATES = 1500


def deal_numbers() -> list[int]:
    # 40 small numbers (the Microsoft generator) and 15 spread over the Mersenne Twister range.
    rng = random.Random(2026)
    return list(range(1, 41)) + sorted(rng.randint(32000, 2**31 - 1) for _ in range(15))


@pytest.mark.slow
@pytest.mark.parametrize("variant", castle.VARIANTS)
def test_reference_matches_rust_state_for_state(variant: str) -> None:
    decided = 0
    for number in deal_numbers():
        deal = castle.Deal.from_number(variant, number)
        fast = castle.solve(deal, max_states=MAX_STATES)
        slow = reference.solve(deal, max_states=MAX_STATES)
        assert (slow.status, slow.states, slow.limit) == (fast.status, fast.states, fast.limit), (
            number
        )
        assert slow.moves == fast.moves, number
        decided += fast.status != "unknown"
    assert decided >= 10  # the comparison covers finished searches, not only cut-off ones


def test_reference_matches_on_a_text_position() -> None:
    # A mid-game position with an empty column, read from text.
    deal = castle.Deal.from_number("streets-and-alleys", 11)
    columns = [list(map(str, c)) for c in deal.columns]
    moved = columns[7]
    columns[7] = []
    columns[6].extend(moved)  # not a legal move, but a legal position
    text = "\n".join(" ".join(c) if c else ":" for c in columns) + "\n"
    position = castle.Deal.from_text(text, "streets-and-alleys")
    fast = castle.solve(position, max_states=5000)
    slow = reference.solve(position, max_states=5000)
    assert (slow.status, slow.states, slow.moves) == (fast.status, fast.states, fast.moves)


def test_reference_wins_replay() -> None:
    deal = castle.Deal.from_number("citadel", 2)
    s = reference.solve(deal)
    assert s.status == "solved"
    assert reference.replay(deal, s.moves).is_won()


@pytest.mark.slow
@pytest.mark.parametrize("variant", castle.VARIANTS)
def test_reference_matches_rust_in_the_short_mode(variant: str) -> None:
    # Won deals, with room for the beams after the depth-first win: the same states, the same
    # (shorter) moves.
    shorter = 0
    for number in range(1, 9):
        deal = castle.Deal.from_number(variant, number)
        plain = castle.solve(deal, max_states=MAX_STATES)
        if plain.status != "solved":
            continue
        budget = plain.states + 12_000
        fast = castle.solve(deal, max_states=budget, short=True)
        slow = reference.solve(deal, max_states=budget, short=True)
        assert (slow.status, slow.states, slow.moves) == (fast.status, fast.states, fast.moves)
        assert reference.replay(deal, fast.moves).is_won()
        shorter += len(fast.moves) < len(castle.solve(deal, max_states=budget).moves)
    assert shorter >= 1
