"""A column folded to the rows a terminal has (castle.tui.fold): a line a card while it fits;
then the face-down cards as their count, the longest runs in suit as their ends, runs of any
suit, and last the lowest cards as one count. The top card and the kept cards stay in sight,
and every card is stood for by exactly one line."""

from __future__ import annotations

import random

from castle import Card
from castle.tui.fold import FEWEST_ROWS, Line, fold


def cards(text: str) -> list[Card]:
    return [Card.parse(token) for token in text.split()]


def covered(lines: list[Line]) -> list[int]:
    """The column's cards the lines stand for, in order (each once, if all is well)."""
    out: list[int] = []
    for line in lines:
        out += range(line.first, line.first + line.count)
    return out


def test_a_column_that_fits_is_a_line_a_card() -> None:
    up = cards("KS QH JS")
    assert fold(2, up, 5) == [
        Line("down", 0),
        Line("down", 1),
        Line("card", 2),
        Line("card", 3),
        Line("card", 4),
    ]


def test_the_face_down_cards_fold_first() -> None:
    up = cards("KS QH JS TH")
    assert fold(6, up, 5) == [Line("down", 0, 6), *(Line("card", 6 + i) for i in range(4))]


def test_a_long_run_in_suit_folds_to_its_ends() -> None:
    # 5 face down, then 9H 8H ... 2H (8 cards), then KS: 14 cards into 8 rows.
    up = cards("9H 8H 7H 6H 5H 4H 3H 2H KS")
    lines = fold(5, up, 8)
    assert lines == [
        Line("down", 0, 5),
        Line("card", 5),  # 9H
        Line("fold", 6, 6),  # 8H to 3H
        Line("card", 12),  # 2H
        Line("card", 13),  # KS
    ]


def test_the_longest_runs_fold_first_and_only_as_many_as_needed() -> None:
    up = cards("KD QD JD TD 9D 8D 7H 6H 5H 4H QS JS TS 9S 8S 7S 6S 5S")
    lines = fold(0, up, 13)
    # The spades (8 cards) fold; that is enough: the diamonds and hearts stay a line a card.
    assert [line.kind for line in lines].count("fold") == 1
    assert Line("fold", 11, 6) in lines and len(lines) == 13


def test_kept_cards_start_a_line_of_their_own() -> None:
    up = cards("9H 8H 7H 6H 5H 4H 3H 2H")
    lines = fold(0, up, 6, keep={4})  # the hint moves 5H 4H 3H 2H
    shown = [line.first for line in lines if line.kind == "card"]
    assert 4 in shown and 7 in shown and len(lines) <= 6


def test_runs_of_any_suit_fold_when_runs_in_suit_are_not_enough() -> None:
    up = cards("KS QH JC TD 9S 8H 7C 6D 5S 4H")
    lines = fold(0, up, 4)
    assert lines == [Line("card", 0), Line("fold", 1, 8), Line("card", 9)]


def test_past_every_run_the_lowest_cards_fold_into_one_count() -> None:
    up = cards("3S 9H 5C KD 2S 7H JC 4D AS 8H")  # no two in a row
    lines = fold(4, up, 5)
    assert lines == [
        Line("down", 0, 4),
        Line("fold", 4, 7),
        Line("card", 11),
        Line("card", 12),
        Line("card", 13),
    ]


def test_any_column_folds_into_any_room_standing_for_every_card_once() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        down = rng.randrange(0, 8)
        up = [Card(rng.randrange(1, 14), rng.choice("CDHS")) for _ in range(rng.randrange(1, 40))]
        if rng.random() < 0.5:  # a long run somewhere
            start = rng.randrange(0, len(up))
            up[start:start] = [Card(13 - i, "H") for i in range(rng.randrange(2, 14))]
        rows = rng.randrange(FEWEST_ROWS, 30)
        keep = {rng.randrange(0, len(up))}
        lines = fold(down, up, rows, keep)
        assert len(lines) <= rows
        assert covered(lines) == list(range(down + len(up)))
        assert lines[-1] == Line("card", down + len(up) - 1)  # the top card, always
        assert all(line.kind != "fold" or line.count >= 2 for line in lines)
