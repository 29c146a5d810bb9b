"""benches/fair_value.py: the positions it judges, their fair value, and its summary."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from castle import SpiderDeal
from paths import ROOT, load_bench

bench = load_bench("fair_value")

#: Six runs off and the last two in sight: nothing hidden, a win in a few moves.
ENDGAME = SpiderDeal.from_text(
    "Stock:\nOff: S S S S S S\n"
    "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS\n"
    "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S\nAS\n:\n:\n:\n:\n:\n:\n:\n",
    "spider-1",
)

#: One card face down under a king-to-two run whose ace lies in sight: whatever the card,
#: the run goes off and the card is turned up (a single world could hide nothing else).
ONE_HIDDEN = SpiderDeal.from_text(
    "Stock:\nOff: S S S S S S\n"
    "AS | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S\nAS\n"
    "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S\n:\n:\n:\n:\n:\n:\n:\n",
    "spider-1",
)


def test_a_won_position_is_worth_every_world() -> None:
    assert bench.fair_value(ENDGAME, 3, random.Random(1)) == 3
    assert bench.fair_value(ONE_HIDDEN, 2, random.Random(1)) == 2


def test_a_game_is_judged_at_its_start_and_after_each_deal() -> None:
    # One-suit deal 6: the fair hint wins it, dealing all five rows on the way.
    won, marks = bench.positions_at_deals("spider-1", 6)
    assert won and sorted(marks) == [0, 10, 20, 30, 40, 50]
    for stock, position in marks.items():
        assert len(position.stock) == stock
    assert marks[50] == SpiderDeal.from_number("spider-1", 6)


def test_the_summary_parts_the_games_won_from_the_games_lost() -> None:
    rows = [
        {"deal": 1, "won": 1, "stock": 40, "down": 30, "worlds": 10, "wins": 8},
        {"deal": 2, "won": 1, "stock": 40, "down": 31, "worlds": 10, "wins": 6},
        {"deal": 3, "won": 0, "stock": 40, "down": 33, "worlds": 10, "wins": 1},
        {"deal": 3, "won": 0, "stock": 0, "down": 20, "worlds": 10, "wins": 0},
    ]
    assert bench.summary(rows).splitlines() == [
        "2 games won; mean value by stock left: 40: 0.70",
        "1 games lost; mean value by stock left: 40: 0.10, 0: 0.00",
    ]


@pytest.mark.slow
def test_a_run_resumes_from_its_file(tmp_path: Path) -> None:
    out = tmp_path / "value.csv"
    command = [sys.executable, str(ROOT / "benches" / "fair_value.py"), "--csv", str(out)]
    command += ["--variant", "spider-1", "--worlds", "1", "--deals", "6-6"]
    first = subprocess.run(command, capture_output=True, text=True, timeout=600, check=True)
    rows = bench.read(out)
    assert [r["stock"] for r in rows] == [50, 40, 30, 20, 10, 0]
    assert "1 games won" in first.stdout
    # Again: deal 6 is in the file, so nothing is played and nothing added.
    again = subprocess.run(command, capture_output=True, text=True, timeout=600, check=True)
    assert bench.read(out) == rows and again.stderr == ""
