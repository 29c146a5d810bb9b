"""tools/verdict_table.py: a shipped table's unknown deals decided from a retry's survey file."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from castle.solving.known import VerdictTable
from castle.surveys.survey_store import SurveyStore
from paths import ROOT, load_bench

tool = load_bench("verdict_table", ROOT / "tools")


@pytest.fixture(scope="module")
def surveyed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A survey file of Beleaguered Castle deals 1-30, solved for real."""
    db = tmp_path_factory.mktemp("survey") / "bc.db"
    run = [sys.executable, "-m", "castle", "survey", "--deals", "1-30", "--db", str(db)]
    subprocess.run(run, check=True, capture_output=True)
    return db


def test_onto_shipped_decides_only_the_unknown_deals(
    surveyed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SurveyStore.open(surveyed)
    full = tool.table_of(store, "beleaguered-castle", 30)
    # A table shipped before the retry: three deals of it left unknown, their bits cleared.
    bits = bytearray(full.bits)
    for deal in (2, 3, 17):
        bits[(deal - 1) // 8] &= ~(1 << ((deal - 1) % 8)) & 0xFF
    shipped = VerdictTable("beleaguered-castle", 30, bytes(bits), frozenset({2, 3, 17}))
    monkeypatch.setattr(tool, "shipped_table", lambda variant: shipped)
    assert tool.onto_shipped(store, "beleaguered-castle") == full
    assert {full.verdict(d) for d in (2, 3, 17)} <= {"solved", "unsolvable"}


def test_a_file_that_contradicts_the_table_stops_it(
    surveyed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SurveyStore.open(surveyed)
    full = tool.table_of(store, "beleaguered-castle", 30)
    flipped = bytearray(full.bits)
    flipped[0] ^= 1  # deal 1's verdict turned over
    wrong = replace(full, bits=bytes(flipped))
    monkeypatch.setattr(tool, "shipped_table", lambda variant: wrong)
    with pytest.raises(ValueError, match="deal 1: the file says"):
        tool.onto_shipped(store, "beleaguered-castle")
