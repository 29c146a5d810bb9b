"""A run moved as a unit (castle.reference.cells.runs): through the cells and the empty
columns, as the core moves it, single move for single move; one card too many refused."""

from __future__ import annotations

from castle import CellsDeal
from castle.reference import cells as ref
from castle.solving.cells import CellsMove, public_move

BOARD = (
    "Freecells: 2D - - AH\n: KS QH JS TH 9S 8H 7S 6H 5S 4H 3S 2H\n: KC\n:\n:\n"
    ": QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC\n"
    ": KD QD JD TD 9D 8D 7D 6D 5D 4D 3D AD\n"
    ": KH QS JH TS 9H 8S 7H 6S 5H 4S 3H 2S AS\n:\n"
)


def core_run(deal: CellsDeal, src: int, count: int, dst: int) -> list[CellsMove] | None:
    card = deal.columns[src][-count]
    try:
        return [
            public_move(*m)
            for m in deal.core.single_moves(card.index, "column", src, "column", dst)
        ]
    except ValueError:
        return None


def test_a_run_goes_through_the_cells_and_the_empty_columns_as_the_core_moves_it() -> None:
    deal = CellsDeal.from_text(BOARD, "freecell")
    state = ref.CellsState.from_deal(deal)
    # 2 free cells, 3 empty columns besides the target's: (2 + 1) * 2^3 = 24.
    moves = ref.run_moves(state, 0, 11, 1)
    assert moves is not None and moves == core_run(deal, 0, 11, 1)
    after = state.copy()
    for m in moves:
        assert ref.is_legal(after, m)
        ref.apply(after, m)
    assert len(after.cols[1]) == 12 and len(after.cols[0]) == 1
    assert ref.run_moves(state, 0, 12, 1) is None  # KS does not go on KC
    # Building by suit (Eight Off) the run is one card long.
    eight = BOARD.replace("2D - - AH", "2D - - AH - - - -")
    assert (
        ref.run_moves(ref.CellsState.from_deal(CellsDeal.from_text(eight, "eight-off")), 0, 2, 1)
        is None
    )
    # By rank (Stronghold) the whole column is a run; one free cell and two empty columns
    # besides the target's let 2 * 2^2 = 8 cards move into an empty column, not 9.
    text = BOARD.replace("2D - - AH", "-").replace("AC", "AC 2D AH")
    stronghold = CellsDeal.from_text(text, "stronghold")
    strong = ref.CellsState.from_deal(stronghold)
    assert ref.run_len(strong, 0) == 12
    eight_cards = ref.run_moves(strong, 0, 8, 3)
    assert eight_cards is not None and eight_cards == core_run(stronghold, 0, 8, 3)
    assert ref.run_moves(strong, 0, 9, 3) is None
    assert core_run(stronghold, 0, 9, 3) is None
