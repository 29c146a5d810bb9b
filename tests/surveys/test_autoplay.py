"""Deals played to the end by hints alone (castle.surveys.autoplay)."""

from __future__ import annotations

import pytest
from castle import Deal, SpiderDeal, SpiderGame, SpiderMove
from castle.game.plan import Hint
from castle.surveys.autoplay import autoplay_castle, play_fair_hints
from verdicts import known


@pytest.mark.slow
def test_autoplay_wins_what_the_solver_wins() -> None:
    for number, verdict in known("streets-and-alleys", range(9, 13)).items():
        result = autoplay_castle(Deal.from_number("streets-and-alleys", number))
        assert result.won == (verdict == "winnable"), number
        assert result.status == ("solved" if verdict == "winnable" else "unsolvable")


def test_each_fair_hint_is_seen_before_its_move() -> None:
    # Two-suit deal 1, which the fair hint loses after 61 moves: every hint is shown with the
    # game as it stood when it was given, the last one (no move) too.
    game = SpiderGame(SpiderDeal.from_number("spider-2", 1))
    seen: list[tuple[int, SpiderMove | None]] = []

    def each(at: SpiderGame, hint: Hint[SpiderMove]) -> None:
        assert at is game
        seen.append((at.moves, hint.move))

    searched = play_fair_hints(game, seed=1, effort=None, each=each)
    assert not game.is_won and game.moves == 61
    assert [moves for moves, _ in seen] == list(range(62))
    assert seen[-1][1] is None and all(move is not None for _, move in seen[:-1])
    assert 0 < searched < len(seen)


def test_the_fair_hints_stop_before_a_move_they_are_told_to_stop_before() -> None:
    # Two-suit deal 1 again: stopped before its first deal, the stock is whole and the hint
    # there is the deal; going on from there plays the rest of the same game.
    game = SpiderGame(SpiderDeal.from_number("spider-2", 1))
    play_fair_hints(game, seed=1, effort=None, until=lambda move: move.kind == "deal")
    assert len(game.position.stock) == 50 and 0 < game.moves < 61
    hint = game.hint(fair=True, seed=1)
    assert hint.move is not None and hint.move.kind == "deal"
    play_fair_hints(game, seed=1, effort=None)
    assert not game.is_won and game.moves == 61
