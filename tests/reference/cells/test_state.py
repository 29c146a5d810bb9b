"""The free-cell reference's position (castle.reference.cells.state): its key forgets the
order of the cells and of the columns and nothing else; a placed key decodes to its position."""

from __future__ import annotations

from castle import CellsDeal
from castle.reference.cells import CellsState
from castle.solving.cells import CELLS_VARIANTS


def test_keys_forget_the_order_of_cells_and_columns_and_placed_keys_decode() -> None:
    for variant in CELLS_VARIANTS:
        state = CellsState.from_deal(CellsDeal.from_number(variant, 3))
        state.cells[0] = state.cols[1].pop()
        back = CellsState.from_placed(variant, state.placed_key())
        assert (back.cols, back.cells, back.foundations) == (
            state.cols,
            state.cells,
            state.foundations,
        )
        turned = state.copy()
        turned.cols.reverse()
        turned.cells.reverse()
        assert turned.key() == state.key()
        assert turned.placed_key() != state.placed_key()
        turned.cols[0].clear()
        assert turned.key() != state.key()


def test_decoding_puts_up_every_card_not_out() -> None:
    deal = CellsDeal.from_number("siegecraft", 1)  # the aces start on the foundations
    state = CellsState.from_deal(deal)
    assert set(state.foundations.values()) == {1}
    assert CellsState.from_placed("siegecraft", state.placed_key()).foundations == dict(
        deal.foundations
    )
