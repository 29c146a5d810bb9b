"""benches/rows_file.py: the fair benches' CSV, written as each deal ends."""

from __future__ import annotations

from pathlib import Path

import pytest
from paths import load_bench

rows_file = load_bench("rows_file")


def rows_of(deal: int) -> list[dict[str, int]]:
    """A deal's rows (a module's function: the worker process imports it)."""
    return [{"deal": deal, "won": deal % 2}]


def test_rows_are_appended_under_one_header(tmp_path: Path) -> None:
    out = tmp_path / "rows.csv"
    rows_file.append_as_done(out, ["deal", "won"], rows_of, [5], 1, lambda rows: "a deal")
    rows_file.append_as_done(out, ["deal", "won"], rows_of, [6, 7], 2, lambda rows: "a deal")
    lines = out.read_text().splitlines()
    assert lines[:2] == ["deal,won", "5,1"] and sorted(lines[2:]) == ["6,0", "7,1"]


def test_a_file_left_empty_by_a_run_stopped_early_gets_its_header(tmp_path: Path) -> None:
    # A run killed before its first deal ended leaves the file made but empty; the next run
    # must still write the header, or its rows cannot be read back.
    out = tmp_path / "rows.csv"
    out.touch()
    rows_file.append_as_done(out, ["deal", "won"], rows_of, [6], 1, lambda rows: "a deal")
    assert out.read_text().splitlines() == ["deal,won", "6,0"]


def test_a_file_of_other_columns_is_refused_untouched(tmp_path: Path) -> None:
    # Rows of one shape appended under another's header could not be read back.
    out = tmp_path / "rows.csv"
    out.write_text("deal,won,moves\n4,1,99\n")
    with pytest.raises(SystemExit, match="its columns are deal,won,moves, not deal,won"):
        rows_file.append_as_done(out, ["deal", "won"], rows_of, [6], 1, lambda rows: "a deal")
    assert out.read_text() == "deal,won,moves\n4,1,99\n"
