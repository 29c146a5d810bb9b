"""castle.Game: every rule of docs/rules.md §3 (levels, tap, double tap, drag, supermove, undo,
auto-finish, score), hints, and a whole game won through it."""

from __future__ import annotations

import castle
import pytest
from castle import FOUNDATION, Card, Deal, Game, IllegalMoveError
from castle.game.game import plan_supermove, supermove_capacity
from hypothesis import given, settings
from hypothesis import strategies as st

ALL_CARDS = [str(c) for c in castle.CARDS]


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def board(columns: list[str], foundations: str = "C-A D-A H-A S-A") -> Deal:
    """A Beleaguered Castle position from its columns (bottom card first; "" is empty)."""
    lines = [f"Foundations: {foundations}"] + [f": {c}" if c else ":" for c in columns]
    return Deal.from_text("\n".join(lines) + "\n", "beleaguered-castle")


# Seed 000's worked example: docs/rules.md §3.
SEED = board(
    [
        "KS QS JS TS 9S 8S",
        "7S 6S 5S 4S 3S 2S",
        "KH QH JH TH 9H 8H",
        "2D 7H",
        "KD QD JD TD 9D 8D",
        "7D 6D 5D 4D 3D",
        "KC QC JC TC 9C 8C",
        "7C 6C 5C 4C 3C 2C 6H 5H 4H 3H 2H",
    ]
)


# The same with the diamonds 3-7 upside down: lifting alone can no longer finish it.
BLOCKED = board(
    [
        "KS QS JS TS 9S 8S",
        "7S 6S 5S 4S 3S 2S",
        "KH QH JH TH 9H 8H",
        "2D 7H",
        "KD QD JD TD 9D 8D",
        "3D 4D 5D 6D 7D",
        "KC QC JC TC 9C 8C",
        "7C 6C 5C 4C 3C 2C 6H 5H 4H 3H 2H",
    ]
)


def test_seed_example_seven_of_hearts_onto_eight_of_clubs_then_two_of_diamonds_up() -> None:
    game = Game(SEED, clock=Clock())
    action = game.move(3, 6)  # the drag: 7H onto 8C, suits ignored
    # Then the 2D it uncovers goes onto AD: a move of its own, never one packet with the 7H.
    # (Here every card can then be lifted, so the auto-finish plays the rest.)
    first = action.moves[0]
    assert (str(first.card), first.src, first.dst) == ("7H", 3, 6)
    assert castle.Move(Card.parse("2D"), 3, FOUNDATION) in action.moves[1:]
    assert game.is_won and game.moves == 49


# --- tap ------------------------------------------------------------------------------------


def test_tap_sends_a_safe_card_up() -> None:
    game = Game(BLOCKED, clock=Clock())
    action = game.tap(1)  # 2S: fits, and nothing can need it
    assert action.moves == (castle.Move(Card.parse("2S"), 1, FOUNDATION),)


def test_tap_prefers_a_card_of_the_same_suit() -> None:
    game = Game(BLOCKED, clock=Clock())
    action = game.tap(3)  # 7H: four eights on top; the 8H wins
    assert action.moves == (castle.Move(Card.parse("7H"), 3, 2),)
    action = game.tap(5)  # 7D: the 8D
    assert action.moves == (castle.Move(Card.parse("7D"), 5, 4),)


# Foundations C-5 D-5 H-5 S-2: 6C fits its foundation but is not safe (a 5 may need it).
UNSAFE = "C-5 D-5 H-5 S-2"
UNSAFE_COLUMNS = [
    "3S 6C",
    "7C 8C 9C TC JC QC KC",
    "7D 8D 9D TD JD QD KD",
    "7H 8H 9H TH JH QH KH",
    "6D 6H 4S 5S 6S",
    "7S 8S 9S TS",
    "JS QS KS",
    "",
]


def test_tap_uses_an_empty_column_before_an_unsafe_foundation_move() -> None:
    game = Game(board(UNSAFE_COLUMNS, UNSAFE), clock=Clock())
    assert game.tap(0).moves == (castle.Move(Card.parse("6C"), 0, 7),)
    # Then 3S is safe (rank 3, lowest foundation 2): up it goes.
    assert game.tap(0).moves == (castle.Move(Card.parse("3S"), 0, FOUNDATION),)


def test_tap_falls_back_to_a_legal_foundation_move() -> None:
    columns = [*UNSAFE_COLUMNS[:4], "6D 4S 5S 6S", "7S 8S 9S TS", "JS QS KS", "6H"]
    game = Game(board(columns, UNSAFE), clock=Clock())
    assert game.tap(0).moves == (castle.Move(Card.parse("6C"), 0, FOUNDATION),)


def test_tap_with_nowhere_to_go_changes_nothing() -> None:
    game = Game(BLOCKED, clock=Clock())
    with pytest.raises(IllegalMoveError, match="8S has nowhere to go"):
        game.tap(0)
    assert game.position == BLOCKED and game.moves == 0 and not game.history


def test_a_lone_card_is_not_tapped_into_an_empty_column() -> None:
    columns = [*UNSAFE_COLUMNS[:4], "6D 4S 5S 6S", "7S 8S 9S TS", "JS QS KS", ""]
    columns[0] = "3S"
    columns[7] = "6H"
    columns[4] = "6C 6D 4S 5S 6S"
    game = Game(board(columns, UNSAFE), clock=Clock())
    # 6H alone in its column: nothing higher, no use in another empty column, H-5: it goes up.
    assert game.tap(7).moves == (castle.Move(Card.parse("6H"), 7, FOUNDATION),)


# --- double tap and drag --------------------------------------------------------------------


def test_double_tap_sends_up_even_an_unsafe_card() -> None:
    game = Game(board(UNSAFE_COLUMNS, UNSAFE), clock=Clock())
    assert game.double_tap(0).moves == (castle.Move(Card.parse("6C"), 0, FOUNDATION),)


def test_double_tap_refuses_a_card_that_does_not_fit() -> None:
    game = Game(SEED, clock=Clock())
    with pytest.raises(IllegalMoveError, match="does not fit its foundation"):
        game.double_tap(0)
    assert game.position == SEED and game.moves == 0


@pytest.mark.parametrize(
    ("src", "dst", "count", "message"),
    [
        (0, 1, 1, "8S does not fit on 2S"),
        (0, 0, 1, "its own column"),
        (0, 8, 1, "destination column must be 0 to 7"),
        (-1, 2, 1, "source column must be 0 to 7"),
        (1, FOUNDATION, 2, "one at a time"),
        (0, FOUNDATION, 1, "8S does not fit its foundation yet"),
        (7, 4, 7, "not a descending run"),
        (3, 6, 0, "count must be"),
        (3, 6, 9, "holds only 2 cards"),
        ("3", 6, 1, "source column"),
    ],
)
def test_an_illegal_drag_is_refused_and_changes_nothing(
    src: int, dst: int, count: int, message: str
) -> None:
    game = Game(SEED, clock=Clock())
    with pytest.raises(IllegalMoveError, match=message):
        game.move(src, dst, count)
    assert game.position == SEED and game.moves == 0 and not game.history


# --- supermove ------------------------------------------------------------------------------


def supermove_board(run: int, empties: int, onto_card: bool) -> Deal:
    """Column 0 ends with a run of ``run`` cards from the queen down; column 1 ends with the
    king of diamonds (or is empty); ``empties`` more columns are empty."""
    suits = "SH"
    run_cards = [f"{'A23456789TJQK'[11 - i]}{suits[i % 2]}" for i in range(run)]
    used = set(run_cards) | {"AC", "AD", "AH", "AS", "KD"}
    filler = [c for c in ALL_CARDS if c not in used]
    fill_columns = 6 - empties
    chunks = [filler[i::fill_columns] for i in range(fill_columns)]
    columns = [" ".join(["KC", *run_cards])]
    filler.remove("KC")
    chunks = [[c for c in chunk if c != "KC"] for chunk in chunks]
    if onto_card:
        columns.append("KD")
    else:
        columns.append("")
        chunks[0].append("KD")
    columns += [" ".join(chunk) for chunk in chunks] + [""] * empties
    return board(columns)


def test_supermove_limits_follow_the_empty_columns() -> None:
    assert [supermove_capacity(k, into_empty=False) for k in range(4)] == [1, 2, 4, 8]
    assert [supermove_capacity(k, into_empty=True) for k in range(4)] == [0, 1, 2, 4]


@settings(max_examples=60, deadline=None)
@given(
    run=st.integers(min_value=1, max_value=9),
    empties=st.integers(min_value=0, max_value=3),
    onto_card=st.booleans(),
)
def test_a_supermove_is_legal_exactly_within_its_limit_and_undoes_whole(
    run: int, empties: int, onto_card: bool
) -> None:
    deal = supermove_board(run, empties, onto_card)
    game = Game(deal, clock=Clock())
    k = empties + (0 if onto_card else 1)
    capacity = supermove_capacity(k, into_empty=not onto_card)
    moving = game.columns[0][-run:]
    if run > capacity:
        with pytest.raises(IllegalMoveError, match="need more empty columns"):
            game.move(0, 1, run)
        assert game.position == deal
        return
    action = game.move(0, 1, run)
    # Single-card moves, each legal (the core checked them), landing the run in order.
    assert len(action.moves) == 1 if run == 1 else len(action.moves) >= run
    assert game.columns[1][-run:] == moving
    assert game.moves == len(action.moves)
    assert sum(1 for c in game.columns if not c) == empties  # every spare column freed again
    game.undo()
    assert game.position == deal and game.moves == len(action.moves) + 1


def test_plan_supermove_uses_each_free_column() -> None:
    assert plan_supermove(1, 0, 1, []) == [(0, 1)]
    assert plan_supermove(2, 0, 1, [5]) == [(0, 5), (0, 1), (5, 1)]
    assert len(plan_supermove(4, 0, 1, [5, 6])) == 9
    with pytest.raises(ValueError):
        plan_supermove(2, 0, 1, [])


def test_drop_moves_the_longest_run_that_fits() -> None:
    game = Game(supermove_board(3, 1, onto_card=False), clock=Clock())
    # The run is KC QS JH TS; into an empty column with one other: 2^(2-1) = 2 fit.
    assert game.fitting_count(0, 1) == 2
    assert game.fitting_count(0, FOUNDATION) is None
    game.drop(0, 1)
    assert [str(c) for c in game.columns[1]] == ["JH", "TS"]
    with pytest.raises(IllegalMoveError, match="QS does not fit on TS"):
        game.drop(0, 1)


# --- undo and redo --------------------------------------------------------------------------


def test_undo_goes_back_to_the_deal_and_counts_as_a_move() -> None:
    clock = Clock()
    game = Game(BLOCKED, clock=clock)
    game.tap(1)  # 2S up: +10
    game.tap(7)  # 2H up: +10
    game.tap(1)  # 3S up: +10
    assert game.score == 30 and game.moves == 3
    game.undo()
    game.undo()
    assert game.score == 10 and game.moves == 5 and game.undos == 2
    game.undo()
    assert game.position == BLOCKED and game.score == 0 and game.moves == 6
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        game.undo()
    game.redo()
    assert game.score == 10 and game.can_redo
    game.tap(7)  # a new action: the redo list is gone
    assert not game.can_redo
    with pytest.raises(IllegalMoveError, match="nothing to redo"):
        game.redo()


# --- auto-finish and score ------------------------------------------------------------------

NEAR_WIN = board(["", "QD KD", "KH", "", "", "", "", ""], "H-Q C-K D-J S-K")


def test_auto_finish_plays_out_the_cards_once_they_can_simply_be_lifted() -> None:
    clock = Clock()
    game = Game(NEAR_WIN, clock=clock)
    assert game.position.core.lift_to_win() is None
    clock.now += 12.5
    action = game.move(1, 0)  # KD off the queen: now everything lifts
    assert [str(m.card) for m in action.moves] == ["KD", "QD", "KD", "KH"]
    assert game.is_won and game.progress == 52
    # 3 cards sent up, 12 whole seconds: 30 + 600000 // 12.
    assert game.score == 30 + 50_000
    clock.now += 100  # the clock stopped at the win
    assert game.seconds == 12.5 and game.score == 50_030
    with pytest.raises(IllegalMoveError, match="won"):
        game.undo()
    with pytest.raises(IllegalMoveError, match="won"):
        game.tap(2)


def test_time_costs_30_points_each_full_30_seconds_never_below_zero() -> None:
    clock = Clock()
    game = Game(BLOCKED, clock=clock)
    game.tap(1)
    game.tap(7)
    game.tap(1)  # 3S up
    assert game.score == 30
    clock.now += 29.9
    assert game.score == 30
    clock.now += 0.1
    assert game.score == 0
    clock.now += 30
    assert game.score == 0  # 30 - 60, floored
    game.pause()
    clock.now += 1000
    assert game.seconds == 60 and game.paused
    game.unpause()
    clock.now += 5
    assert game.seconds == 65


def test_the_classic_record_counts_cards_on_the_foundations() -> None:
    game = Game(BLOCKED, clock=Clock())
    assert game.progress == 4
    game.tap(1)
    assert game.progress == 5 and game.cards_sent == 1


# --- hints ----------------------------------------------------------------------------------


def test_hint_gives_the_first_move_of_a_win() -> None:
    game = Game(Deal.from_number("beleaguered-castle", 2), clock=Clock())
    hint = game.hint()
    assert hint.status == "solved" and hint.move is not None
    game.move(hint.move.src, hint.move.dst)
    assert game.hint().status == "solved"


def test_hint_says_when_there_is_no_win_from_here() -> None:
    game = Game(Deal.from_number("beleaguered-castle", 18), clock=Clock())
    hint = game.hint()
    assert (hint.status, hint.move) == ("unsolvable", None)
    assert "no win from here" in str(hint)


def test_a_hint_on_a_won_game_says_it_is_won() -> None:
    game = Game(SEED, clock=Clock())
    assert game.can_hint
    game.move(3, 6)  # the win (the auto-finish plays the rest)
    assert game.is_won and not game.can_hint
    hint = game.hint()
    assert hint.move is None and str(hint) == "the game is won"


# --- levels and a whole game ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "number"), [("beleaguered-castle", 2), ("streets-and-alleys", 4)]
)
def test_a_whole_game_is_won_through_game(variant: str, number: int) -> None:
    clock = Clock()
    game = Game(Deal.from_number(variant, number), clock=clock)
    solution = castle.solve(game.deal)
    assert solution.status == "solved"
    for m in solution.moves:
        if game.is_won:
            break  # the auto-finish played the rest
        clock.now += 1
        game.move(m.src, m.dst)
    assert game.is_won and game.progress == 52
    assert game.moves == len(solution.moves)
    assert game.score > 600_000 // len(solution.moves)
