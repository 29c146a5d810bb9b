"""Board text of one family given to the other's reader: a castle board read as Spider, or a
Spider board read as a castle game, is refused for what it is, from Python and from
``castle solve``; text of no plain family keeps the reader's own error."""

from __future__ import annotations

from pathlib import Path

import castle
import pytest
from castle.cli import main
from castle.solving.board_family import board_family

CASTLE_TEXT = castle.Deal.from_number("beleaguered-castle", 2).to_text()
SPIDER_TEXT = castle.SpiderDeal.from_number("spider-2", 2).to_text()
CASTLE_NAME = "a castle board (Beleaguered Castle, Streets and Alleys, Citadel)"


def without_first_line(text: str) -> str:
    return text.split("\n", 1)[1]


def test_a_castle_board_read_as_spider_says_it_is_a_castle_board() -> None:
    # It said "line 1, 'Foundations:': not a card".
    for variant in (None, "spider", "spider-1"):
        with pytest.raises(castle.BoardError) as info:
            castle.SpiderDeal.from_text(CASTLE_TEXT, variant)
        assert str(info.value) == (
            f"line 1: this is {CASTLE_NAME}, not a Spider board: it has a foundations line"
        )
        assert (info.value.line, info.value.token) == (1, None)
    free_cells = "# a comment\nFreecells: -\n" + without_first_line(CASTLE_TEXT)
    with pytest.raises(castle.BoardError, match=r"line 2: this is a castle board .* free cells"):
        castle.SpiderDeal.from_text(free_cells)


def test_a_spider_board_read_as_a_castle_game_says_it_is_a_spider_board() -> None:
    # It said "line 1, 'Stock:': not a card", or without the stock line "'|': not a card".
    for variant in (None, "beleaguered-castle", "citadel", "streets-and-alleys"):
        with pytest.raises(castle.BoardError) as info:
            castle.Deal.from_text(SPIDER_TEXT, variant)
        assert str(info.value) == (
            f"line 1: this is a Spider board, not {CASTLE_NAME}: it has a stock line"
        )
    with pytest.raises(castle.BoardError, match=r"line 1: this is a Spider board.*face-down"):
        castle.Deal.from_text(without_first_line(SPIDER_TEXT))
    with pytest.raises(castle.BoardError, match=r"line 2: this is a Spider board.*taken off"):
        castle.Deal.from_text("\nOFF: S\n" + without_first_line(SPIDER_TEXT))


def test_a_board_of_its_own_family_keeps_its_own_error() -> None:
    bad_card = CASTLE_TEXT.replace("QD", "ZZ", 1)
    with pytest.raises(castle.BoardError) as info:
        castle.Deal.from_text(bad_card)
    assert (info.value.token, info.value.message) == (
        "ZZ",
        "not a card (rank A 2-9 T J Q K, suit H C D S)",
    )
    with pytest.raises(castle.BoardError, match="not a card") as info:
        castle.SpiderDeal.from_text(SPIDER_TEXT.replace("|", "| ZZ", 1))
    assert info.value.token == "ZZ"
    # Eight columns and nothing else: no sign of either family, the reader's own words.
    with pytest.raises(castle.BoardError, match="Spider has 10 columns, not 8"):
        castle.SpiderDeal.from_text(without_first_line(CASTLE_TEXT))
    # Signs of both: neither is named.
    both = "Stock:\n" + CASTLE_TEXT
    assert board_family(both) is None
    with pytest.raises(castle.BoardError, match="not a card"):
        castle.Deal.from_text(both)


def test_the_signs_are_counted_on_the_cores_lines() -> None:
    # "\x0b" breaks a line for str.splitlines, not for the core: the line numbers agree.
    sign = board_family("KS\x0bQS\nstock: AS\n")
    assert sign is not None and (sign.family, sign.line) == ("spider", 2)
    assert board_family("") is None and board_family("KS QS\n# Stock:\n") is None


def test_castle_solve_names_the_family_of_a_board_given_to_the_other(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    castle_board = tmp_path / "castle.txt"
    castle_board.write_text(CASTLE_TEXT)
    spider_board = tmp_path / "spider.txt"
    spider_board.write_text(SPIDER_TEXT)
    for argv, said in (
        (
            ["--variant", "spider-1", str(castle_board)],
            f"{castle_board}, line 1: this is {CASTLE_NAME}, not a Spider board: it has a "
            "foundations line (without --variant it is read as such)",
        ),
        (
            ["--variant", "citadel", str(spider_board)],
            f"{spider_board}, line 1: this is a Spider board, not {CASTLE_NAME}: it has a "
            "stock line (without --variant it is read as such)",
        ),
    ):
        code = main(["solve", *argv])
        out, err = capsys.readouterr()
        assert (code, out, err) == (2, "", f"castle: error: {said}\n")


def test_castle_solve_reads_a_spider_board_without_a_stock_line_as_spider(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Face-down cards are Spider's: the board is read as Spider (here: its stock is missing).
    board = tmp_path / "spider.txt"
    board.write_text(without_first_line(SPIDER_TEXT))
    code = main(["solve", str(board)])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert "in the Spider (2 suits) deck" in err and "castle board" not in err


def test_a_card_in_a_free_cell_tells_a_free_cell_board() -> None:
    start = castle.CellsDeal.from_number("freecell", 617)
    to_cell = next(m for m in start.core.legal_moves() if m[3] == "cell")
    text = castle.CellsDeal(start.core.play(*to_cell)).to_text()
    sign = board_family(text)
    assert sign is not None and (sign.family, sign.line) == ("cells", 2)
    said = r"line 2: this is a free-cell board \(FreeCell, Baker's.*: it has a card in a free cell"
    with pytest.raises(castle.BoardError, match=said):
        castle.SpiderDeal.from_text(text)
    # The castle reader names the card itself; empty cells tell nothing more than castle's.
    with pytest.raises(castle.BoardError, match="no free cells"):
        castle.Deal.from_text(text)
    sign = board_family(start.to_text())
    assert sign is not None and sign.family == "castle" and sign.families == ("castle", "cells")
