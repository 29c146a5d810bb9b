"""benches/fair_trials.py: whole games, openings and stretches of the fair player, a row
each, resumed from the file, compared with another run."""

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


@pytest.fixture(scope="module")
def deal_three() -> tuple[SpiderGame, list[tuple[int, int]]]:
    """Four-suit deal 3 played to its end by the fair hint (it wins, dealing five times), and
    the moves made and the cards face down where each deal was advised."""
    game = SpiderGame(SpiderDeal.from_number("spider", 3))
    at_deals: list[tuple[int, int]] = []

    def each(at: SpiderGame, hint: Hint[SpiderMove]) -> None:
        if hint.move is not None and hint.move.kind == "deal":
            at_deals.append((at.moves, face_down(at)))

    play_fair_hints(game, seed=3, effort=FairEffort(threads=1), each=each)
    return game, at_deals


def test_an_opening_and_each_stretch_stop_where_the_whole_game_deals(
    deal_three: tuple[SpiderGame, list[tuple[int, int]]],
) -> None:
    game, at_deals = deal_three
    (opening,) = bench.one_game("spider", 3, effort_text="{}", stretch=0)
    (whole,) = bench.one_game("spider", 3, effort_text="{}")
    assert game.is_won and whole["won"] == 1 and whole["stop"] == "end"
    assert len(at_deals) == 5 and whole["moves"] == game.moves
    assert (opening["moves"], opening["down_left"]) == at_deals[0]
    assert opening["won"] == 0 and opening["stop"] == "first deal"
    assert 0 < opening["down_left"] < 44 and opening["plans"] < whole["plans"]
    # Stretch K starts where the game made its K-th deal and stops where it deals next.
    for k in (1, 2, 4):
        (stretch,) = bench.one_game("spider", 3, effort_text="{}", stretch=k)
        assert stretch["stop"] == bench.stop_of(k) and stretch["won"] == 0
        assert (stretch["moves"], stretch["down_left"]) == at_deals[k]
        assert 0 < stretch["plans"] < whole["plans"]
    # The last, from the fifth deal, is the rest of the game: here a win.
    (end,) = bench.one_game("spider", 3, effort_text="{}", stretch=5)
    assert end["stop"] == "end from the fifth deal"
    assert (end["won"], end["moves"], end["down_left"]) == (1, game.moves, 0)


def test_a_stretch_of_another_setting_starts_where_the_decks_own_player_dealt(
    deal_three: tuple[SpiderGame, list[tuple[int, int]]],
) -> None:
    _, at_deals = deal_three
    game = SpiderGame(SpiderDeal.from_number("spider", 3))
    assert bench.deals_made(game, 3, 2)
    # The default player's first two deals, the second made: 30 cards left in the stock.
    assert game.moves == at_deals[1][0] + 1 and game.stock == 30
    # From there the ranking's first exit plays (no card's judge) to the next deal.
    ranking = FairEffort(threads=1, reveal=0)
    play_fair_hints(game, seed=3, effort=ranking, until=bench.is_deal)
    (row,) = bench.one_game("spider", 3, effort_text='{"reveal": 0}', stretch=2)
    assert (row["moves"], row["down_left"]) == (game.moves, face_down(game))
    assert row["stop"] == "third deal from the second"
    # It played its own stretch, not the default player's (five moves fewer here).
    assert row["moves"] != at_deals[2][0]


@pytest.mark.slow
def test_a_file_holds_one_kind_of_run(tmp_path: Path) -> None:
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
    stretch = run(*deals, "--stretch", "1")
    assert stretch.returncode == 2 and "holds openings: write stretches to the second" in (
        stretch.stderr
    )
    assert out.read_text() == rows
    beyond = run(*deals, "--stretch", "6")
    assert beyond.returncode == 2 and "--stretch takes 0 to 5" in beyond.stderr
    # Compared with itself: no deal only one of the two won, no difference face down.
    same = run("--against", str(out))
    assert "0 won only by this one, 0 only by the other" in same.stdout
    assert "face down +0.00 ± 0.00 a game" in same.stdout
