"""The free-cell games' core through ``castle._core`` (docs/rules.md §6): deal N of each variant
is the reference's deal N (``pysol_cards``: FreeCell's with its ``ms`` option, Microsoft's
deals; the others PySolFC's), the board text, the moves and supermoves, the solver's answers
and the replay check.

``pysol_cards`` shuffles N <= 32000 with the Microsoft generator where PySolFC switches to the
Mersenne Twister at 32000 (tests/core/test_deals.py); the PySolFC deals here leave 32000 out.
"""

from __future__ import annotations

import random

import pytest
from castle import _core
from castle.solving.cells import _moves_of_codes
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

RANKS = "A23456789TJQK"
SUITS = "CDHS"
RENDERER = CardRenderer(True)  # 10 printed as T, as the core writes it

#: Our variant -> pysol_cards' game whose layout it has, and which generator deals it.
REFERENCE = {
    "freecell": ("freecell", RandomBase.DEALS_MS),
    "bakers-game": ("bakers_game", RandomBase.DEALS_PYSOLFC),
    "eight-off": ("eight_off", RandomBase.DEALS_PYSOLFC),
    "seahaven-towers": ("seahaven_towers", RandomBase.DEALS_PYSOLFC),
    "siegecraft": ("beleaguered_castle", RandomBase.DEALS_PYSOLFC),
    "stronghold": ("streets_and_alleys", RandomBase.DEALS_PYSOLFC),
    "private-lane": ("streets_and_alleys", RandomBase.DEALS_PYSOLFC),
}
MS_MAX = 2**31 - 1
_RNG = random.Random(20261206)  # the same numbers on every run
RANDOM_MS = [*sorted(_RNG.randrange(1, MS_MAX) for _ in range(150)), MS_MAX]
#: pysol_cards' ms deals past 2^31 (its LCRandom31 takes 33-bit seeds).
PAST_31 = [2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**33 - 1]
RANDOM_PYSOLFC = sorted({_RNG.randrange(32001, 2**40) for _ in range(60)})


def name(index: int) -> str:
    return RANKS[index % 13] + SUITS[index // 13]


def reference(variant: str, number: int) -> tuple[list[list[str]], list[str]]:
    """The reference's columns and cells (``-`` for an empty one) of deal ``number``."""
    game, deals = REFERENCE[variant]
    lines = Game(game, number, deals).calc_layout_string(RENDERER).splitlines()
    cells: list[str] = []
    columns: list[list[str]] = []
    for line in lines:
        if line.startswith("Freecells:"):
            cells = line.split()[1:]
        elif not line.startswith("Foundations:"):
            columns.append(line.split())
    return columns, cells


def ours(variant: str, number: int) -> tuple[list[list[str]], list[str]]:
    deal = _core.CellsDeal.from_number(variant, number)
    columns = [[name(c) for c in column] for column in deal.columns]
    cells = ["-" if c is None else name(c) for c in deal.cells]
    return columns, cells


@pytest.mark.parametrize("variant", sorted(REFERENCE))
def test_deals_are_the_references(variant: str) -> None:
    numbers = list(range(1, 1001))
    numbers += RANDOM_MS + PAST_31 if variant == "freecell" else RANDOM_PYSOLFC
    for number in numbers:
        columns, cells = ours(variant, number)
        want_columns, want_cells = reference(variant, number)
        assert columns == want_columns, (variant, number)
        # pysol_cards leaves Seahaven's last empty cell out and FreeCell's cells unwritten.
        want_cells += ["-"] * (len(cells) - len(want_cells))
        assert cells == want_cells, (variant, number)


def test_deal_numbers_have_their_variants_range() -> None:
    assert _core.CellsDeal.from_number("freecell", 2**33 - 1).number == 2**33 - 1
    with pytest.raises(ValueError, match=f"1 to {2**33 - 1}"):
        _core.CellsDeal.from_number("freecell", 2**33)
    with pytest.raises(ValueError, match="out of range"):
        _core.CellsDeal.from_number("bakers-game", 0)
    with pytest.raises(ValueError, match="unknown free-cell variant"):
        _core.CellsDeal.from_number("spider", 1)
    assert _core.CellsDeal.from_number("fastness", 3).variant == "private-lane"
    assert _core.cells_variants()[0] == "freecell"
    assert _core.cells_rules("eight-off") == ("Eight Off", 8, 8, "suit", True, 2**63 - 1)
    assert _core.cells_rules("freecell")[3] == "alternate-colours"


def test_board_text_reads_back_and_refuses_with_its_place() -> None:
    for variant in _core.cells_variants():
        deal = _core.CellsDeal.from_number(variant, 9)
        back = _core.CellsDeal.from_text(deal.to_text(), variant)
        assert (back.columns, back.cells, back.foundations) == (
            deal.columns,
            deal.cells,
            deal.foundations,
        )
        assert back.number is None
    text = _core.CellsDeal.from_number("freecell", 9).to_text()
    assert text.startswith("Foundations: H-0 C-0 D-0 S-0\nFreecells: - - - -\n: ")
    with pytest.raises(_core.BoardTextError) as refused:
        _core.CellsDeal.from_text(text.replace("Freecells: -", "Freecells: XX", 1))
    assert refused.value.args[1:] == (2, "XX")
    with pytest.raises(_core.BoardTextError, match="times"):
        _core.CellsDeal.from_text(text.replace("H-0", "H-5", 1))


def test_moves_supermoves_and_their_single_moves() -> None:
    deal = _core.CellsDeal.from_number("freecell", 1)
    moves = deal.legal_moves()
    assert moves and all(deal.is_legal(*m) for m in moves)
    to_cell = next(m for m in moves if m[3] == "cell")
    after = deal.play(*to_cell)
    assert after.cells.count(None) == 3 and after.number is None
    with pytest.raises(ValueError, match="not a legal move"):
        deal.play(0, "column", 0, "column", 99)
    assert not deal.is_legal(0, "nowhere", 0, "cell", 0)
    # A run of two moved as a unit: the single moves it stands for go through a cell.
    text = (
        "Freecells: - - - -\n: KH QS JH\n: KD\n: QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD\n"
        ": KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC\n: QH TH 9H 8H 7H 6H 5H 4H 3H 2H AH\n"
        ": KS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS\n:\n:\n"
    )
    position = _core.CellsDeal.from_text(text)
    queen = 13 * 3 + 11  # QS
    assert position.movable(0) == 3 and position.max_run(1) == 20 and position.max_run(6) == 10
    assert position.is_legal(queen, "column", 0, "column", 1)
    singles = position.single_moves(queen, "column", 0, "column", 1)
    assert [(m[1], m[3]) for m in singles] == [
        ("column", "cell"),
        ("column", "column"),
        ("cell", "column"),
    ]
    moved = position.play(queen, "column", 0, "column", 1)
    assert [[name(c) for c in column] for column in moved.columns[:2]] == [
        ["KH"],
        ["KD", "QS", "JH"],
    ]
    assert not position.is_legal(13 * 2 + 12, "column", 0, "column", 1)  # KH does not go on KD


def test_solver_wins_replay_and_deal_11982_is_proved_lost() -> None:
    for variant in _core.cells_variants():
        deal = _core.CellsDeal.from_number(variant, 1)
        status, codes, _, _, limit = _core.solve_cells(deal, 2_000_000, None, 1 << 30)
        assert status in ("solved", "unsolvable") and limit is None
        moves = moves_of(codes)
        if status == "solved":
            assert _core.cells_replays(deal, moves)
            assert not _core.cells_replays(deal, moves[:-1])
            position = deal
            for move in moves:
                position = position.play(*move)
            assert position.is_won()
    lost = _core.CellsDeal.from_number("freecell", 11982)
    status, codes, states, _, _ = _core.solve_cells(lost, None, None, 1 << 30, max_cpu_seconds=10)
    assert (status, codes) == ("unsolvable", b"") and states > 35_000
    short = _core.solve_cells(lost, 100, None, 1 << 30)
    assert (short[0], short[4]) == ("unknown", "states")
    with pytest.raises(ValueError, match="max_states"):
        _core.solve_cells(lost, 0, None, 1 << 30)


def moves_of(codes: bytes) -> list[tuple[int, str, int, str, int]]:
    """The moves of ``solve_cells`` (two bytes each), read by the package's own reader, as
    the tuples the other calls take."""
    return [m.core for m in _moves_of_codes(codes)]


def test_safe_moves_are_what_the_solver_makes_first() -> None:
    deal = _core.CellsDeal.from_number("eight-off", 4)
    status, codes, *_ = _core.solve_cells(deal, 2_000_000, None, 1 << 30)
    assert status == "solved"
    moves = moves_of(codes)
    safe = deal.safe_moves()
    assert moves[: len(safe)] == safe
    assert all(m[3] == "foundation" for m in safe)
