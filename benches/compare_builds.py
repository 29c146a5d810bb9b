"""Two builds of castle, the same solver work, in one run: states per second of each and their
ratio, so that a change can be shown to be no slower on this shared, noisy machine.

    python benches/compare_builds.py BEFORE/bin/castle AFTER/bin/castle [--rounds 3]

Each round runs every case with one build, then the other (the order alternating), and the
median over rounds counts. The cases: ``castle bench --rust-only`` on deals 1-200 of each
castle variant at 300,000 states a deal; the pure-Python reference (``castle bench``) on
Beleaguered Castle deals 1-20 at 2,000 states a deal; and ``castle solve`` on Spider (2 suits)
deals 1-10 at 200,000 states a deal, one job. Both builds must report the same states (the
same search).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
from collections.abc import Callable

#: A case: its name and the command's arguments after ``castle``.
CASES: list[tuple[str, list[str]]] = [
    *(
        (
            variant,
            [
                "bench", "--rust-only", "--variant", variant, "--deals", "1-200",
                "--max-states", "300000", "--json",
            ],
        )
        for variant in ("beleaguered-castle", "streets-and-alleys", "citadel")
    ),
    (
        "reference",
        ["bench", "--variant", "beleaguered-castle", "--deals", "1-20", "--max-states", "2000",
         "--repeat", "1", "--json"],
    ),
    (
        "spider-2",
        [
            "solve", "--variant", "spider-2", "--deals", "1-10", "--max-states", "200000",
            "--jobs", "1", "--json",
        ],
    ),
]  # fmt: skip


def bench_rate(output: str) -> tuple[int, float]:
    """The reference's states and seconds when it ran, else the Rust solver's."""
    answer = json.loads(output)
    rate = answer["reference"] or answer["rust"]
    return int(rate["states"]), float(rate["seconds"])


def solve_rate(output: str) -> tuple[int, float]:
    lines = [json.loads(line) for line in output.splitlines() if line.strip()]
    return sum(int(x["states"]) for x in lines), sum(float(x["seconds"]) for x in lines)


def measure(castle: str, args: list[str]) -> tuple[int, float]:
    done = subprocess.run([castle, *args], capture_output=True, text=True, check=True)
    read: Callable[[str], tuple[int, float]] = bench_rate if args[0] == "bench" else solve_rate
    return read(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="the castle command of the build before")
    parser.add_argument("after", help="the castle command of the build after")
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    builds = {"before": options.before, "after": options.after}
    rates: dict[tuple[str, str], list[float]] = {}
    states: dict[tuple[str, str], set[int]] = {}
    for round_ in range(options.rounds):
        order = ["before", "after"] if round_ % 2 == 0 else ["after", "before"]
        for name, args in CASES:
            for build in order:
                count, seconds = measure(builds[build], args)
                rates.setdefault((name, build), []).append(count / seconds)
                states.setdefault((name, build), set()).add(count)
    print(f"{'case':20} {'before st/s':>12} {'after st/s':>12} {'after/before':>13}  states")
    for name, _ in CASES:
        before = statistics.median(rates[(name, "before")])
        after = statistics.median(rates[(name, "after")])
        same = states[(name, "before")] == states[(name, "after")]
        counted = ",".join(map(str, sorted(states[(name, "after")])))
        print(
            f"{name:20} {before:12,.0f} {after:12,.0f} {after / before:13.3f}  "
            f"{counted} ({'the same' if same else 'DIFFERENT'})"
        )


if __name__ == "__main__":
    main()
