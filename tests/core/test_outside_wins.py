"""Wins another solver found for deals castle's own search leaves undecided
(tests/data/outside-wins/): each replays to a win by the reference rules and by the core's
game, so the deal is winnable whatever castle's tables say (they count castle's verdicts)."""

from __future__ import annotations

from pathlib import Path

import castle
import pytest
from castle import reference
from paths import DATA

WINS = sorted((DATA / "outside-wins").glob("*.txt"))


def moves_of(path: Path, deal: castle.Deal) -> list[castle.Move]:
    """The file's moves ("FROM TO", columns from 1, TO ``f`` for the foundation) as castle's
    moves, each naming the card it takes from the top of its column."""
    columns = deal.columns
    moves = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        src_text, dst_text = line.split()
        src = int(src_text) - 1
        card = columns[src].pop()
        if dst_text == "f":
            moves.append(castle.Move(card, src, castle.FOUNDATION))
        else:
            dst = int(dst_text) - 1
            columns[dst].append(card)
            moves.append(castle.Move(card, src, dst))
    return moves


@pytest.mark.parametrize("path", WINS, ids=[p.stem for p in WINS])
def test_an_outside_win_replays_in_the_reference_and_the_core(path: Path) -> None:
    variant, number = path.stem.rsplit("-", 1)
    deal = castle.Deal.from_number(variant, int(number))
    moves = moves_of(path, deal)
    assert reference.replay(deal, moves).is_won()
    game = castle.Game(deal)
    for move in moves:
        if game.is_won:  # the game takes the last cards home by itself
            break
        game.move(move.src, move.dst)
    assert game.is_won


def test_the_outside_wins_are_there() -> None:
    assert [p.stem for p in WINS] == ["streets-and-alleys-48888"]
