"""research/scripts/tries_schedule.py, run small (Beleaguered Castle 1-5, the tries first at
2^8 and at the constant): its CSV, its resumption, its report and its check of verdicts."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import castle
from paths import ROOT, load_bench

SCRIPT = ROOT / "research" / "scripts" / "tries_schedule.py"
VARIANT = "beleaguered-castle"


bench = load_bench("tries_schedule", ROOT / "research" / "scripts")
#: The constant's exponent, as text (today's first tries).
C = str(bench.CONSTANT)


def survey(path: Path, deals: range) -> dict[int, int]:
    """A survey database of ``deals`` as ``castle survey`` fills its verdicts (the columns the
    script reads): each deal's states."""
    states = {}
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TABLE verdicts (variant TEXT, deal INTEGER, status TEXT, states INTEGER)"
        )
        for deal in deals:
            found = castle.solve(castle.Deal.from_number(VARIANT, deal))
            conn.execute(
                "INSERT INTO verdicts VALUES (?, ?, ?, ?)",
                (VARIANT, deal, found.status, found.states),
            )
            states[deal] = found.states
    conn.close()
    return states


def script(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, SCRIPT, *map(str, args)], capture_output=True, text=True, check=False
    )


def test_the_tail_is_solved_at_each_exponent_the_rest_once_and_a_run_resumes(
    tmp_path: Path,
) -> None:
    db, out = tmp_path / "survey.db", tmp_path / "solves.csv"
    states = survey(db, range(1, 6))
    tail = {d for d, n in states.items() if n > 200}
    assert tail and len(tail) < 5  # both kinds of deal are there
    common = ("--variant", VARIANT, "--deals", "1-5", "--tail", "200", "--exponents", "8", C)
    first = script("run", db, out, *common)
    assert first.returncode == 0, first.stderr
    rows = bench.read_rows(out)
    assert sorted((r.deal, r.exponent) for r in rows) == sorted(
        [(d, e) for d in tail for e in (8, bench.CONSTANT)]
        + [(d, bench.CONSTANT) for d in states if d not in tail]
    )
    assert all(r.states == states[r.deal] for r in rows if r.exponent == bench.CONSTANT)
    assert all(r.cpu_seconds >= 0 and r.status != "unknown" for r in rows)
    # A run stopped mid-row: the cut row is dropped and solved again, nothing else.
    text = out.read_text()
    out.write_text(text[: text.rstrip("\n").rfind("\n") + 1] + "beleaguered-castle,")
    again = script("run", db, out, *common)
    assert again.returncode == 0, again.stderr
    assert "1 solves to go" in again.stderr
    assert len(bench.read_rows(out)) == len(rows)
    shown = script("report", db, out, *common)
    assert shown.returncode == 0, shown.stderr
    assert f"0 deals whose states at 2^{C} differ" in shown.stdout
    lines = shown.stdout.splitlines()
    assert [line.split()[0] for line in lines[2:]] == ["2^8", f"2^{C}"]


def test_a_deal_solved_at_one_exponent_and_unsolvable_at_another_fails_the_report(
    tmp_path: Path,
) -> None:
    db, out = tmp_path / "survey.db", tmp_path / "solves.csv"
    survey(db, range(1, 2))  # Beleaguered Castle 1 is unsolvable
    common = ("--variant", VARIANT, "--deals", "1", "--tail", "200", "--exponents", "8", C)
    assert script("run", db, out, *common).returncode == 0
    with out.open("a") as f:
        f.write(f"{VARIANT},1,9,solved,1000,0.01,\n")
    shown = script("report", db, out, *common)
    assert shown.returncode == 1
    assert "CONTRADICTIONS" in shown.stdout and "('beleaguered-castle', 1)" in shown.stdout


def test_the_quantiles_are_nearest_rank_and_the_deals_a_range() -> None:
    assert bench.quantile([float(i) for i in range(100, 0, -1)], 0.99) == 99
    assert bench.deal_range("3-7") == range(3, 8) and bench.deal_range("4") == range(4, 5)
