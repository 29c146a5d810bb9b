"""The free-cell table (``castle.tui.cells_table``): the cells in the top row, pressed,
dragged onto and clicked as columns are; the ``c`` key; every free-cell game fits 80x24."""

from __future__ import annotations

import asyncio
from pathlib import Path

import castle
import pytest
from castle import CellsDeal, CellsGame, SaveStore
from castle.game.new_game import new_game
from castle.tui.app import CastleApp, CellsTableScreen
from piloting import card_row, marked, message, run
from playing import until
from textual.pilot import Pilot

#: A FreeCell position (tests/game/test_cells_game.py's): the run 8S 7H 6C on column 2, two
#: empty columns, nothing to go up by itself.
BOARD = CellsDeal.from_text(
    "Foundations: H-A C-A D-A S-A\nFreecells: - - - -\n"
    ": 2C 3D 4S 5H KS QH JC TD 9S 8D\n: KH QC JD TS 9C 8S 7H 6C\n"
    ": 2D 3C 4H 5S KD QS JH TC 9D 8C\n: 2H 3S 4D 5C KC QD JS TH 9H 8H\n"
    ": 2S 3H 4C 5D 7S 6D\n: 6H 7D 6S 7C\n:\n:\n",
    "freecell",
)


def test_a_card_dragged_into_a_cell_and_back_onto_a_column(tmp_path: Path) -> None:
    game = CellsGame(BOARD, store=SaveStore(tmp_path))

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, CellsTableScreen)
        await pilot.mouse_down("#column-1", offset=card_row(9))  # 8D
        assert {"column-9", "column-10", "column-11", "column-12"} <= marked(app)
        await pilot.hover("#column-9")
        await pilot.mouse_up("#column-9", offset=(2, 1))
        await pilot.pause()
        assert game.cells[0] == castle.Card(8, "D") and game.moves == 1
        assert "8♦" in str(app.screen.query_one("#column-9").render())
        await pilot.mouse_down("#column-9", offset=(2, 1))  # the cell's card, back down
        assert "column-7" in marked(app)
        await pilot.hover("#column-7")
        await pilot.mouse_up("#column-7", offset=card_row(0))
        await pilot.pause()
        assert game.columns[6] == [castle.Card(8, "D")] and game.cells[0] is None

    run(CastleApp(SaveStore(tmp_path), game), play)


def test_a_run_too_long_is_refused_and_says_why(tmp_path: Path) -> None:
    full = CellsDeal.from_text(
        "Foundations: H-A C-A D-A S-A\nFreecells: KS KH KD KC\n"
        ": 2C 3D 4S 5H QH JC TD 9S 8D\n: QC JD TS 9C 8S 7H 6C\n"
        ": 2D 3C 4H 5S QS JH TC 9D 8C\n: 2H 3S 4D 5C QD JS TH 9H 8H\n"
        ": 2S 3H 4C 5D 7S 6D\n: 6H 7D 6S 7C\n:\n:\n",
        "freecell",
    )
    store = SaveStore(tmp_path)
    game = CellsGame(full, store=store)

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.mouse_down("#column-2", offset=card_row(4))  # 8S 7H 6C
        assert "column-7" not in marked(app)  # two cards may go there, not three
        await pilot.hover("#column-7")
        await pilot.mouse_up("#column-7", offset=card_row(0))
        await pilot.pause()
        assert "3 cards need more free cells or empty columns" in message(app)
        assert game.moves == 0

    run(CastleApp(store, game), play)


def test_keys_c_puts_into_a_cell_and_takes_out(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = CellsGame(BOARD, store=store)

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.press("1", "c")  # 8D into the first free cell
        await pilot.pause()
        assert game.cells[0] == castle.Card(8, "D")
        await pilot.press("2", "c")  # 6C into the next
        await pilot.pause()
        assert game.cells[1] == castle.Card(6, "C")
        await pilot.press("c", "c")  # the first cell's card, then the next cell's
        assert app.screen.table.selected == (9, 1)  # type: ignore[attr-defined]
        await pilot.press("7")  # 6C into the empty column 7
        await pilot.pause()
        assert game.columns[6] == [castle.Card(6, "C")] and game.cells[1] is None
        await pilot.press("escape", "9")  # no column 9 (not cell 1, place 8)
        await pilot.pause()
        assert message(app) == "no column 9: the columns are 1 to 8, the cells c"
        assert app.screen.table.selected is None

    run(CastleApp(store, game), play)


class PatientApp(CastleApp):
    """Clicks far apart still make a double click (a busy machine's pilot is slow)."""

    CLICK_CHAIN_TIME_THRESHOLD = 3.0


def test_a_click_taps_and_a_double_click_sends_to_a_cell(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = CellsGame(BOARD, store=store)

    async def play() -> None:
        app = PatientApp(store, game)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.click("#column-1", offset=card_row(9), times=2)  # 8D: to a cell
            await until(pilot, lambda: game.cells[0] == castle.Card(8, "D"))
            await pilot.click("#column-2", offset=card_row(7))  # 6C: into an empty column
            await until(pilot, lambda: game.columns[6] == [castle.Card(6, "C")])

    asyncio.run(play())


@pytest.mark.parametrize("variant", castle.CELLS_VARIANTS)
def test_every_free_cell_game_fits_80x24(tmp_path: Path, variant: str) -> None:
    store = SaveStore(tmp_path)
    level_id = castle.game.levels.level_for_variant(variant).id
    game = new_game(level_id, store, 1)

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        assert isinstance(app.screen, CellsTableScreen)
        assert not app.screen.query_one("#too-small").display
        assert app.screen.query_one("#cells").display
        cells = len(game.piles()) - len(game.columns)
        assert len(app.screen.column_views()) == len(game.columns) + cells

    run(CastleApp(store, game), play, size=(80, 24))
