"""What the player's screens share (``castle.tui.common``): messages draw their cards as the
table does."""

from __future__ import annotations

from pathlib import Path

from castle import Game, SaveStore
from castle.tui.app import CastleApp
from piloting import DEAL, message, run
from textual.pilot import Pilot


def test_messages_draw_cards_as_the_table_does(tmp_path: Path) -> None:
    game = Game.new("medium", deal=DEAL, store=SaveStore(tmp_path))

    async def play(app: CastleApp, pilot: Pilot[None]) -> None:
        await pilot.press("7", "1")
        assert message(app) == "10♥ does not fit on 3♦ (one rank lower only)"
        await pilot.press("8", "8")
        assert message(app).startswith("J♥ selected:")  # a run of one: still one card
        await pilot.press("escape", "7")
        assert message(app).startswith("10♥ selected")

    run(CastleApp(SaveStore(tmp_path), game), play)
