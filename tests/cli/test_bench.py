"""``castle bench``: the Rust solver and the reference on the same deals."""

from __future__ import annotations

import json

import pytest

from .test_solve import run


def test_bench_compares_the_two_solvers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "--deals", "1-3", "--max-states", "300", "--json")
    obj = json.loads(out)
    assert code == 0
    assert obj["disagreements"] == []
    assert obj["rust"]["states"] == obj["reference"]["states"] > 0
    assert obj["ratio"] > 0
