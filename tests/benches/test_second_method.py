"""benches/second_method.py, run small: every "unsolvable" of a survey file checked by the exact
walk alone, resumed, and a false "unsolvable" caught."""

from __future__ import annotations

import csv
import sqlite3
import subprocess
import sys
from pathlib import Path

import castle
from paths import ROOT

SCRIPT = ROOT / "benches" / "second_method.py"
VARIANT = "beleaguered-castle"


def survey(path: Path, deals: range) -> dict[int, str]:
    """A survey file of ``deals`` with the solver's verdicts (the columns the script reads)."""
    verdicts: dict[int, str] = {}
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TABLE verdicts (variant TEXT, deal INTEGER, status TEXT, states INTEGER)"
        )
        for number in deals:
            solution = castle.solve(castle.Deal.from_number(VARIANT, number))
            verdicts[number] = solution.status
            conn.execute(
                "INSERT INTO verdicts VALUES (?, ?, ?, ?)",
                (VARIANT, number, solution.status, solution.states),
            )
    conn.close()
    return verdicts


def run(db: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, SCRIPT, "--db", db, "--variant", VARIANT, "--csv", out],
        capture_output=True,
        text=True,
        check=False,
    )


def test_every_proof_is_checked_and_a_run_resumes(tmp_path: Path) -> None:
    db, out = tmp_path / "s.db", tmp_path / "second.csv"
    verdicts = survey(db, range(1, 9))
    lost = [n for n, status in verdicts.items() if status == "unsolvable"]
    assert lost  # deals 1 and 3 are lost
    done = run(db, out)
    assert done.returncode == 0, done.stdout + done.stderr
    with out.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["deal"]) for r in rows] == lost
    assert all(r["second"] == "unsolvable" and int(r["second_states"]) > 0 for r in rows)
    # Again: nothing is solved twice.
    again = run(db, out)
    assert again.returncode == 0
    assert not [line for line in again.stdout.splitlines() if line.startswith("[")]
    with out.open(newline="") as f:
        assert len(list(csv.DictReader(f))) == len(lost)


def test_a_false_proof_is_a_contradiction(tmp_path: Path) -> None:
    db, out = tmp_path / "s.db", tmp_path / "second.csv"
    survey(db, range(2, 3))  # deal 2 is won
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE verdicts SET status = 'unsolvable'")
    conn.close()
    done = run(db, out)
    assert done.returncode == 1
    with out.open(newline="") as f:
        (row,) = csv.DictReader(f)
    # The win the exact walk found replays in the reference.
    assert row["second"] == "solved"
