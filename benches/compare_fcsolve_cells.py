"""castle's free-cell solver against fc-solve's fastest preset on the same FreeCell deals.

    python benches/compare_fcsolve_cells.py --deals 1-32000 [--max-cpu-seconds 10] \\
        [--lengths 500] [--json]

fc-solve runs first, as one process over the range of Microsoft deals:

    freecell-solver-range-parallel-solve FIRST LAST 1 -l lg

(``-l lg``, "looking-glass", is fc-solve's fastest preset). Its CPU is the process's user
and system time (``getrusage`` of the child: castle's thread clock counts both); its per-deal
times are the wall-clock gaps between the "Reached Board" lines it prints, its per-deal
iterations the gaps between their counts, and a deal it prints as "Unsolved" or
"Intractable" is counted as not won.

castle then solves the same deals in this process with ``castle.solve(deal,
max_cpu_seconds=S)`` (the public API: a win is replayed by the core before it is returned,
and "unsolvable" is a complete search's proof); its CPU is the solving thread's
(``time.thread_time`` around each call, the Python around the call included). A win's moves
cross from the core as numbers and become Python objects when ``solution.moves`` is first
read: once every deal is solved, that reading is timed apart and printed on its own line,
and every win is replayed by the reference's rules (``castle.reference``, the rules written
again in Python): a win they refuse fails the run.

The solutions' lengths: castle's in single-card moves (the safe moves to the foundations
included), on every deal it wins; fc-solve's as fc-solve counts its moves (a run moved as a
unit is one move, its moves to the foundations included), from ``fc-solve -l lg -m`` on each
of the first ``--lengths`` deals of the range (one process a deal, outside the timed run).

The report prints, for each, the deals won, proved unsolvable and left unknown, the total
CPU, a deal's median and 99th percentile, and castle's CPU over fc-solve's. Exit status: 0
when the two agree on every deal both decided and castle left none unknown; 1 when they
disagree or castle left a deal unknown; 2 for bad arguments, or when fc-solve is missing or
its output cannot be read.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import castle
from castle.reference.cells.moves import replays_to_win as reference_replays
from castle.surveys.stats import percentile

RANGE_SOLVER = "freecell-solver-range-parallel-solve"
PRESET = ("-l", "lg")
REACHED = re.compile(r"^Reached Board No\. (\d+) at ([\d.]+) \(total_num_iters=(\d+)\)$")
NOT_WON = re.compile(r"^(Unsolved|Intractable) Board No\. (\d+)")
STARTED = re.compile(r"^Started at ([\d.]+)$")
MOVE = re.compile(r"^Move ", re.MULTILINE)
#: Microsoft's deal numbers, which both programs deal alike.
LAST_DEAL = 2**31 - 1


class CompareError(Exception):
    """The comparison could not be made (fc-solve missing, failing or unreadable)."""


@dataclass
class Side:
    """One solver's results over the range."""

    name: str
    cpu: float = 0.0
    won: int = 0
    unsolvable: list[int] = field(default_factory=list)
    unknown: list[int] = field(default_factory=list)
    per_deal: list[float] = field(default_factory=list)
    lengths: list[int] = field(default_factory=list)
    work: int = 0
    # castle's wins' moves made into Python objects, on their first reading (after the run).
    moves_read: float = 0.0
    # castle's wins the reference's rules replayed (castle.reference), and those they refused.
    replayed: int = 0
    not_replayed: list[int] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        times = sorted(self.per_deal)
        lengths = sorted(self.lengths)
        return {
            **{k: v for k, v in asdict(self).items() if k not in ("per_deal", "lengths")},
            "median_ms": 1e3 * percentile(times, 50) if times else None,
            "p99_ms": 1e3 * percentile(times, 99) if times else None,
            "max_ms": 1e3 * times[-1] if times else None,
            "length_median": percentile(lengths, 50) if lengths else None,
            "length_mean": sum(lengths) / len(lengths) if lengths else None,
            "length_max": lengths[-1] if lengths else None,
            "length_deals": len(lengths),
        }


def parse_range(text: str) -> tuple[int, int]:
    """``A-B`` (or one number) -> (A, B), within FreeCell's deal numbers."""
    first, _, last = text.partition("-")
    try:
        a, b = int(first), int(last or first)
    except ValueError as e:
        raise ValueError(f"not a range of deals: {text!r} (say 1-32000)") from e
    if not 1 <= a <= b <= LAST_DEAL:
        raise ValueError(f"deals must be 1 <= A <= B <= {LAST_DEAL}: {text!r}")
    return a, b


def _child_cpu() -> float:
    """The CPU (user and system) of the children waited for so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run_fcsolve(first: int, last: int) -> Side:
    """fc-solve's preset over deals ``first``..``last``, as one timed process."""
    side = Side("fc-solve -l lg")
    before = _child_cpu()
    try:
        done = subprocess.run(
            [RANGE_SOLVER, str(first), str(last), "1", *PRESET],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as e:
        raise CompareError(f"{RANGE_SOLVER} could not run: {e}") from e
    side.cpu = _child_cpu() - before
    if done.returncode != 0:
        raise CompareError(f"{RANGE_SOLVER} failed ({done.returncode}): {done.stderr.strip()}")
    last_time: float | None = None
    last_iters = 0
    seen: set[int] = set()
    for line in done.stdout.splitlines():
        if m := STARTED.match(line):
            last_time = float(m[1])
        elif m := NOT_WON.match(line):
            # fc-solve's "Unsolved" is its whole preset run dry, not a proof of ours; kept
            # apart from "Intractable" (a limit) all the same.
            (side.unsolvable if m[1] == "Unsolved" else side.unknown).append(int(m[2]))
        elif m := REACHED.match(line):
            n, at, iters = int(m[1]), float(m[2]), int(m[3])
            if last_time is None:
                raise CompareError(f"{RANGE_SOLVER} printed no start time")
            side.per_deal.append(at - last_time)
            side.work += iters - last_iters
            last_time, last_iters = at, iters
            seen.add(n)
    if seen != set(range(first, last + 1)):
        raise CompareError(f"{RANGE_SOLVER} did not report every deal of {first}-{last}")
    side.won = len(seen) - len(side.unsolvable) - len(side.unknown)
    return side


def fcsolve_length(deal: castle.CellsDeal) -> int | None:
    """fc-solve's moves for ``deal`` with the preset (``-m``), as it counts them."""
    done = subprocess.run(
        ["fc-solve", *PRESET, "-m", "-"],
        input=deal.to_text(),
        capture_output=True,
        text=True,
        check=False,
    )
    if "This game is solveable." not in done.stdout:
        return None
    return len(MOVE.findall(done.stdout))


def run_castle(first: int, last: int, max_cpu_seconds: float) -> Side:
    """castle's solver over the same deals, each within ``max_cpu_seconds`` of CPU; then, once
    every deal is done, each win's moves read and replayed by the reference's rules."""
    side = Side("castle")
    wins: list[tuple[castle.CellsDeal, castle.CellsSolution]] = []
    for n in range(first, last + 1):
        deal = castle.CellsDeal.from_number("freecell", n)
        start = time.thread_time()
        solution = castle.solve(deal, max_cpu_seconds=max_cpu_seconds)
        spent = time.thread_time() - start
        side.per_deal.append(spent)
        side.cpu += spent
        side.work += solution.states
        if solution.status == "solved":
            side.won += 1
            wins.append((deal, solution))
        elif solution.status == "unsolvable":
            side.unsolvable.append(n)
        else:
            side.unknown.append(n)
    check_wins(side, wins)
    return side


def check_wins(side: Side, wins: list[tuple[castle.CellsDeal, castle.CellsSolution]]) -> None:
    """Each win's moves made into Python objects (timed apart: ``moves_read``), counted, and
    replayed by the reference's rules."""
    for deal, solution in wins:
        start = time.thread_time()
        side.lengths.append(len(solution.moves))
        side.moves_read += time.thread_time() - start
        if reference_replays(deal, solution.moves):
            side.replayed += 1
        else:
            side.not_replayed.append(deal.number or 0)


def report(fcs: Side, ours: Side, deals: str, lengths_of: int) -> str:
    rows = [("", fcs.name, ours.name)]

    def both(label: str, f: Any) -> None:
        rows.append((label, f(fcs), f(ours)))

    both("won", lambda s: f"{s.won:,}")
    both("unsolvable", lambda s: f"{len(s.unsolvable)} {s.unsolvable[:8]}")
    both("unknown", lambda s: f"{len(s.unknown)} {s.unknown[:8]}")
    both("CPU (s)", lambda s: f"{s.cpu:.2f}")
    both("a deal's median (ms)", lambda s: f"{s.summary()['median_ms']:.3f}")
    both("a deal's p99 (ms)", lambda s: f"{s.summary()['p99_ms']:.2f}")
    both("slowest (ms)", lambda s: f"{s.summary()['max_ms']:.1f}")
    rows.append(("positions", f"{fcs.work:,} iterations", f"{ours.work:,} expanded"))

    def length(s: Side) -> str:
        d = s.summary()
        if not d["length_deals"]:
            return "-"
        return (
            f"median {d['length_median']}, mean {d['length_mean']:.1f}, max {d['length_max']}"
            f" ({d['length_deals']} deals)"
        )

    rows.append(("moves", length(fcs), length(ours)))
    width = [max(len(str(r[i])) for r in rows) for i in range(3)]
    lines = [f"FreeCell (Microsoft) deals {deals}"]
    lines += [
        "  ".join(str(c).ljust(w) for c, w in zip(r, width, strict=True)).rstrip() for r in rows
    ]
    lines.append(
        "fc-solve's CPU: its process's user and system time; its per-deal times: wall "
        "clock between its report lines."
    )
    lines.append(
        "castle's CPU: the solving thread's (user and system), around each castle.solve "
        "call; its moves: "
        "single-card moves; fc-solve's moves: as it counts them (a run is one move), "
        f"from fc-solve -l lg -m on the first {lengths_of} deals."
    )
    lines.append(
        f"castle's wins replayed by the reference's rules (castle.reference, after the run): "
        f"{ours.replayed:,} of {ours.won:,}"
    )
    lines.append(
        f"castle's wins' moves, made into Python objects when first read (after the run, not "
        f"in its CPU above): {ours.moves_read:.2f} s"
    )
    ratio = ours.cpu / fcs.cpu if fcs.cpu > 0 else float("inf")
    lines.append(f"castle's CPU over fc-solve's: {ratio:.2f}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", default="1-1000", help="a range of deals, A-B")
    parser.add_argument("--max-cpu-seconds", type=float, default=10.0)
    parser.add_argument(
        "--lengths", type=int, default=200, help="fc-solve's lengths from the first N deals"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        first, last = parse_range(args.deals)
    except ValueError as e:
        print(f"compare_fcsolve_cells: {e}", file=sys.stderr)
        return 2
    if args.max_cpu_seconds <= 0 or args.lengths < 0:
        print("compare_fcsolve_cells: limits must be positive", file=sys.stderr)
        return 2
    missing = [p for p in (RANGE_SOLVER, "fc-solve") if shutil.which(p) is None]
    if missing:
        print(
            f"compare_fcsolve_cells: {', '.join(missing)} not on PATH "
            "(Debian: apt-get install freecell-solver-bin)",
            file=sys.stderr,
        )
        return 2
    try:
        fcs = run_fcsolve(first, last)
    except CompareError as e:
        print(f"compare_fcsolve_cells: {e}", file=sys.stderr)
        return 2
    ours = run_castle(first, last, args.max_cpu_seconds)
    lengths_of = min(args.lengths, last - first + 1)
    for n in range(first, first + lengths_of):
        length = fcsolve_length(castle.CellsDeal.from_number("freecell", n))
        if length is not None:
            fcs.lengths.append(length)
    if args.json:
        out = {"deals": args.deals, "fc-solve": fcs.summary(), "castle": ours.summary()}
        print(json.dumps(out, indent=2))
    else:
        print(report(fcs, ours, args.deals, lengths_of))
    # fc-solve's "Unsolved" is no proof, castle's is: they must agree all the same.
    disagree = set(fcs.unsolvable) ^ set(ours.unsolvable)
    decided_by_both = disagree - set(fcs.unknown) - set(ours.unknown)
    if decided_by_both:
        print(
            f"compare_fcsolve_cells: verdicts differ on {sorted(decided_by_both)}", file=sys.stderr
        )
        return 1
    if ours.not_replayed:
        print(
            f"compare_fcsolve_cells: the reference's rules refuse the wins of {ours.not_replayed}",
            file=sys.stderr,
        )
        return 1
    return 1 if ours.unknown else 0


if __name__ == "__main__":
    sys.exit(main())
