"""benches/spider_hint_times.py, run small (one one-suit deal, a few moves), so that it keeps
working as the hint changes inside: its JSON, its CSV and its summary."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from paths import ROOT, load_bench

SCRIPT = ROOT / "benches" / "spider_hint_times.py"


bench = load_bench("spider_hint_times")


def test_the_quantiles_are_nearest_rank() -> None:
    hundred = [float(i) for i in range(100, 0, -1)]
    assert bench.quantile(hundred, 0.5) == 50 and bench.quantile(hundred, 0.99) == 99
    assert bench.quantile([3.0, 1.0, 2.0], 0.99) == 3 and bench.quantile([2.0], 0.5) == 2


def test_a_spider_deal_played_by_the_fair_hint_is_timed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_json, out_csv = tmp_path / "times.json", tmp_path / "times.csv"
    argv = ["--variant", "spider-1", "--deals", "1", "--max-moves", "4"]
    assert bench.main([*argv, "--json", str(out_json), "--csv", str(out_csv)]) == 0
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data["variant"] == "spider-1" and data["max_moves"] == 4
    (game,) = data["games"]
    # Deal 1 is not won in 4 moves, and every hint had a move: the cap ended it.
    assert game["deal"] == 1 and game["ended"] == "move cap" and game["moves"] == 4
    assert game["hints"] == 4 and 1 <= game["searched"] <= 4
    wall = game["wall"]
    assert 0 <= wall["median"] <= wall["p90"] <= wall["p99"] <= wall["max"] and wall["max"] > 0
    total = data["overall"]
    assert total["games"] == 1 and total["won"] == 0 and total["hints"] == 4
    assert total["wall"] == wall and 0 < total["wall_searched"]["max"] <= wall["max"]
    with out_csv.open(newline="", encoding="utf-8") as rows:
        hints = list(csv.DictReader(rows))
    assert [int(h["moves"]) for h in hints] == [0, 1, 2, 3]
    assert max(float(h["wall"]) for h in hints) == wall["max"]
    assert all(h["move"] for h in hints)
    said = capsys.readouterr()
    assert "won 0 of 1 (move cap 4)" in said.out and "all 4 hints" in said.out
    assert "deal 1: move cap in 4 moves, 4 hints" in said.err
