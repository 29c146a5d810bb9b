"""benches/fair_exits_value.py: the positions it stops at, each choice's fair value, and its
summary."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from castle import SpiderDeal
from castle.fair import fair_exits
from paths import ROOT, load_bench

bench = load_bench("fair_exits_value")

#: One card face down under a king-to-two run whose ace lies in sight: whatever the card,
#: the run goes off and the card is turned up, and the game is won from there.
ONE_HIDDEN = SpiderDeal.from_text(
    "Stock:\nOff: S S S S S S\n"
    "AS | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S\nAS\n"
    "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S\n:\n:\n:\n:\n:\n:\n:\n",
    "spider-1",
)


def test_a_choice_is_played_on_in_a_world_to_the_games_end() -> None:
    (plan,) = fair_exits(ONE_HIDDEN)
    assert plan[-1].src == 0  # the run's last card leaves the face-down one alone
    assert bench.played_on(ONE_HIDDEN, plan, seed=3)


def test_the_positions_are_every_nth_thinking_hint_before_the_stock_runs_low() -> None:
    # One-suit deal 6: the fair hint wins it; before its first deal it thinks several times.
    won, marks = bench.positions("spider-1", 6, every=2, stock_min=50)
    assert won and len(marks) >= 2
    assert [hint for hint, _, _ in marks] == list(range(0, 2 * len(marks), 2))
    assert marks[0][1] == SpiderDeal.from_number("spider-1", 6)
    for _, position, visited in marks:
        assert len(position.stock) == 50 and visited[0] == position


def test_the_summary_values_the_best_choice_on_the_worlds_it_was_not_chosen_on() -> None:
    def row(hint: int, rank: int, chosen: int, mask: str) -> dict[str, str]:
        wins = str(mask.count("1"))
        return {"deal": "1", "hint": str(hint), "rank": str(rank), "chosen": str(chosen),
                "worlds": str(len(mask)), "wins": wins, "mask": mask}  # fmt: skip

    rows = [
        # The player's own is the best-looking one; the other wins the even worlds only.
        row(0, 0, 1, "0000"),
        row(0, 1, 0, "1010"),
        # The player's own wins every world.
        row(3, 0, 0, "0000"),
        row(3, 1, 1, "1111"),
    ]
    # Own: 0 and 1; best-looking: 0 and 0. Best at hint 0: chosen on the even worlds (rank
    # 1, worth 0 on the odd), on the odd (a tie, the player's own: worth 0 on the even);
    # at hint 3, the player's own either way, worth 1.
    assert bench.summary(rows) == (
        "2 positions, 1 deals: mean fair value of the player's choice 0.500, of the "
        "best-looking 0.000, of the best (chosen on half the worlds, valued on the other) 0.500"
    )


@pytest.mark.slow
def test_a_run_resumes_from_its_file(tmp_path: Path) -> None:
    out = tmp_path / "exits.csv"
    command = [sys.executable, str(ROOT / "benches" / "fair_exits_value.py"), "--csv", str(out)]
    command += ["--variant", "spider-1", "--worlds", "2", "--exits", "2", "--every", "4"]
    command += ["--stock-min", "50", "--deals", "6-6"]
    first = subprocess.run(command, capture_output=True, text=True, timeout=600, check=True)
    rows = bench.read(out)
    assert rows and {r["deal"] for r in rows} == {"6"} and {r["stock"] for r in rows} == {"50"}
    for hint in {r["hint"] for r in rows}:
        choices = [r for r in rows if r["hint"] == hint]
        assert sum(r["chosen"] == "1" for r in choices) == 1 and len(choices) >= 2
        assert all(int(r["wins"]) == r["mask"].count("1") <= 2 for r in choices)
    assert "1 deals" in first.stdout
    # Again: deal 6 is in the file, so nothing is played and nothing added.
    again = subprocess.run(command, capture_output=True, text=True, timeout=600, check=True)
    assert bench.read(out) == rows and again.stderr == ""
