"""Start-up: the wall time of ``import castle`` and of ``castle --help``, each in a fresh
Python process, and what ``python -X importtime`` says costs most in them.

    python benches/startup.py --runs 21
    python benches/startup.py --runs 21 --json

``castle --help`` runs as the ``castle`` script does (``castle.cli:main``). Every command pays
this before it does anything. ``python -c pass`` is timed too: the interpreter's own start-up
(and whatever the site's ``.pth`` files import) is in every figure, and no work of castle's.
The runs take turns (one of each, then again) so that a change in the machine's load falls on
all of them alike; the figures are the median and the fastest of ``--runs``, with the load
average during the runs. The targets: ``import castle`` at most 150 ms, ``castle --help`` at
most 300 ms.

The import costs are ``-X importtime``'s: per module, its own time (its body, without the
modules it imports) and its whole time (with them), the fastest of ``--importtime-runs`` runs,
for the modules the bare interpreter does not import already. The list is the top modules by
their own time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

#: What is timed: a name and the Python code run (``python -c CODE ARGS``).
STARTS: dict[str, tuple[str, ...]] = {
    "python -c pass": ("pass",),
    "import castle": ("import castle",),
    "castle --help": ("import sys; from castle.cli import main; sys.exit(main())", "--help"),
}


def timed_run(code: Sequence[str]) -> float:
    """Seconds of wall time for ``python -c CODE ARGS`` in a fresh process."""
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", *code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True
    )
    return time.perf_counter() - started


def import_times(code: Sequence[str]) -> dict[str, tuple[int, int]]:
    """``-X importtime`` of ``python -c CODE ARGS``: each module's (own, whole) microseconds."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", *code],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
    )
    times: dict[str, tuple[int, int]] = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or line.endswith("| imported package"):
            continue
        own, whole, module = line.removeprefix("import time:").split("|")
        times[module.strip()] = (int(own), int(whole))
    return times


def fastest_import_times(code: Sequence[str], runs: int) -> dict[str, tuple[int, int]]:
    """:func:`import_times`, each figure the fastest of ``runs``."""
    best: dict[str, tuple[int, int]] = {}
    for _ in range(runs):
        for module, (own, whole) in import_times(code).items():
            was = best.get(module, (own, whole))
            best[module] = (min(was[0], own), min(was[1], whole))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=21, help="timed runs of each (default 21)")
    parser.add_argument(
        "--importtime-runs", type=int, default=5, help="-X importtime runs of each (default 5)"
    )
    parser.add_argument("--top", type=int, default=12, help="modules listed (default 12)")
    parser.add_argument("--json", action="store_true", help="one JSON object, not text")
    args = parser.parse_args()

    seconds: dict[str, list[float]] = {name: [] for name in STARTS}
    loads = []
    for _ in range(args.runs):
        loads.append(os.getloadavg()[0])
        for name, code in STARTS.items():
            seconds[name].append(timed_run(code))
    loads.append(os.getloadavg()[0])

    bare = set(fastest_import_times(STARTS["python -c pass"], 1))
    costs = {}
    for name in ("import castle", "castle --help"):
        times = fastest_import_times(STARTS[name], args.importtime_runs)
        top = sorted(
            ((m, own, whole) for m, (own, whole) in times.items() if m not in bare),
            key=lambda row: -row[1],
        )[: args.top]
        costs[name] = top

    result = {
        "python": sys.version.split()[0],
        "runs": args.runs,
        "load_average": [min(loads), max(loads)],
        "ms": {
            name: {
                "median": round(statistics.median(s) * 1000, 1),
                "fastest": round(min(s) * 1000, 1),
            }
            for name, s in seconds.items()
        },
        "importtime_us": {
            name: [{"module": m, "own": own, "whole": whole} for m, own, whole in top]
            for name, top in costs.items()
        },
    }
    if args.json:
        print(json.dumps(result))
        return
    low, high = result["load_average"]
    print(f"Python {result['python']}, {args.runs} runs each, load average {low:.1f}-{high:.1f}")
    for name, ms in result["ms"].items():
        print(f"  {name:15} median {ms['median']:6.1f} ms   fastest {ms['fastest']:6.1f} ms")
    for name, top in costs.items():
        print(f"-X importtime of {name} (ms, the fastest of {args.importtime_runs}): own, whole")
        for module, own, whole in top:
            print(f"  {own / 1000:6.1f} {whole / 1000:6.1f}  {module}")


if __name__ == "__main__":
    main()
