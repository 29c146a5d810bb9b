"""Deals 1-2000 of each castle variant with two builds of castle at once: the median and the
99th percentile of the time a deal takes with each, and their ratios ("no slower
where it is fast today": docs/proofs.md).

    python benches/deal_times.py BEFORE/bin/castle AFTER/bin/castle [--deals 1-2000]
        [--max-states 5000000] [--variants ...]

The two builds run side by side, one job each (this machine has two cores), on the same
variant at the same time, so that both see the same load from elsewhere. The time of a deal is
the solver's own (`seconds` in `castle solve --json`). A state limit, not a time limit, ends
the hardest deals. The script fails if the builds contradict each other on a deal (one solved,
the other unsolvable); it lists the deals where they differ otherwise (a build that decides a
deal the other leaves unknown, or decides it in other states, as a new pass does).
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import subprocess
import sys
import tempfile

VARIANTS = ("beleaguered-castle", "streets-and-alleys", "citadel")


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", help="the castle command of the build before")
    parser.add_argument("after", help="the castle command of the build after")
    parser.add_argument("--deals", default="1-2000")
    parser.add_argument("--max-states", default="5000000")
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS))
    parser.add_argument("--csv", help="write each deal's states and both times here")
    args = parser.parse_args()
    rows = []
    per_deal: list[tuple[str, int, str, str, int, int, float, float]] = []
    for variant in args.variants:
        command = [
            "solve", "--variant", variant, "--deals", args.deals, "--jobs", "1",
            "--max-states", args.max_states, "--json",
        ]  # fmt: skip
        # Into files, not pipes: a build must never wait for its output to be read.
        with tempfile.TemporaryFile("w+") as out_before, tempfile.TemporaryFile("w+") as out_after:
            outputs = (out_before, out_after)
            runs = [
                subprocess.Popen([build, *command], stdout=out, stderr=subprocess.DEVNULL)
                for build, out in zip((args.before, args.after), outputs, strict=True)
            ]
            answers = []
            for run, out in zip(runs, outputs, strict=True):
                if run.wait() != 0:
                    print(f"{variant}: a build exited with {run.returncode}", file=sys.stderr)
                    return 1
                out.seek(0)
                answers.append({a["deal"]: a for a in map(json.loads, out.read().splitlines())})
        before, after = answers
        decided = {"solved", "unsolvable"}
        contradict = [
            d for d in before
            if {before[d]["status"], after[d]["status"]} == decided
        ]  # fmt: skip
        if contradict:
            print(f"{variant}: the builds contradict on deals {contradict[:10]}", file=sys.stderr)
            return 1
        differ = [
            d for d in before if (before[d]["status"], before[d]["states"])
            != (after[d]["status"], after[d]["states"])
        ]  # fmt: skip
        for d in differ:
            b, a = before[d], after[d]
            print(
                f"{variant} {d}: {b['status']} in {b['states']:,} states, {b['seconds']:.2f} s"
                f" -> {a['status']} in {a['states']:,}, {a['seconds']:.2f} s"
            )
        per_deal += [
            (variant, d, a["status"], after[d]["status"], a["states"], after[d]["states"],
             a["seconds"], after[d]["seconds"])
            for d, a in before.items()
        ]  # fmt: skip
        times = [[a["seconds"] for a in answer.values()] for answer in answers]
        median = [statistics.median(t) for t in times]
        p99 = [quantile(t, 0.99) for t in times]
        total = [sum(t) for t in times]
        unknown = sum(a["status"] == "unknown" for a in after.values())
        rows.append((variant, median, p99, total, len(after), unknown))
    print(
        f"{'variant':<20} {'deals':>5} {'unknown':>7} "
        f"{'median before':>13} {'after':>9} {'ratio':>5} "
        f"{'p99 before':>10} {'after':>9} {'ratio':>5} "
        f"{'total before':>12} {'after':>9} {'ratio':>5}"
    )
    for variant, median, p99, total, deals, unknown in rows:
        print(
            f"{variant:<20} {deals:>5} {unknown:>7} "
            f"{median[0] * 1e3:>11.3f}ms {median[1] * 1e3:>7.3f}ms {median[1] / median[0]:>5.2f} "
            f"{p99[0] * 1e3:>8.1f}ms {p99[1] * 1e3:>7.1f}ms {p99[1] / p99[0]:>5.2f} "
            f"{total[0]:>11.1f}s {total[1]:>8.1f}s {total[1] / total[0]:>5.2f}"
        )
    print("no deal decided one way by one build and the other way by the other")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(
                ["variant", "deal", "status_before", "status_after", "states_before",
                 "states_after", "before_s", "after_s"]
            )  # fmt: skip
            writer.writerows(per_deal)
    return 0


if __name__ == "__main__":
    sys.exit(main())
