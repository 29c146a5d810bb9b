"""Hints that win: a player who always takes the hint wins every deal the solver wins.

Hints are the steps of one plan (castle.game.plan): the regression they fix is hints that each
started a different win and so argued with each other ("4S from column 5 to column 3", then
"4S from column 3 to column 5", for ever, on Beleaguered Castle deal 2).
"""

from __future__ import annotations

import castle
import pytest
from castle import Deal, Game
from verdicts import known


def follow_hints(game: Game, limit: int = 1000) -> list[castle.Hint[castle.Move]]:
    """Play ``game`` as a person who takes every hint does, until it is won or a hint has no
    move; the hints given, in order."""
    hints: list[castle.Hint[castle.Move]] = []
    while not game.is_won and len(hints) < limit:
        hint = game.hint(max_states=2_000_000, max_seconds=None)
        hints.append(hint)
        if hint.move is None:
            break
        game.move(hint.move.src, hint.move.dst)
    return hints


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "numbers"),
    [
        ("beleaguered-castle", range(1, 13)),
        ("citadel", range(1, 9)),
        ("streets-and-alleys", range(1, 9)),
    ],
)
def test_following_the_hint_wins_every_winnable_deal(variant: str, numbers: range) -> None:
    verdicts = known(variant, numbers)
    assert "winnable" in verdicts.values()
    for number, verdict in verdicts.items():
        game = Game(Deal.from_number(variant, number))
        hints = follow_hints(game)
        if verdict == "winnable":
            assert game.is_won, (variant, number, hints[-1])
            # One search, at the first hint; after it every hint is the plan's next step.
            assert [h.searched for h in hints] == [True] + [False] * (len(hints) - 1)
            assert [h.left for h in hints] == sorted({h.left for h in hints}, reverse=True)
        else:
            assert [(h.status, h.move) for h in hints] == [("unsolvable", None)], number


def test_hints_never_lead_back_to_a_position_already_seen() -> None:
    game = Game(Deal.from_number("beleaguered-castle", 2))
    seen = {game.position}
    while not game.is_won:
        hint = game.hint()
        assert hint.move is not None
        game.move(hint.move.src, hint.move.dst)
        assert game.position not in seen, f"{hint.move} went back"
        seen.add(game.position)
    # A plan that reads like a person's: the short mode's win (the plain search's is 89 moves).
    assert game.moves <= 80


def test_undo_along_the_plan_keeps_it_and_a_deviation_plans_again() -> None:
    game = Game(Deal.from_number("beleaguered-castle", 2))
    first = game.hint()
    assert first.searched and first.move is not None
    game.move(first.move.src, first.move.dst)
    second = game.hint()
    game.undo()
    # Back on the plan: the same advice, no new search.
    assert game.hint() == castle.Hint("solved", first.move, first.left)
    game.redo()
    assert game.hint() == second
    # Off the plan: a legal move the plan does not make.
    assert second.move is not None
    other = next(
        (src, dst)
        for _, src, dst in game.position.core.legal_moves()
        if dst >= 0 and (src, dst) != (second.move.src, second.move.dst)
    )
    game.move(*other)
    fresh = game.hint()
    assert fresh.searched and fresh.status in ("solved", "unsolvable")
    if fresh.status == "solved":
        follow_hints(game)
        assert game.is_won


def test_a_supermove_or_a_tap_that_lands_on_the_plan_follows_it() -> None:
    # The player need not make the hinted move card by card: whatever action reaches the
    # plan's next position keeps the plan.
    game = Game(Deal.from_number("citadel", 1))
    hint = game.hint()
    assert hint.move is not None
    followed = 0
    while not game.is_won and followed < 400:
        hint = game.hint()
        assert hint.move is not None and (followed == 0 or not hint.searched)
        if hint.move.to_foundation:
            game.double_tap(hint.move.src)
        else:
            game.move(hint.move.src, hint.move.dst)
        followed += 1
    assert game.is_won


def test_no_win_from_here_is_exact_after_a_fatal_move() -> None:
    # Beleaguered Castle deal 6 can be won, but not after its column 1's top card goes onto
    # column 2: the hint says so, and the complete search agrees.
    game = Game(Deal.from_number("beleaguered-castle", 6))
    assert game.hint().status == "solved"
    game.move(0, 1)
    hint = game.hint()
    assert (hint.status, hint.move) == ("unsolvable", None) and hint.searched
    assert "no win from here" in str(hint)
    assert castle.solve(game.position).status == "unsolvable"


def test_games_say_what_they_are() -> None:
    game = Game(Deal.from_number("beleaguered-castle", 2))
    game.move(6, 7)
    assert repr(game) == (
        "<Game Medium: Beleaguered Castle, deal 2, 1 move, 4/52 cards up, score 0>"
    )
    spider = castle.SpiderGame(castle.SpiderDeal.from_number("spider-2", 5))
    assert repr(spider) == (
        "<SpiderGame Spider (2 suits), deal 5, 0 moves, stock 50, 0/8 runs off, score 500>"
    )
    hint = spider.hint(max_seconds=60)  # the wall clock's 2 s may run out on a busy machine
    assert hint.move is not None and str(hint) == f"try {hint.move} ({hint.left} moves to a win)"
