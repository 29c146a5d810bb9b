"""What tests that play a game ask of it (shared by the player's tests and the saves')."""

from __future__ import annotations

import os
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


#: ``python -m castle`` with a searching hint's budget of a minute, not 1.5 s of the wall
#: clock: on a busy machine (other tests beside it) the short one may run out.
PATIENT_CASTLE = (
    "import sys, castle.game.played; castle.game.played.HINT_SECONDS = 60; "
    "from castle.cli import main; sys.exit(main())"
)


def castle_play(
    args: list[str], commands: str, data: Path, patient: bool = False
) -> subprocess.CompletedProcess[str]:
    """``castle play --plain`` given ``commands``; ``patient``: hints may think a minute."""
    env = {**os.environ, "CASTLE_DATA_DIR": str(data), "NO_COLOR": "1"}
    castle_command = ["-c", PATIENT_CASTLE] if patient else ["-m", "castle"]
    return subprocess.run(
        [sys.executable, *castle_command, "play", "--plain", *args],
        input=commands,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
