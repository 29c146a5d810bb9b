"""Peak memory of ``castle solve`` under ``--max-memory``: what the process holds at most.

    python benches/peak_memory.py --variant spider --deal 65 --max-memory 16M 64M 256M

Each run is ``castle solve --json`` in a fresh process; its peak resident set (VmHWM, read
by the process as it ends) less the baseline's (the same command on Beleaguered Castle
deal 2, 71 states: Python, castle and its imports) is what the solve added. Prints one line
per run: the flag, the verdict (and the limit that stopped an unknown), the states, the peak,
the peak less the baseline, and that as a multiple of the flag.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Sequence

from castle.cli.args import parse_size

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


def peak(args: Sequence[str]) -> tuple[int, dict[str, object]]:
    """(peak resident bytes, the JSON line) of ``castle solve --json`` with ``args``."""
    command = [sys.executable, "-c", CHILD, "solve", "--json", *args]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"castle solve {' '.join(args)}: exit status {done.returncode}")
    hwm = done.stderr.splitlines()[-1].split()
    return int(hwm[1]) * 1024, json.loads(done.stdout.splitlines()[-1])


def baseline() -> int:
    """The peak of a trivial solve: the Python process and castle's imports."""
    return peak(["--variant", "beleaguered-castle", "--deal", "2"])[0]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="beleaguered-castle")
    parser.add_argument("--deal", type=int, required=True)
    parser.add_argument("--max-memory", nargs="+", default=["16M", "64M", "256M", "1G", "4G"])
    parser.add_argument("--max-seconds", type=float, help="passed on (default: no limit)")
    args = parser.parse_args(argv)
    base = baseline()
    print(f"baseline (Beleaguered Castle deal 2): {base / MIB:.1f} MiB")
    extra = ["--max-seconds", str(args.max_seconds)] if args.max_seconds else []
    for size in args.max_memory:
        bound = parse_size(size)
        rss, result = peak(
            ["--variant", args.variant, "--deal", str(args.deal), "--max-memory", size, *extra]
        )
        verdict = str(result["status"])
        if result.get("limit"):
            verdict += f" ({result['limit']})"
        added = rss - base
        print(
            f"{args.variant} {args.deal} --max-memory {size}: {verdict}, "
            f"{result['states']:,} states, {result['seconds']:.2f} s; "
            f"peak {rss / MIB:.1f} MiB, {added / MIB:.1f} MiB over the baseline "
            f"({added / bound:.2f}x the flag)",
            flush=True,
        )


if __name__ == "__main__":
    main()
