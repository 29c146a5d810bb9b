"""Wins the suite cannot find again, kept as lines (tests/data/outside-wins/: another solver's
wins of deals castle's own search leaves undecided; tests/data/long-wins/: castle's own wins
that took minutes and gigabytes): each replays to a win by the reference rules and by the
core's game, so the deal is winnable whatever the search finds within the suite's limits."""

from __future__ import annotations

from pathlib import Path

import castle
import pytest
from castle import reference
from castle.solving.solve import Target
from paths import DATA

WINS = sorted([*(DATA / "outside-wins").glob("*.txt"), *(DATA / "long-wins").glob("*.txt")])


def lines_of(path: Path) -> list[tuple[int, Target]]:
    """The file's moves: "FROM TO", columns from 1, TO ``f`` for the foundation."""
    moves: list[tuple[int, Target]] = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            src, dst = line.split()
            moves.append((int(src) - 1, castle.FOUNDATION if dst == "f" else int(dst) - 1))
    return moves


@pytest.mark.parametrize("path", WINS, ids=[p.stem for p in WINS])
def test_a_kept_win_replays_in_the_core_and_the_reference(path: Path) -> None:
    # The core's game plays the line (taking the last cards home by itself once nothing
    # else is left to do); the reference rules check every move it made, card by card.
    variant, number = path.stem.rsplit("-", 1)
    deal = castle.Deal.from_number(variant, int(number))
    game = castle.Game(deal)
    made: list[castle.Move] = []
    for src, dst in lines_of(path):
        if game.is_won:
            break
        made.extend(game.move(src, dst).moves)
    assert game.is_won
    assert reference.replay(deal, made).is_won()


def test_the_kept_wins_are_there() -> None:
    assert [f"{p.parent.name}/{p.stem}" for p in WINS] == [
        "long-wins/beleaguered-castle-26984",
        "outside-wins/streets-and-alleys-48888",
    ]
