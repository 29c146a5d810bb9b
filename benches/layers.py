"""The complete pass depth-first and in layers, on the same deals, one after the other in fresh
processes: states (which must be equal on a proof: each position once either way), seconds,
positions a second and the peak resident memory of each, and the ratios (issue 18, idea 3).

    python benches/layers.py [beleaguered-castle:162 beleaguered-castle:981 ...] [--csv FILE]

Each run is `castle._core.complete_pass` alone (no quick or beam pass), in a child process
whose peak (VmHWM) is read at its end; the depth-first run has no memory bound, the layered one
goes on in layers from the first position (`layers_after=1`).
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys

#: Run in the child: the pass, its answer and the process's peak as JSON.
CHILD = """\
import json, sys, time
from castle import _core
variant, number, after = sys.argv[1], int(sys.argv[2]), sys.argv[3]
deal = _core.Deal.from_number(variant, number)
start = time.perf_counter()
status, moves, states, _ = _core.complete_pass(deal, None, None if after == "-" else int(after))
seconds = time.perf_counter() - start
with open("/proc/self/status") as f:
    peak = int(next(line for line in f if line.startswith("VmHWM:")).split()[1]) * 1024
print(json.dumps({"status": status, "states": states, "seconds": seconds, "peak": peak}))
"""

DEALS = ["beleaguered-castle:162", "beleaguered-castle:15094", "beleaguered-castle:981"]


def run(variant: str, number: int, after: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, variant, str(number), after],
        capture_output=True,
        text=True,
        check=True,
    )
    answer: dict[str, float] = json.loads(done.stdout)
    return answer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deals", nargs="*", default=DEALS, help="variant:number")
    parser.add_argument("--csv", help="write the figures here")
    args = parser.parse_args()
    rows = []
    print("deal\tstates\tdepth-first s\tlayers s\tratio\tdepth-first MB\tlayers MB\tratio")
    for item in args.deals:
        variant, _, number = item.partition(":")
        plain = run(variant, int(number), "-")
        layered = run(variant, int(number), "1")
        if (plain["status"], plain["states"]) != (layered["status"], layered["states"] - 1):
            print(f"{item}: the two passes differ: {plain} {layered}", file=sys.stderr)
            return 1
        row = {
            "deal": item,
            "status": plain["status"],
            "states": int(plain["states"]),
            "depth_first_seconds": round(plain["seconds"], 2),
            "layers_seconds": round(layered["seconds"], 2),
            "depth_first_peak_mb": round(plain["peak"] / 1e6),
            "layers_peak_mb": round(layered["peak"] / 1e6),
        }
        rows.append(row)
        print(
            f"{item}\t{row['states']:,}\t{row['depth_first_seconds']}\t{row['layers_seconds']}\t"
            f"{layered['seconds'] / plain['seconds']:.2f}\t{row['depth_first_peak_mb']}\t"
            f"{row['layers_peak_mb']}\t{layered['peak'] / plain['peak']:.2f}"
        )
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
