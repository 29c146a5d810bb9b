"""The game's two scores (castle.game.scoring, docs/rules.md §3), computed by hand: the timed score
(+10 a card sent up, -30 each full 30 seconds, never below 0, a win's bonus of 600,000 divided
by the seconds) and the classic record (the cards on the foundations)."""

from __future__ import annotations

import pytest
from castle.game.scoring import progress, timed_score


@pytest.mark.parametrize(
    ("cards", "seconds", "score"),
    [
        (0, 0.0, 0),
        (1, 0.0, 10),
        (4, 29.9, 40),  # not yet a full 30 seconds
        (4, 30.0, 10),
        (4, 89.9, 0),  # 40 - 60 is below 0
        (10, 90.0, 10),
        (52, 600.0, 0),  # 520 - 600
    ],
)
def test_the_timed_score_while_playing(cards: int, seconds: float, score: int) -> None:
    assert timed_score(cards, seconds, won=False) == score


@pytest.mark.parametrize(
    ("seconds", "score"),
    [
        (100.0, 520 - 90 + 6000),
        (100.9, 520 - 90 + 6000),  # the whole seconds played
        (0.4, 520 + 600_000),  # at least one second
        (600.0, 0 + 1000),  # the penalty stops at 0 before the bonus is added
    ],
)
def test_a_win_adds_the_time_bonus(seconds: float, score: int) -> None:
    assert timed_score(52, seconds, won=True) == score


@pytest.mark.parametrize(
    ("foundations", "up"),
    [
        ({"C": 0, "D": 0, "H": 0, "S": 0}, 0),
        ({"C": 1, "D": 0, "H": 3, "S": 0}, 4),
        ({"C": 13, "D": 13, "H": 13, "S": 13}, 52),
    ],
)
def test_the_classic_record_is_the_cards_up(foundations: dict[str, int], up: int) -> None:
    assert progress(foundations) == up
