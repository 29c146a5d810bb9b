"""The line mode (``castle play --plain``, castle.cli.plain)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import castle


def test_spider_in_the_line_mode(tmp_path: Path) -> None:
    commands = []
    for move in castle.solve(castle.SpiderDeal.from_number("spider-1", 1)).moves:
        if move.kind == "deal":
            commands.append("d")
        elif move.kind == "off":
            assert move.src is not None
            commands.append(f"{move.src + 1} o")
        else:
            assert move.src is not None and move.dst is not None
            commands.append(f"{move.src + 1} {move.dst + 1} {len(move.cards)}")
    done = subprocess.run(
        [sys.executable, "-m", "castle", "play", "--plain", "--variant", "spider-1", "--deal", "1"],
        input="\n".join(commands) + "\nq\n",
        capture_output=True,
        text=True,
        env={**os.environ, "CASTLE_DATA_DIR": str(tmp_path), "NO_COLOR": "1"},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Spider (1 suit) · deal 1 · moves 0" in done.stdout and "##" in done.stdout
    assert "You won!" in done.stdout and "Spider (1 suit): 1 won, 0 lost (100%)" in done.stdout
