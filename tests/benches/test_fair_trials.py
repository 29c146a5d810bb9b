"""benches/fair_trials.py: whole games and openings of the fair player, a row each, resumed
from the file, compared with another run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from castle import SpiderDeal, SpiderGame
from castle.autoplay import play_fair_hints
from castle.fair import FairEffort
from castle.plan import Hint
from castle.spider import SpiderMove
from paths import ROOT, load_bench

bench = load_bench("fair_trials")


def face_down(game: SpiderGame) -> int:
    return sum(len(c.down) for c in game.position.columns)


def test_an_opening_stops_where_the_whole_game_first_deals() -> None:
    # Four-suit deal 3: the fair hint wins it, dealing five times.
    (opening,) = bench.one_game("spider", 3, effort_text="{}", stop=bench.FIRST_DEAL)
    (whole,) = bench.one_game("spider", 3, effort_text="{}")
    # The same game played by the hints with nothing stopping it: where its first deal is.
    game = SpiderGame(SpiderDeal.from_number("spider", 3))
    at_deals: list[tuple[int, int]] = []

    def each(at: SpiderGame, hint: Hint[SpiderMove]) -> None:
        if hint.move is not None and hint.move.kind == "deal":
            at_deals.append((at.moves, face_down(at)))

    play_fair_hints(game, seed=3, effort=FairEffort(threads=1), each=each)
    assert game.is_won and whole["won"] == 1 and whole["stop"] == "end"
    assert len(at_deals) == 5 and whole["moves"] == game.moves
    assert (opening["moves"], opening["down_left"]) == at_deals[0]
    assert opening["won"] == 0 and opening["stop"] == "first deal"
    assert 0 < opening["down_left"] < 44 and opening["plans"] < whole["plans"]


@pytest.mark.slow
def test_a_file_holds_whole_games_or_openings_never_both(tmp_path: Path) -> None:
    out = tmp_path / "openings.csv"

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, str(ROOT / "benches" / "fair_trials.py"), "--csv", str(out)]
        return subprocess.run([*command, *extra], capture_output=True, text=True, timeout=600)

    deals = ("--variant", "spider-2", "--deals", "1-3")
    first = run(*deals, "--opening")
    assert first.returncode == 0, first.stderr
    assert "0 of 3 won" in first.stdout and "face down at the first deal" in first.stdout
    rows = out.read_text()
    assert sorted(line.split(",")[0] for line in rows.splitlines()[1:]) == ["1", "2", "3"]
    # Again: every deal is in the file, so nothing is played and nothing added.
    again = run(*deals, "--opening")
    assert again.returncode == 0 and again.stderr == "" and out.read_text() == rows
    # Whole games are not added to a file of openings: its figures would mix the two.
    whole = run(*deals)
    assert whole.returncode == 2 and "holds openings" in whole.stderr
    assert out.read_text() == rows
    # Compared with itself: no deal only one of the two won, no difference face down.
    same = run("--against", str(out))
    assert "0 won only by this one, 0 only by the other" in same.stdout
    assert "face down +0.00 ± 0.00 a game" in same.stdout
