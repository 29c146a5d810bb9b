"""The full-screen player in a real terminal of the smallest common size, 80x24: tmux runs
``castle play``, ``send-keys`` presses keys, ``capture-pane`` reads the screen as a player sees
it. The level picker's box is whole; the menu says it paused the game.

tmux is part of the test set-up (.ci/run installs it): without it these tests fail, saying so,
and never skip."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

#: The classic terminal: the player must fit it whole.
COLUMNS, ROWS = 80, 24

#: The corners and edges of the box Textual draws round a list (its "tall" border).
TOP, BOTTOM, LEFT, RIGHT = "▔", "▁", "▊", "▎"


class Terminal:
    """A tmux server of its own, with one window of 80x24 running ``castle play``."""

    def __init__(self, data_dir: Path, args: list[str]) -> None:
        tmux = shutil.which("tmux")
        if tmux is None:
            pytest.fail("the terminal tests need tmux: apt-get install tmux (.ci/run does)")
        # A socket of its own, in a short path (a socket's is bounded), gone with the test.
        self.home = tempfile.TemporaryDirectory(prefix="castle-tmux-")
        self.tmux = [tmux, "-S", str(Path(self.home.name, "socket")), "-f", "/dev/null"]
        play = [sys.executable, "-m", "castle", "play", "--data-dir", str(data_dir), *args]
        # The shell stays after the player ends, so that a crash's last words can be read.
        command = f"{shlex.join(play)}; echo exited $?; sleep 600"
        try:
            self.tmux_run(
                "new-session", "-d", "-x", str(COLUMNS), "-y", str(ROWS), "-s", "play", command
            )
        except BaseException:
            self.close()
            raise

    def tmux_run(self, *args: str) -> str:
        done = subprocess.run(
            [*self.tmux, *args], capture_output=True, text=True, timeout=30, check=True
        )
        return done.stdout

    def screen(self) -> list[str]:
        """The screen's lines as a player reads them."""
        return self.tmux_run("capture-pane", "-p", "-t", "play").split("\n")[:ROWS]

    def press(self, *keys: str) -> None:
        self.tmux_run("send-keys", "-t", "play", *keys)

    def wait_for(self, done: Callable[[list[str]], bool], seconds: float = 30) -> list[str]:
        """The screen once ``done(screen)`` holds (the player starts slowly on a busy machine)."""
        deadline = time.monotonic() + seconds
        while True:
            screen = self.screen()
            if done(screen):
                return screen
            if time.monotonic() > deadline:
                pytest.fail("the screen never showed what was awaited:\n" + "\n".join(screen))
            time.sleep(0.1)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True, timeout=30, check=False)
        self.home.cleanup()


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Callable[..., Terminal]]:
    opened: list[Terminal] = []

    def open_terminal(*args: str) -> Terminal:
        opened.append(Terminal(tmp_path / "data", list(args)))
        return opened[-1]

    yield open_terminal
    for term in opened:
        term.close()


def showing(text: str) -> Callable[[list[str]], bool]:
    return lambda screen: any(text in line for line in screen)


def box_problems(screen: list[str]) -> list[str]:
    """What is missing of the one box on ``screen`` (drawn with TOP, BOTTOM, LEFT and RIGHT):
    its four edges, each line's left and right edge in the same columns, within the screen."""
    tops = [i for i, line in enumerate(screen) if TOP * 10 in line]
    bottoms = [i for i, line in enumerate(screen) if BOTTOM * 10 in line]
    if len(tops) != 1 or len(bottoms) != 1 or bottoms[0] <= tops[0]:
        return [f"no one box: top edge on lines {tops}, bottom edge on lines {bottoms}"]
    top, bottom = tops[0], bottoms[0]
    left = screen[top].index(LEFT + TOP)
    right = len(screen[top].rstrip()) - 1
    problems = []
    if screen[top][right] != RIGHT:
        problems.append(f"the top edge has no right corner: {screen[top]!r}")
    for row in range(top, bottom + 1):
        line = screen[row].ljust(COLUMNS)
        if line[left] != LEFT or line[right] != RIGHT or line[right + 1 :].strip():
            problems.append(f"line {row} is cut: {screen[row]!r}")
    return problems


def test_the_level_picker_is_whole_at_80x24(terminal: Callable[..., Terminal]) -> None:
    term = terminal()
    screen = term.wait_for(showing("Spider (4 suits)"))
    assert box_problems(screen) == []
    assert any("pick a level" in line for line in screen)
    assert any("Quit" in line for line in screen[-2:])  # the footer, under the box


def test_the_level_picker_with_continue_is_whole_at_80x24(
    terminal: Callable[..., Terminal], tmp_path: Path
) -> None:
    # An unfinished game first (one move, in the line mode): the picker then has one more line.
    data = str(tmp_path / "data")
    subprocess.run(
        [sys.executable, "-m", "castle", "play", "--plain", "--deal", "2", "--data-dir", data],
        input="7 8\nq\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    term = terminal()
    screen = term.wait_for(showing("Spider (4 suits)"))
    assert any("Continue          Medium, deal 2, 1 move" in line for line in screen)
    assert box_problems(screen) == []


def test_the_menu_says_the_game_is_paused(terminal: Callable[..., Terminal]) -> None:
    term = terminal("--deal", "2")
    term.wait_for(showing("Medium · deal 2"))
    term.press("m")
    screen = term.wait_for(showing("Resume"))
    assert any(line.strip(" █") == "Paused" for line in screen)
    assert any("Medium · deal 2 · moves 0" in line for line in screen)  # the game it paused
    assert any("Quit (the game is saved)" in line for line in screen)
    term.press("Escape")
    term.wait_for(lambda screen: not showing("Paused")(screen))
