"""Wide beams on unknown deals (``python -m castle_lab.beam_wins``), run small: a win is
replayed and stored as the table tools read it, a beam that runs dry stores nothing, and a
run resumes where it stopped."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import castle
from castle.surveys.survey_store import SurveyStore

VARIANT = "streets-and-alleys"
#: A beam 1,000 wide runs dry on 1740 and one 10,000 wide wins (107 moves); 2823 is lost, so
#: every beam on it runs dry.
WON, LOST = 1740, 2823


def run(db: Path, out: Path, *more: str) -> subprocess.CompletedProcess[str]:
    args = ["--variant", VARIANT, "--db", str(db), "--csv", str(out), *more]
    return subprocess.run(
        [sys.executable, "-m", "castle_lab.beam_wins", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def rows(out: Path) -> list[dict[str, str]]:
    with out.open(newline="") as f:
        return list(csv.DictReader(f))


def test_a_win_is_replayed_and_stored_and_a_dry_beam_stores_nothing(tmp_path: Path) -> None:
    db, out = tmp_path / "beams.db", tmp_path / "beams.csv"
    done = run(db, out, "--deals", f"{WON},{LOST}", "--widths", "1000,10000")
    assert done.returncode == 0, done.stderr
    tries = [(int(r["deal"]), int(r["width"]), r["status"], r["limit"]) for r in rows(out)]
    assert tries == [
        (WON, 1000, "unknown", "dry"),
        (WON, 10000, "solved", ""),
        (LOST, 1000, "unknown", "dry"),
        (LOST, 10000, "unknown", "dry"),
    ]
    with SurveyStore.open(db) as store:
        stored = list(store.verdicts(VARIANT))
    assert [(v.deal, v.status) for v in stored] == [(WON, "solved")]
    # The stored win is a real one: the solver's own verdict agrees.
    assert castle.solve(castle.Deal.from_number(VARIANT, WON)).status == "solved"
    assert castle.known_verdict(VARIANT, LOST) == "unsolvable"


def test_a_run_resumes_and_a_limit_is_a_row(tmp_path: Path) -> None:
    db, out = tmp_path / "beams.db", tmp_path / "beams.csv"
    first = run(db, out, "--deals", str(WON), "--widths", "10000", "--max-states", "1000")
    assert first.returncode == 0, first.stderr
    assert [(r["status"], r["limit"]) for r in rows(out)] == [("unknown", "states")]
    # The same width is not tried again; a wider one is, and wins.
    again = run(db, out, "--deals", str(WON), "--widths", "10000,20000")
    assert again.returncode == 0, again.stderr
    assert [(r["width"], r["status"]) for r in rows(out)] == [
        ("10000", "unknown"),
        ("20000", "solved"),
    ]
    # A deal won is not beamed again.
    third = run(db, out, "--deals", str(WON), "--widths", "40000")
    assert third.returncode == 0 and len(rows(out)) == 2


def test_a_file_that_is_not_a_survey_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "not.db"
    db.write_text("not a survey\n")
    done = run(db, tmp_path / "b.csv", "--deals", str(WON))
    assert done.returncode == 2
    assert "beam_wins:" in done.stderr and "Traceback" not in done.stderr
    assert db.read_text() == "not a survey\n"


def test_bad_widths_are_a_one_line_error(tmp_path: Path) -> None:
    for bad in ("wide", "1000,0", ""):
        done = run(tmp_path / "b.db", tmp_path / "b.csv", "--deals", str(WON), "--widths", bad)
        assert done.returncode == 2
        assert "not widths" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "b.db").exists()
