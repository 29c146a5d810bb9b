"""--max-memory bounds what a solve holds, not only its table: the process's peak stays near
the bound (docs/memory.md has the measurements)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import castle
import pytest

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the peak is read from /proc/self/status"
)

MIB = 2**20


#: ``castle ARGS`` in this process, then its peak resident set (VmHWM: since the exec, unlike
#: ru_maxrss, which counts the parent's pages the child was forked with) on standard error.
CHILD = """\
import sys
from castle.cli import main
status = main(sys.argv[1:])
with open("/proc/self/status") as f:
    sys.stderr.write(next(line for line in f if line.startswith("VmHWM:")))
sys.exit(status)
"""


def peak(*args: str) -> tuple[int, dict[str, object]]:
    """(peak resident bytes, the JSON answer) of ``castle solve --json ARGS`` in a fresh
    process."""
    command = [sys.executable, "-c", CHILD, "solve", "--json", *args]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    hwm = done.stderr.splitlines()[-1].split()
    assert hwm[0] == "VmHWM:" and hwm[2] == "kB", done.stderr
    return int(hwm[1]) * 1024, json.loads(done.stdout)


@pytest.fixture(scope="module")
def baseline() -> int:
    """The peak of a trivial solve (Beleaguered Castle deal 2, 71 states): Python and castle."""
    return peak("--deal", "2")[0]


@pytest.mark.parametrize(
    ("variant", "deal"),
    [
        # Undecided within 4 GiB: the beams of the portfolio, then the depth-first search,
        # each stopped by the bound. Before the bound counted the beams, 3.7 times the bound.
        ("spider", 65),
        # Undecided in 16 MiB: the quick pass, the beam pass, the complete pass and its layers
        # (the orbit pass waits for a table of 2^21 positions, which 16 MiB cannot hold).
        # Before the bound counted the stack and the heap kept freed tables, 1.25 times it.
        ("streets-and-alleys", 77),
    ],
)
def test_the_peak_stays_near_the_memory_bound(baseline: int, variant: str, deal: int) -> None:
    bound = 16 * MIB
    rss, answer = peak("--variant", variant, "--deal", str(deal), "--max-memory", "16M")
    assert (answer["status"], answer["limit"]) == ("unknown", "memory")
    added = rss - baseline
    assert added <= 1.15 * bound, f"{added / MIB:.1f} MiB over the baseline under 16 MiB"


def test_a_memory_bound_does_not_change_an_answer_it_does_not_reach() -> None:
    # Beleaguered Castle 162 is a proof of 1.4M states; 64 MiB holds it, and the answer is the
    # unlimited one to the state.
    deal = castle.Deal.from_number("beleaguered-castle", 162)
    free = castle.solve(deal)
    bounded = castle.solve(deal, max_memory=64 * MIB)
    assert (bounded.status, bounded.states) == (free.status, free.states) == ("unsolvable", 1435647)


def test_a_proof_too_large_for_the_table_is_finished_in_layers(baseline: int) -> None:
    # 24 MiB does not hold Beleaguered Castle 162's depth-first table (1.33M positions at 20
    # bytes and its spare slots): the complete pass starts again in layers, which hold three
    # levels of a layer and the seeds of later ones, and proves it within the bound. Every
    # position once more, after those the depth-first pass had spent.
    deal = castle.Deal.from_number("beleaguered-castle", 162)
    free = castle.solve(deal)
    rss, answer = peak("--variant", "beleaguered-castle", "--deal", "162", "--max-memory", "24M")
    states = answer["states"]
    assert answer["status"] == "unsolvable" and isinstance(states, int)
    assert free.states < states < 2 * free.states
    assert rss - baseline <= 1.15 * 24 * MIB, f"{(rss - baseline) / MIB:.1f} MiB over the baseline"


def test_with_a_spill_dir_the_peak_stays_near_the_bound(baseline: int, tmp_path: Path) -> None:
    # 16 MiB holds neither Beleaguered Castle 162's table nor its layers: with disk, the layers
    # put their runs in files, and the process holds the bound and a little. (At 8 MiB it held
    # 9.0-9.4 MiB: the layers' file buffers, a 64th of the bound for each of up to 9 files,
    # weigh more against so small a bound.)
    rss, answer = peak("--deal", "162", "--max-memory", "16M", "--spill-dir", str(tmp_path))
    assert answer["status"] == "unsolvable"
    assert rss - baseline <= 1.15 * 16 * MIB, f"{(rss - baseline) / MIB:.1f} MiB over the baseline"
    assert list(tmp_path.iterdir()) == []
