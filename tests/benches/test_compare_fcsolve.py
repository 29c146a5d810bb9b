"""castle against fc-solve (Freecell Solver) on small samples: the two must never disagree.

Runs benches/compare_fcsolve.py's comparison with small limits. Skipped when ``fc-solve`` is
not on PATH (Debian: ``apt-get install freecell-solver-bin``; .ci/run installs it).
"""

from __future__ import annotations

import json
import re
import shutil

import castle
import pytest
from paths import ROOT, load_bench

SCRIPT = ROOT / "benches" / "compare_fcsolve.py"

pytestmark = pytest.mark.skipif(
    shutil.which("fc-solve") is None, reason="fc-solve not on PATH (freecell-solver-bin)"
)


compare_fcsolve = load_bench("compare_fcsolve")

# Small samples with small limits: fc-solve's iterations and castle's states. Each sample
# still has deals both decide, both ways (checked below), so the test cannot pass vacuously.
SAMPLES = [
    ("beleaguered-castle", "1-30"),
    ("streets-and-alleys", "1-12"),
    ("citadel", "1-12,21-26"),
]
MAX_ITERS = 50_000
MAX_STATES = 200_000


@pytest.mark.parametrize(("variant", "deals"), SAMPLES)
def test_no_disagreement_with_fcsolve(variant: str, deals: str) -> None:
    rows = compare_fcsolve.compare(
        variant,
        castle.parse_deal_range(deals),
        max_iters=MAX_ITERS,
        max_states=MAX_STATES,
        jobs=2,
    )
    assert [r.number for r in rows if r.disagreement] == []
    assert [r.number for r in rows if r.castle_wrong] == []
    # Every win fc-solve prints is a win under castle's reference rules: same game, same deal.
    fcs_wins = [r.fcsolve for r in rows if r.fcsolve.status == "solved"]
    assert all(o.replay == "won" for o in fcs_wins)
    # Not vacuous: both solvers decide deals here, and both verdicts occur.
    both = {
        r.castle.status
        for r in rows
        if r.fcsolve.status != "unknown" and r.fcsolve.status == r.castle.status
    }
    assert both == {"solved", "unsolvable"}


def test_fcsolve_verdict_lines_at_the_limit() -> None:
    """fc-solve exhausts Beleaguered Castle deal 1 in exactly 1196 states (libfreecell-solver
    5.0.0): one fewer allowed is "Iterations count exceeded." (unknown), never a claim."""
    exe = shutil.which("fc-solve")
    assert exe is not None
    deal = castle.Deal.from_number("beleaguered-castle", 1)
    exhausted = None
    for max_iters in (1_000, 100_000):
        command = compare_fcsolve.fcsolve_command(exe, "beleaguered_castle", max_iters, True)
        outcome, _ = compare_fcsolve.run_fcsolve(command, deal, 60, True)
        if max_iters == 1_000:
            assert (outcome.status, outcome.count) == ("unknown", 1_000)
        else:
            assert outcome.status == "unsolvable"
            exhausted = outcome.count
    assert exhausted is not None
    for max_iters, status in ((exhausted - 1, "unknown"), (exhausted, "unsolvable")):
        command = compare_fcsolve.fcsolve_command(exe, "beleaguered_castle", max_iters, True)
        outcome, _ = compare_fcsolve.run_fcsolve(command, deal, 60, True)
        assert outcome.status == status, max_iters


def test_script_json_and_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    status = compare_fcsolve.main(
        ["--variant", "citadel", "--deals", "1-5", "--max-iters", "20000", "--json"]
    )
    document = json.loads(capsys.readouterr().out)
    assert status == 0
    assert document["variant"] == "citadel"
    assert [row["deal"] for row in document["results"]] == [1, 2, 3, 4, 5]
    assert document["disagreements"] == [] and document["castle_wrong"] == []
    assert "-g citadel -sel -mi 20000 -to 0AB" in document["commands"]["fc-solve"]


def test_script_exits_1_when_castle_is_caught_out(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A castle that called Beleaguered Castle deal 2 (fc-solve wins it) unsolvable."""

    def wrong(
        deal: castle.Deal, max_states: int | None, max_seconds: float | None, short: bool
    ) -> object:
        return compare_fcsolve.Outcome("unsolvable", 0.001, 1)

    monkeypatch.setattr(compare_fcsolve, "run_castle", wrong)
    status = compare_fcsolve.main(["--deals", "2", "--max-iters", "20000"])
    out = capsys.readouterr().out
    assert status == 1
    assert "deal 2: CASTLE IS WRONG" in out and "This game is solveable." in out


def test_a_deal_fcsolve_wins_that_takes_castle_over_a_second_is_listed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A castle that wins Beleaguered Castle deal 2 in 2 s and deal 4 in 0.5 s (fc-solve wins
    both): only deal 2 breaks the rule."""
    real = compare_fcsolve.run_castle

    def slow(
        deal: castle.Deal, max_states: int | None, max_seconds: float | None, short: bool
    ) -> object:
        outcome = real(deal, max_states, max_seconds, short)
        outcome.seconds = 2.0 if deal.number == 2 else 0.5
        return outcome

    monkeypatch.setattr(compare_fcsolve, "run_castle", slow)
    status = compare_fcsolve.main(["--deals", "2,4", "--max-iters", "20000", "--json"])
    document = json.loads(capsys.readouterr().out)
    assert status == 0
    assert [r["fc-solve"]["status"] for r in document["results"]] == ["solved", "solved"]
    assert document["fc-solve_won_castle_slow"] == [2]


def test_solution_lengths_against_fcsolve_opt(capsys: pytest.CaptureFixture[str]) -> None:
    # Deal 2: fc-solve -opt and castle's short mode both win; both lines replay, and the
    # report gives the two lengths.
    status = compare_fcsolve.main(["--deals", "2", "--max-iters", "20000", "--opt", "--short"])
    out = capsys.readouterr().out
    assert status == 0
    assert "-opt" in out and "short=True" in out
    match = re.search(
        r"moves of a win, on the 1 deals both won: median fc-solve (\d+), castle (\d+)", out
    )
    assert match is not None, out
    deal = castle.Deal.from_number("beleaguered-castle", 2)
    assert int(match[2]) == len(castle.solve(deal, short=True).moves)
    assert int(match[1]) > 0
