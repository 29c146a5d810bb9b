"""Start-up: the wall time of ``import castle`` and of ``castle --help``, each in a fresh
Python process, and what ``python -X importtime`` says costs most in them.

    python benches/startup.py --runs 21
    python benches/startup.py --runs 21 --json

``castle --help`` runs as the ``castle`` script does (``castle.cli:main``). Every command pays
this before it does anything. The processes start as an installed castle does, from compiled
bytecode: it is written once, by an untimed first run, into a temporary directory
(``PYTHONPYCACHEPREFIX``, whatever ``PYTHONDONTWRITEBYTECODE`` says), not compiled from source
each run. ``python -c pass`` is timed too: the interpreter's own start-up
(and whatever the site's ``.pth`` files import) is in every figure, and no work of castle's.
The runs take turns (one of each, then again) so that a change in the machine's load falls on
all of them alike; the figures are the median and the fastest of ``--runs``, with the load
average during the runs, and the median CPU time (user and system), which a busy machine
inflates less than the wall time. The targets: ``import castle`` at most 150 ms,
``castle --help`` at most 300 ms.

The import costs are ``-X importtime``'s: per module, its own time (its body, without the
modules it imports) and its whole time (with them), the fastest of ``--importtime-runs`` runs,
for the modules the bare interpreter does not import already. The list is the top modules by
their own time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import Any

#: What is timed: a name and the Python code run (``python -c CODE ARGS``).
STARTS: dict[str, tuple[str, ...]] = {
    "python -c pass": ("pass",),
    "import castle": ("import castle",),
    "castle --help": ("import sys; from castle.cli import main; sys.exit(main())", "--help"),
}


def bytecode_env(cache: str) -> dict[str, str]:
    """The environment of every run: bytecode written to and read from ``cache``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": cache}


def timed_run(code: Sequence[str], env: dict[str, str]) -> tuple[float, float]:
    """Seconds of wall time and of CPU time (user and system) for ``python -c CODE ARGS`` in a
    fresh process."""
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", *code],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        check=True,
    )
    wall = time.perf_counter() - started
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime) + (cpu_after.ru_stime - cpu_before.ru_stime)
    return wall, cpu


def import_times(code: Sequence[str], env: dict[str, str]) -> dict[str, tuple[int, int]]:
    """``-X importtime`` of ``python -c CODE ARGS``: each module's (own, whole) microseconds."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", *code],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        check=True,
    )
    times: dict[str, tuple[int, int]] = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or line.endswith("| imported package"):
            continue
        own, whole, module = line.removeprefix("import time:").split("|")
        times[module.strip()] = (int(own), int(whole))
    return times


def fastest_import_times(
    code: Sequence[str], runs: int, env: dict[str, str]
) -> dict[str, tuple[int, int]]:
    """:func:`import_times`, each figure the fastest of ``runs``."""
    best: dict[str, tuple[int, int]] = {}
    for _ in range(runs):
        for module, (own, whole) in import_times(code, env).items():
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
    with tempfile.TemporaryDirectory(prefix="castle-startup-") as cache:
        result = measure(args, bytecode_env(cache))
    show(args, result)


def measure(args: argparse.Namespace, env: dict[str, str]) -> dict[str, Any]:
    """The timed runs and the import costs, as the JSON output."""
    for code in STARTS.values():
        timed_run(code, env)  # writes the bytecode
    seconds: dict[str, list[float]] = {name: [] for name in STARTS}
    cpu_seconds: dict[str, list[float]] = {name: [] for name in STARTS}
    loads = []
    for _ in range(args.runs):
        loads.append(os.getloadavg()[0])
        for name, code in STARTS.items():
            wall, cpu = timed_run(code, env)
            seconds[name].append(wall)
            cpu_seconds[name].append(cpu)
    loads.append(os.getloadavg()[0])

    bare = set(fastest_import_times(STARTS["python -c pass"], 1, env))
    costs = {}
    for name in ("import castle", "castle --help"):
        times = fastest_import_times(STARTS[name], args.importtime_runs, env)
        top = sorted(
            ((m, own, whole) for m, (own, whole) in times.items() if m not in bare),
            key=lambda row: -row[1],
        )[: args.top]
        costs[name] = top

    result: dict[str, Any] = {
        "python": sys.version.split()[0],
        "runs": args.runs,
        "load_average": [min(loads), max(loads)],
        "ms": {
            name: {
                "median": round(statistics.median(s) * 1000, 1),
                "fastest": round(min(s) * 1000, 1),
                "cpu_median": round(statistics.median(cpu_seconds[name]) * 1000, 1),
            }
            for name, s in seconds.items()
        },
        "importtime": {
            name: [{"module": m, "own_us": own, "whole_us": whole} for m, own, whole in top]
            for name, top in costs.items()
        },
    }
    return result


def show(args: argparse.Namespace, result: dict[str, Any]) -> None:
    if args.json:
        print(json.dumps(result))
        return
    low, high = result["load_average"]
    print(f"Python {result['python']}, {args.runs} runs each, load average {low:.1f}-{high:.1f}")
    for name, ms in result["ms"].items():
        print(
            f"  {name:15} median {ms['median']:6.1f} ms   fastest {ms['fastest']:6.1f} ms   "
            f"CPU median {ms['cpu_median']:6.1f} ms"
        )
    for name, top in result["importtime"].items():
        print(f"-X importtime of {name} (ms, the fastest of {args.importtime_runs}): own, whole")
        for row in top:
            print(f"  {row['own_us'] / 1000:6.1f} {row['whole_us'] / 1000:6.1f}  {row['module']}")


if __name__ == "__main__":
    main()
