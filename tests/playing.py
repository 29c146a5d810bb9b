"""What tests that play a game ask of it (shared by the player's tests and the saves')."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import castle
from textual.pilot import Pilot


def tappable(game: castle.Game, column: int) -> bool:
    """Whether a tap on ``column`` would move a card (asked of a copy: ``game`` is untouched)."""
    try:
        castle.Game(game.position).tap(column)
    except castle.IllegalMoveError:
        return False
    return True


async def until(pilot: Pilot[None], done: Callable[[], bool], seconds: float = 10) -> None:
    """Wait until ``done()`` (the player's timers run late on a busy machine)."""
    for _ in range(int(seconds / 0.05)):
        if done():
            return
        await pilot.pause(0.05)
    assert done()


def castle_play_process(data: Path, *args: str) -> subprocess.Popen[str]:
    """``castle play --plain`` on the data directory ``data``, its pipes open."""
    return subprocess.Popen(
        [sys.executable, "-m", "castle", "play", "--plain", *args, "--data-dir", str(data)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
