"""The game's two scores (docs/rules.md §3): the timed score and the classic progress record.

Both are pure functions of what the game knows (cards sent up, seconds played, won or not), so
a test can check them exactly with an injected clock.
"""

from __future__ import annotations

#: Points for each card sent to a foundation (an undo takes them back).
POINTS_PER_CARD = 10
#: Points lost for each full period of play.
PENALTY = 30
PENALTY_PERIOD = 30
#: On a win the score gains this many points divided by the seconds played.
WIN_BONUS = 600_000


def timed_score(cards_sent: int, seconds: float, won: bool) -> int:
    """+10 a card sent up, -30 for each full 30 s of play, never below 0; on a win add
    600000 divided by the whole seconds played (at least one)."""
    whole = int(seconds)
    score = max(0, POINTS_PER_CARD * cards_sent - PENALTY * (whole // PENALTY_PERIOD))
    if won:
        score += WIN_BONUS // max(1, whole)
    return score


def progress(foundations: dict[str, int]) -> int:
    """The classic record: how many cards are on the foundations (52 when won)."""
    return sum(foundations.values())


__all__ = ["progress", "timed_score"]
