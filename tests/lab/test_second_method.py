"""The second method (``python -m castle_lab.second_method``), run small: every "unsolvable"
of a survey file checked by the exact walk alone, resumed, and a false "unsolvable" caught."""

from __future__ import annotations

import csv
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import castle
from castle.surveys.survey_store import SurveyStore, Verdict

VARIANT = "beleaguered-castle"


def survey(path: Path, deals: range, lost: Sequence[int] = ()) -> dict[int, str]:
    """A survey file of ``deals`` with the solver's verdicts, each deal of ``lost`` stored as
    unsolvable whatever the solver said: each deal's verdict as stored."""
    verdicts: dict[int, str] = {}
    rows = []
    for number in deals:
        solution = castle.solve(castle.Deal.from_number(VARIANT, number))
        status = "unsolvable" if number in lost else solution.status
        verdicts[number] = status
        rows.append(
            Verdict(
                variant=VARIANT,
                deal=number,
                status=status,
                states=solution.states,
                seconds=solution.seconds,
                moves=len(solution.moves),
                limit_hit=None,
                max_states=None,
                max_seconds=None,
                max_memory=None,
                solved_at="2026-12-04T00:00:00Z",
            )
        )
    with SurveyStore.open(path, create=True) as store:
        store.put(rows)
    return verdicts


def run(db: Path, out: Path, *more: str) -> subprocess.CompletedProcess[str]:
    args = ["--db", str(db), "--variant", VARIANT, "--csv", str(out), *more]
    return subprocess.run(
        [sys.executable, "-m", "castle_lab.second_method", *args],
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
    survey(db, range(2, 3), lost=[2])  # deal 2 is won
    done = run(db, out)
    assert done.returncode == 1
    with out.open(newline="") as f:
        (row,) = csv.DictReader(f)
    # The win the exact walk found replays in the reference.
    assert row["second"] == "solved"


def test_a_file_that_is_not_a_survey_is_a_one_line_error(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    db.write_text("not a survey")
    done = run(db, tmp_path / "second.csv")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_the_shipped_table_names_the_proofs_a_state_limit_stopped(tmp_path: Path) -> None:
    """A survey stopped at a state limit (the file that held the proofs gone): the deals the
    shipped table says are lost are checked, the won and the others not."""
    db, out = tmp_path / "s.db", tmp_path / "second.csv"
    rows = [
        Verdict(
            variant=VARIANT,
            deal=number,
            status="unknown",
            states=1_000,
            seconds=0.01,
            moves=0,
            limit_hit="states" if number != 3 else "seconds",
            max_states=1_000,
            max_seconds=None,
            max_memory=None,
            solved_at="2026-12-07T00:00:00Z",
        )
        for number in range(1, 9)
    ]
    with SurveyStore.open(db, create=True) as store:
        store.put(rows)
    lost = [n for n in range(1, 9) if castle.known_verdict(VARIANT, n) == "unsolvable"]
    assert 1 in lost and 3 in lost
    done = run(db, out, "--by-table", "--min-states", "500")
    assert done.returncode == 0, done.stdout + done.stderr
    with out.open(newline="") as f:
        checked = list(csv.DictReader(f))
    # Deal 3 stopped at its time limit, not the state limit: not named.
    assert [int(r["deal"]) for r in checked] == [n for n in lost if n != 3]
    assert all(r["second"] == "unsolvable" for r in checked)
