"""``castle bench``: the Rust solver and the reference on the same deals."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from castle import CellsDeal
from castle.cli import bench
from castle.reference import cells as reference_cells
from castle.solving.cells import CellsSolution

from .test_solve import run


def test_bench_compares_the_two_solvers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "--deals", "1-3", "--max-states", "300", "--json")
    obj = json.loads(out)
    assert code == 0
    assert obj["disagreements"] == []
    assert obj["rust"]["states"] == obj["reference"]["states"] > 0
    assert obj["ratio"] > 0


@pytest.mark.parametrize("variant", ["freecell", "Seahaven Towers", "spider-1"])
def test_bench_compares_the_two_solvers_of_every_family(
    capsys: pytest.CaptureFixture[str], variant: str
) -> None:
    code, out, _ = run(
        capsys, "bench", "--variant", variant, "--deals", "1-2", "--max-states", "200"
    )
    assert code == 0
    assert "the two solvers agree state for state on 2 deals" in out


def test_bench_exits_1_on_a_disagreement(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = reference_cells.solve

    def one_state_more(deal: CellsDeal, max_states: int) -> CellsSolution:
        slow = real(deal, max_states=max_states)
        return replace(slow, states=slow.states + 1) if deal.number == 2 else slow

    monkeypatch.setitem(bench.REFERENCE_SOLVERS, "cells", one_state_more)
    code, out, err = run(
        capsys, "bench", "--variant", "freecell", "--deals", "1-2", "--max-states", "100"
    )
    assert code == 1
    assert "DISAGREE" in out
    assert err.strip() == "castle: disagreement on deals [2]"
