"""The complete pass depth-first, in layers, and in layers on disk, on the same deals, one after
the other in fresh processes: states (which must be equal on a proof: each position once
every way), seconds and the peak resident memory of each, and the ratios.

    python research/scripts/layers.py [beleaguered-castle:162 beleaguered-castle:981 ...]
        [--csv FILE]

Each run is `castle_lab.complete_pass` alone (no quick or beam pass), in a child process
whose peak (VmHWM) is read at its end; the depth-first run has no memory bound, the layered
ones go on in layers from the first position (`layers_after=1`): in memory unbounded, then
under a quarter of that run's peak (`--fraction`) with a spill directory (`--spill-dir`,
default: the system's temporary directory). Then the depth-first pass under a bound that stops
it (a quarter of its peak, at least one and a half times the layers'), its layers once in
memory alone (which start again from the deal) and once with the spill directory (which go on
from where it stopped, its positions not expanded again): the states and seconds of each.
The lab module (``castle_lab``) runs the pass: build it with ``--release`` for the figures.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import tempfile

#: Run in the child: the pass, its answer and the process's peak as JSON.
CHILD = """\
import json, sys, time
import castle_lab
from castle import _core
variant, number, after = sys.argv[1], int(sys.argv[2]), sys.argv[3]
memory = int(sys.argv[4]) if len(sys.argv) > 4 else None
spill = sys.argv[5] if len(sys.argv) > 5 else None
deal = _core.Deal.from_number(variant, number)
start = time.perf_counter()
after = None if after == "-" else int(after)
status, moves, states, _ = castle_lab.complete_pass(deal, None, after, memory, spill)
seconds = time.perf_counter() - start
with open("/proc/self/status") as f:
    peak = int(next(line for line in f if line.startswith("VmHWM:")).split()[1]) * 1024
print(json.dumps({"status": status, "states": states, "seconds": seconds, "peak": peak}))
"""

DEALS = ["beleaguered-castle:162", "beleaguered-castle:15094", "beleaguered-castle:981"]


def run(variant: str, number: int, after: str, *disk: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, variant, str(number), after, *disk],
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
    parser.add_argument("--fraction", type=float, default=0.25, help="of the layers' peak")
    parser.add_argument("--spill-dir", default=tempfile.gettempdir())
    args = parser.parse_args()
    rows = []
    print(
        "deal\tstates\tdepth-first s\tlayers s\tratio\tdepth-first MB\tlayers MB\tratio"
        "\tdisk bound MB\tdisk s\tdisk/layers\tdisk MB"
        "\ttable bound MB\tagain states\tagain s\ton states\ton s\ton/again"
    )
    for item in args.deals:
        variant, _, number = item.partition(":")
        plain = run(variant, int(number), "-")
        layered = run(variant, int(number), "1")
        bound = max(2**21, int(layered["peak"] * args.fraction))
        on_disk = run(variant, int(number), "1", str(bound), args.spill_dir)
        table = max(plain["peak"] // 4, layered["peak"] * 3 // 2)
        again = run(variant, int(number), "-", str(table))
        going_on = run(variant, int(number), "-", str(table), args.spill_dir)
        # Each position once, wherever the layers take over and go on from.
        if not (
            (plain["status"], plain["states"])
            == (layered["status"], layered["states"])
            == (on_disk["status"], on_disk["states"])
            == (going_on["status"], going_on["states"])
        ) or again["status"] not in (plain["status"], "unknown"):
            print(
                f"{item}: the passes differ: {plain} {layered} {on_disk} {going_on} {again}",
                file=sys.stderr,
            )
            return 1
        row = {
            "deal": item,
            "status": plain["status"],
            "states": int(plain["states"]),
            "depth_first_seconds": round(plain["seconds"], 2),
            "layers_seconds": round(layered["seconds"], 2),
            "depth_first_peak_mb": round(plain["peak"] / 1e6),
            "layers_peak_mb": round(layered["peak"] / 1e6),
            "disk_bound_mb": round(bound / 1e6),
            "disk_seconds": round(on_disk["seconds"], 2),
            "disk_peak_mb": round(on_disk["peak"] / 1e6),
            "table_bound_mb": round(table / 1e6),
            "again_status": again["status"],
            "again_states": int(again["states"]),
            "again_seconds": round(again["seconds"], 2),
            "on_seconds": round(going_on["seconds"], 2),
        }
        rows.append(row)
        print(
            f"{item}\t{row['states']:,}\t{row['depth_first_seconds']}\t{row['layers_seconds']}\t"
            f"{layered['seconds'] / plain['seconds']:.2f}\t{row['depth_first_peak_mb']}\t"
            f"{row['layers_peak_mb']}\t{layered['peak'] / plain['peak']:.2f}\t"
            f"{row['disk_bound_mb']}\t{row['disk_seconds']}\t"
            f"{on_disk['seconds'] / layered['seconds']:.2f}\t{row['disk_peak_mb']}\t"
            f"{row['table_bound_mb']}\t{row['again_states']:,}\t{row['again_seconds']}\t"
            f"{int(going_on['states']):,}\t{row['on_seconds']}\t"
            f"{going_on['seconds'] / again['seconds']:.2f}"
        )
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
