"""castle's free-cell solver against fc-solve's fastest preset, on a few deals: the report is
made, and the two agree. The runs skip when fc-solve is not on PATH (Debian: ``apt-get
install freecell-solver-bin``)."""

from __future__ import annotations

import json
import shutil

import pytest
from paths import load_bench

compare = load_bench("compare_fcsolve_cells")

needs_fcsolve = pytest.mark.skipif(
    shutil.which(compare.RANGE_SOLVER) is None or shutil.which("fc-solve") is None,
    reason="fc-solve not on PATH (freecell-solver-bin)",
)


@needs_fcsolve
def test_both_solve_the_same_deals_and_the_report_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert compare.main(["--deals", "1-6", "--lengths", "2"]) == 0
    out = capsys.readouterr().out
    assert "FreeCell (Microsoft) deals 1-6" in out
    assert "castle's CPU over fc-solve's:" in out
    assert compare.main(["--deals", "1-6", "--lengths", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    for side in ("fc-solve", "castle"):
        assert report[side]["won"] == 6
    # fc-solve's six deals may take less than its clock's tick; castle's thread clock is finer.
    assert report["fc-solve"]["cpu"] >= 0 and report["castle"]["cpu"] > 0
    # fc-solve's lengths from the first two deals, castle's from all six; a win of FreeCell
    # puts all 52 cards up, so castle's single-card moves are at least 52.
    assert report["fc-solve"]["length_deals"] == 2
    assert report["castle"]["length_deals"] == 6
    assert report["castle"]["length_median"] >= 52
    assert report["fc-solve"]["work"] > 0 and report["castle"]["work"] > 0
    assert report["castle"]["replayed"] == 6 and report["castle"]["not_replayed"] == []


@needs_fcsolve
def test_a_win_the_reference_refuses_fails_the_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(compare, "reference_replays", lambda deal, moves: deal.number != 3)
    assert compare.main(["--deals", "1-4", "--lengths", "0"]) == 1
    captured = capsys.readouterr()
    assert "replayed by the reference's rules (castle.reference, after the run): 3 of 4" in (
        captured.out
    )
    assert "the reference's rules refuse the wins of [3]" in captured.err


@needs_fcsolve
def test_the_lost_deal_is_lost_for_both() -> None:
    fcs = compare.run_fcsolve(11982, 11982)
    ours = compare.run_castle(11982, 11982, 10.0)
    assert (fcs.unsolvable, ours.unsolvable) == ([11982], [11982])
    assert fcs.won == ours.won == 0


def test_bad_ranges_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    for bad in ("x", "5-2", "0-3", f"1-{2**31}"):
        assert compare.main(["--deals", bad]) == 2
        assert "compare_fcsolve_cells:" in capsys.readouterr().err


def test_without_fcsolve_it_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(compare.shutil, "which", lambda name: None)
    assert compare.main(["--deals", "1-3"]) == 2
    assert "not on PATH" in capsys.readouterr().err
