"""The keys of each table (``castle.tui.keys``) as the footer names them."""

from __future__ import annotations

from pathlib import Path

from castle import Game, SaveStore, SpiderGame
from castle.tui.app import CastleApp
from piloting import DEAL, SPIDER_ENDGAME, run
from textual.pilot import Pilot


def test_the_footer_names_the_move_keys(tmp_path: Path) -> None:
    def footer(app: CastleApp) -> dict[str, str]:
        return {k.key_display: k.description for k in app.screen.query("FooterKey")}  # type: ignore[attr-defined]

    async def castle_keys(app: CastleApp, pilot: Pilot[None]) -> None:
        keys = footer(app)
        assert keys["1-8"] == "Select/move" and keys["f"] == "Foundation"
        assert keys["?"] == "Guide" and keys["u"] == "Undo"

    run(CastleApp(SaveStore(tmp_path), Game(DEAL)), castle_keys)

    async def spider_keys(app: CastleApp, pilot: Pilot[None]) -> None:
        keys = footer(app)
        assert keys["0-9"] == "Select/move" and keys["d"] == "Deal" and keys["?"] == "Guide"

    run(CastleApp(SaveStore(tmp_path), SpiderGame(SPIDER_ENDGAME)), spider_keys)
