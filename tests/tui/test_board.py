"""The columns drawn as cards (``castle.tui.board``): a press and release in place is a click,
a drag is none, even one let go over its own column."""

from __future__ import annotations

from pathlib import Path

from castle import Game, SaveStore
from castle.tui.app import CastleApp
from piloting import RUNS, card_row, marked, message, run
from textual.pilot import Pilot


def test_a_press_and_release_in_place_is_still_a_click(tmp_path: Path) -> None:
    game = Game(RUNS, store=SaveStore(tmp_path))

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.mouse_down("#column-4", offset=card_row(6))
        await pilot.mouse_up("#column-4", offset=card_row(6))
        await pilot.pause()
        assert game.moves == 0 and not marked(app)
        await pilot.click("#column-4", offset=card_row(6))  # down, up and a click: a tap
        await pilot.pause(0.5)
        assert game.foundations["D"] == 7
        await pilot.double_click("#column-6", offset=card_row(4))
        await pilot.pause(0.5)
        assert game.foundations["S"] == 7

    run(CastleApp(SaveStore(tmp_path), game), play)


def test_a_drag_let_go_over_its_own_column_puts_the_cards_back(tmp_path: Path) -> None:
    game = Game(RUNS, store=SaveStore(tmp_path))

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.mouse_down("#column-1", offset=card_row(2))
        await pilot.hover("#column-2")
        await pilot.mouse_up("#column-1", offset=card_row(2))
        await pilot.pause(0.5)
        assert message(app) == "put back" and not marked(app)

    run(CastleApp(SaveStore(tmp_path), game), play)
    assert game.moves == 0
