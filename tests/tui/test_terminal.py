"""The full-screen player in a real terminal of the smallest common size, 80x24: tmux runs
``castle play``, ``send-keys`` presses keys, ``capture-pane`` reads the screen as a player sees
it. The level picker's box is whole; the menu says it paused the game.

tmux is part of the test set-up (.ci/run installs it): without it these tests fail, saying so,
and never skip."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from castle import Game, SaveStore, SpiderDeal, SpiderGame, Table
from castle.actions import Advise, PlayHint

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


#: Spider (4 suits) deal 7, as its fair hint plays it: a column of 17 cards at move 112, of
#: 21 at move 143 (of 33 later), and the game won at move 233.
TALL_DEAL, TALL_FROM, TALL_PAST = 7, 112, 20


def tallest(game: SpiderGame) -> int:
    return max(len(column.down) + len(column.up) for column in game.columns)


@pytest.mark.slow
def test_a_tall_spider_game_is_played_on_by_the_hint_at_80x24(
    terminal: Callable[..., Terminal], tmp_path: Path
) -> None:
    """A four-suit game saved at move 112, resumed in tmux at 80x24 and played on by h, h
    (the hint shown, then played) until a column holds more than 20 cards and five moves
    after: at every step the status line, the stock row, the columns' numbers, the hint on
    the message line and the footer are on the screen, never the "too small" notice, and
    once a column is taller than the rows it folds."""
    data = tmp_path / "data"
    game = SpiderGame(SpiderDeal.from_number("spider", TALL_DEAL), store=SaveStore(data))
    table = Table(game)
    while game.moves < TALL_FROM:
        table.act(Advise())
        assert table.act(PlayHint()).done
    game.pause()  # saved, to be continued
    term = terminal("--level", "spider")
    term.wait_for(showing(f"deal {TALL_DEAL} · moves {TALL_FROM} "))
    after = None  # moves made since a column first held more than TALL_PAST cards
    for moves in range(TALL_FROM, TALL_FROM + 60):
        term.press("h")
        screen = term.wait_for(showing("fair hint: "), seconds=60)
        assert_table_whole(screen, moves)
        assert any("fair hint: try " in line for line in screen[20:23]), screen
        term.press("h")
        screen = term.wait_for(showing(f" · moves {moves + 1} "), seconds=60)
        assert_table_whole(screen, moves + 1)
        played = Game.resume(SaveStore(data))  # the save the player just wrote
        assert isinstance(played, SpiderGame) and played.moves == moves + 1
        if tallest(played) > len(screen) - 6:
            assert any("⋮" in line or "▒ " in line for line in screen[4:21]), "\n".join(screen)
        if after is None and tallest(played) > TALL_PAST:
            after = 0
        elif after is not None:
            after += 1
            if after == 5:
                return
    pytest.fail(f"no column grew past {TALL_PAST} cards by move {moves + 1}")


def assert_table_whole(screen: list[str], moves: int) -> None:
    """The table as a player needs it at 80x24 (the status line whole to its score)."""
    text = "\n".join(screen)
    assert "The table needs" not in text, text
    assert re.match(rf" Spider \(4 suits\) · deal {TALL_DEAL} · moves {moves} · ", screen[0]), text
    assert " · score " in screen[0], text
    assert screen[1].lstrip().startswith("Stock"), text
    assert screen[3].split() == [str(n) for n in range(1, 11)], text
    assert "h Hint" in screen[-1] and "q Quit" in screen[-1], text


@pytest.mark.slow
def test_a_freecell_game_is_won_by_the_hint_at_80x24(
    terminal: Callable[..., Terminal], tmp_path: Path
) -> None:
    """FreeCell deal 617 played by h, h (the hint shown, then played) to the win: at every
    step the status line, the cells and foundations row, the columns' numbers, the hint on the
    message line and the footer are on the screen; the win is saved in the statistics."""
    term = terminal("--variant", "freecell", "--deal", "617")
    screen = term.wait_for(drawn(showing("FreeCell · deal 617 · moves 0 ")))
    moves = 0
    for _ in range(200):
        assert_cells_table_whole(screen, moves)
        term.press("h")
        screen = term.wait_for(drawn(showing("hint: try ")), seconds=60)
        assert any("hint: try " in line for line in screen[20:23]), "\n".join(screen)
        term.press("h")
        screen = term.wait_for(moved_on(moves))
        if any("You won!" in line for line in screen):
            break
        found = re.search(r" · moves (\d+) ", screen[0])
        assert found is not None, "\n".join(screen)
        moves = int(found.group(1))
    else:
        pytest.fail("the hints did not win deal 617 in 200 moves")
    record = SaveStore(tmp_path / "data").record("freecell")
    assert record.wins == 1


def moved_on(moves: int) -> Callable[[list[str]], bool]:
    """The screen once the game is past ``moves`` moves (drawn whole), or won."""
    before = f" · moves {moves} "
    return lambda screen: (
        "You won!" in "\n".join(screen) or drawn(lambda s: not showing(before)(s))(screen)
    )


def drawn(done: Callable[[list[str]], bool]) -> Callable[[list[str]], bool]:
    """``done``, on a screen drawn to its footer (a table is drawn top down)."""
    return lambda screen: done(screen) and "q Quit" in screen[-1]


def assert_cells_table_whole(screen: list[str], moves: int) -> None:
    """The free-cell table as a player needs it at 80x24."""
    text = "\n".join(screen)
    assert "The table needs" not in text, text
    assert re.match(rf" FreeCell · deal 617 · moves {moves} · .* · score ", screen[0]), text
    assert screen[1].split()[:5] == ["c1", "c2", "c3", "c4", "f"], text
    assert screen[3].split() == [str(n) for n in range(1, 9)], text
    assert "h Hint" in screen[-1] and "q Quit" in screen[-1], text
