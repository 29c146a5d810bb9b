"""The castle solve's states and CPU time per deal with the complete pass's tries first due at
other table sizes (``orbits_after``, a power of two), for choosing ORBITS_AFTER
(rust/src/castle/orbits.rs; docs/proofs.md has the measures).

    python research/scripts/tries_schedule.py run BASELINE.db OUT.csv \\
        --variant beleaguered-castle [--deals 1-10000] [--tail 20000]
        [--exponents 15 16 17 18 19 20 21]
    python research/scripts/tries_schedule.py report BASELINE.db OUT.csv \\
        --variant beleaguered-castle

BASELINE.db is a ``castle survey`` database of the same build. A deal whose solve there
expanded at most ``--tail`` positions never filled the complete pass's table to the first
tries of any exponent given (its solve is the same at all of them), so only the deals above
it (the tail) are solved at each exponent; the others are solved once, at the constant, for
their CPU time on this machine as it is now. ``run`` appends a row per solve to OUT.csv and
skips the solves already there (stop it and start it again at will); ``report`` prints, per
exponent, the median, 99th percentile and total of the states and CPU seconds of all the
deals, how many deals the exponent changed (other states), and how many of those took more
than 1.5 times the constant's states or CPU time (or less than 1/1.5 its CPU time). Both fail
if a deal is solved at one exponent and unsolvable at another. The solves are the lab
module's (``castle_lab``, built with ``--release`` for CPU times: docs/guide/development.md).
"""

from __future__ import annotations

import argparse
import csv
import math
import sqlite3
import statistics
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import castle_lab
from castle import DEFAULT_MAX_MEMORY, _core
from castle.reference.castle.orbits import ORBITS_AFTER

#: The exponent of today's ORBITS_AFTER (the solve of a deal outside the tail).
CONSTANT = ORBITS_AFTER.bit_length() - 1
EXPONENTS = tuple(sorted({15, 16, 17, 18, 19, 20, 21, CONSTANT}))
FIELDS = ("variant", "deal", "exponent", "status", "states", "cpu_seconds", "limit")
#: A deal is "slower" at an exponent when it takes more than this times the constant's.
SLOWER = 1.5


@dataclass(frozen=True)
class Row:
    variant: str
    deal: int
    exponent: int
    status: str
    states: int
    cpu_seconds: float
    limit: str


def quantile(values: list[float], q: float) -> float:
    """The nearest-rank ``q`` quantile: the smallest value with at least ``q`` of them at or
    below it (as benches/spider_hint_times.py takes it)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def deal_range(text: str) -> range:
    first, _, last = text.partition("-")
    try:
        low, high = int(first), int(last or first)
    except ValueError:
        raise argparse.ArgumentTypeError(f"deals as FIRST-LAST, not {text!r}") from None
    if not 1 <= low <= high:
        raise argparse.ArgumentTypeError(f"deals as FIRST-LAST from 1 up, not {text!r}")
    return range(low, high + 1)


def baseline(db: Path, variant: str, deals: range) -> dict[int, tuple[str, int]]:
    """Each deal's (status, states) in the survey database."""
    if not db.is_file():
        raise SystemExit(f"no survey database {db}")
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        found = conn.execute(
            "SELECT deal, status, states FROM verdicts WHERE variant = ? AND deal BETWEEN ? AND ?",
            (variant, deals.start, deals.stop - 1),
        ).fetchall()
    return {int(deal): (str(status), int(states)) for deal, status, states in found}


def read_rows(out: Path) -> list[Row]:
    """The rows of ``out`` (none if it is not there yet), a line cut off by a stop dropped."""
    if not out.exists():
        return []
    with out.open("rb+") as f:
        data = f.read()
        # A run stopped mid-line leaves a partial row: cut it, so the next row starts clean.
        end = data.rfind(b"\n") + 1
        if end != len(data):
            f.truncate(end)
    lines = data[:end].decode().splitlines()
    if not lines:
        return []
    reader = csv.DictReader(lines)
    if tuple(reader.fieldnames or ()) != FIELDS:
        raise SystemExit(f"{out}: not a tries_schedule CSV (header {reader.fieldnames})")
    return [
        Row(
            r["variant"], int(r["deal"]), int(r["exponent"]), r["status"], int(r["states"]),
            float(r["cpu_seconds"]), r["limit"],
        )
        for r in reader
    ]  # fmt: skip


def contradictions(rows: Iterable[Row]) -> list[tuple[str, int]]:
    """The deals solved at one exponent and unsolvable at another."""
    verdicts: dict[tuple[str, int], set[str]] = {}
    for row in rows:
        verdicts.setdefault((row.variant, row.deal), set()).add(row.status)
    return sorted(key for key, seen in verdicts.items() if {"solved", "unsolvable"} <= seen)


def solve(variant: str, deal: int, exponent: int, max_states: int) -> Row:
    core = _core.Deal.from_number(variant, deal)
    start = time.process_time()
    status, _, states, _, limit = castle_lab.solve(
        core, max_states, DEFAULT_MAX_MEMORY, orbits_after=1 << exponent
    )
    cpu = time.process_time() - start
    return Row(variant, deal, exponent, status, states, cpu, limit or "")


def run(args: argparse.Namespace) -> int:
    known = baseline(args.db, args.variant, args.deals)
    rows = read_rows(args.out)
    done = {(r.deal, r.exponent) for r in rows if r.variant == args.variant}
    tail = sorted(d for d, (_, states) in known.items() if states > args.tail)
    rest = sorted(d for d, (_, states) in known.items() if states <= args.tail)
    # The tail at every exponent first (what the choice turns on), then the rest once.
    todo = [(d, e) for d in tail for e in args.exponents] + [(d, CONSTANT) for d in rest]
    todo = [job for job in todo if job not in done]
    print(
        f"{args.variant}: {len(known)} deals in the baseline, {len(tail)} above {args.tail:,}"
        f" states; {len(todo)} solves to go",
        file=sys.stderr,
    )
    # Each deal's verdicts so far, the survey's among them.
    seen = {d: {status} for d, (status, _) in known.items()}
    for r in rows:
        if r.variant == args.variant and r.deal in seen:
            seen[r.deal].add(r.status)
    new_file = not rows
    with args.out.open("a", newline="") as f:
        writer = csv.writer(f)
        if new_file:
            writer.writerow(FIELDS)
        for count, (deal, exponent) in enumerate(todo, 1):
            row = solve(args.variant, deal, exponent, args.max_states)
            writer.writerow(
                (row.variant, row.deal, row.exponent, row.status, row.states,
                 f"{row.cpu_seconds:.6f}", row.limit)
            )  # fmt: skip
            f.flush()
            seen[deal].add(row.status)
            if {"solved", "unsolvable"} <= seen[deal]:
                print(f"CONTRADICTION: {args.variant} {deal} at 2^{exponent}", file=sys.stderr)
                return 1
            if count % 100 == 0:
                print(f"  {count}/{len(todo)}", file=sys.stderr)
    return 0


def report(args: argparse.Namespace) -> int:
    known = baseline(args.db, args.variant, args.deals)
    rows = [r for r in read_rows(args.out) if r.variant == args.variant and r.deal in known]
    surveyed = [Row(args.variant, d, -1, status, n, 0.0, "") for d, (status, n) in known.items()]
    bad = contradictions(rows + surveyed)
    if bad:
        print(
            "CONTRADICTIONS (solved at one exponent or in the survey, unsolvable at another):"
            f" {bad}"
        )
        return 1
    at = {(r.deal, r.exponent): r for r in rows}
    tail = sorted(d for d, (_, states) in known.items() if states > args.tail)
    missing = [(d, e) for d in tail for e in args.exponents if (d, e) not in at]
    missing += [(d, CONSTANT) for d in known if (d, CONSTANT) not in at]
    if missing:
        print(f"{len(missing)} solves not yet measured (e.g. {missing[:3]}): run first")
        return 1
    # The constant's states must be the survey's: the same build, the same deterministic solve.
    moved = [d for d in known if at[d, CONSTANT].states != known[d][1] and known[d][0] != "unknown"]
    print(
        f"{args.variant}: {len(known)} deals, {len(tail)} above {args.tail:,} states;"
        f" {len(moved)} deals whose states at 2^{CONSTANT} differ from the survey's {moved[:5]}"
    )
    print(
        f"{'orbits_after':>12} {'median st':>10} {'p99 st':>10} {'total st':>13}"
        f" {'median ms':>9} {'p99 ms':>8} {'total s':>8} {'unknown':>7}"
        f" {'changed':>7} {'>1.5x st':>8} {'>1.5x cpu':>9} {'<1/1.5 cpu':>10}"
    )
    for exponent in args.exponents:
        chosen = [at.get((d, exponent)) or at[d, CONSTANT] for d in known]
        states = [float(r.states) for r in chosen]
        cpu = [r.cpu_seconds for r in chosen]
        base = {d: at[d, CONSTANT] for d in tail}
        mine = {d: at[d, exponent] for d in tail}
        slower_states = sum(mine[d].states > SLOWER * base[d].states for d in tail)
        # Time only where the search changed: the same states at a second time is the host's noise.
        changed = [d for d in tail if mine[d].states != base[d].states]
        slower_cpu = sum(mine[d].cpu_seconds > SLOWER * base[d].cpu_seconds for d in changed)
        faster_cpu = sum(mine[d].cpu_seconds * SLOWER < base[d].cpu_seconds for d in changed)
        print(
            f"{'2^' + str(exponent):>12} {statistics.median(states):>10,.0f}"
            f" {quantile(states, 0.99):>10,.0f} {sum(states):>13,.0f}"
            f" {statistics.median(cpu) * 1e3:>9.2f} {quantile(cpu, 0.99) * 1e3:>8.1f}"
            f" {sum(cpu):>8.1f} {sum(r.status == 'unknown' for r in chosen):>7}"
            f" {len(changed):>7} {slower_states:>8} {slower_cpu:>9} {faster_cpu:>10}"
        )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("command", choices=("run", "report"))
    parser.add_argument("db", type=Path, help="the baseline's castle survey database")
    parser.add_argument("out", type=Path, help="the CSV of solves (appended to)")
    parser.add_argument("--variant", required=True, choices=_core.variants())
    parser.add_argument("--deals", type=deal_range, default=deal_range("1-10000"))
    parser.add_argument("--tail", type=int, default=20_000, help="states above which to re-solve")
    parser.add_argument("--exponents", type=int, nargs="+", default=list(EXPONENTS))
    parser.add_argument("--max-states", type=int, default=20_000_000)
    args = parser.parse_args()
    if CONSTANT not in args.exponents or not all(0 < e < 63 for e in args.exponents):
        parser.error(f"exponents from 1 to 62, {CONSTANT} (today's) among them")
    if args.tail >= 1 << min(args.exponents):
        # Below the tail the first tries must never be due, else those deals change too.
        parser.error(f"--tail must be below 2^{min(args.exponents)}")
    args.exponents = sorted(set(args.exponents))
    if args.command == "run":
        return run(args)
    return report(args)


if __name__ == "__main__":
    sys.exit(main())
