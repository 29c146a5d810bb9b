"""``castle bench``: the Rust solver against the pure-Python reference on the same deals."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass

from .. import reference
from ..family import family_of
from ..family.protocol import AnySolution
from ..reference import cells as reference_cells
from ..reference import spider as reference_spider
from ..solving.solve import solve
from ..variants import DEFAULT_VARIANT
from .args import deal_numbers, parse_jobs, parse_solve_variant, parse_states
from .errors import Parser

BENCH_HELP = """\
Solve the same deals with the Rust solver and castle.reference at the same state budget;
print states per second for each and their ratio, and check that the two agree state for
state.
"""

BENCH_EPILOG = """\
exit status:
  0    done: the two solvers agree state for state (or --rust-only)
  1    they disagree on a deal (named on stderr)
  2    bad input: variant, deal range, states, repeats
  130  interrupted by Ctrl+C (143: by SIGTERM)

examples:
  castle bench
  castle bench --variant citadel --deals 1-100 --max-states 10000
  castle bench --variant freecell --deals 1-50
  castle bench --rust-only --max-states 1000000 --json
"""


def add_parser(commands: argparse._SubParsersAction[Parser], summary: str) -> Parser:
    """Add ``castle bench`` to ``commands``, ``summary`` its line in ``castle --help``."""
    bench = commands.add_parser(
        "bench",
        help=summary,
        description=BENCH_HELP,
        epilog=BENCH_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    bench.add_argument(
        "--variant",
        type=parse_solve_variant,
        default=DEFAULT_VARIANT,
        metavar="V",
        help="any variant castle solve takes, any case (default %(default)s; the castle "
        "games, Spider and the free-cell games each have their reference)",
    )
    bench.add_argument(
        "--deals", default="1-20", metavar="RANGE", help="the deals (default %(default)s)"
    )
    bench.add_argument(
        "--max-states",
        type=parse_states,
        default=2000,
        metavar="N",
        help="positions to expand per deal, by each solver (default %(default)s)",
    )
    bench.add_argument(
        "--repeat",
        type=parse_jobs,
        default=3,
        metavar="N",
        help="runs of the Rust solver per deal; the fastest counts (default %(default)s)",
    )
    bench.add_argument(
        "--rust-only",
        action="store_true",
        help="time only the Rust solver, for budgets the reference would take too long "
        "over (default: both)",
    )
    bench.add_argument(
        "--json", action="store_true", help="print one JSON object (default: a table)"
    )
    return bench


@dataclass
class Throughput:
    """States expanded and seconds spent by one solver over the deals (best of the repeats),
    and their rate: what ``castle bench`` compares."""

    states: int = 0
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        return self.states / self.seconds if self.seconds > 0 else 0.0


def throughput_json(t: Throughput) -> dict[str, float]:
    return {"states": t.states, "seconds": t.seconds, "states_per_second": t.rate}


#: Each family's pure-Python solver (castle.reference), by the family's name: it takes the
#: family's deal and ``max_states`` as castle.solve does.
REFERENCE_SOLVERS: dict[str, Callable[..., AnySolution]] = {
    "castle": reference.solve,
    "spider": reference_spider.solve,
    "cells": reference_cells.solve,
}


def run(args: argparse.Namespace) -> int:
    numbers = deal_numbers(args.deals, "bench", args.variant)
    family = family_of(args.variant)
    reference_solve = REFERENCE_SOLVERS[family.name]
    deals = [family.deal(args.variant, n) for n in numbers]
    rust, ref = Throughput(), Throughput()
    disagreements = []
    for deal in deals:
        # Each solver times its own search; the best of the repeats damps a noisy machine.
        fast = min(
            (solve(deal, max_states=args.max_states) for _ in range(args.repeat)),
            key=lambda s: s.seconds,
        )
        rust.states += fast.states
        rust.seconds += fast.seconds
        if args.rust_only:
            continue
        slow = reference_solve(deal, max_states=args.max_states)
        ref.states += slow.states
        ref.seconds += slow.seconds
        if (slow.status, slow.states, slow.moves) != (fast.status, fast.states, fast.moves):
            disagreements.append(deal.number)
    ratio = rust.rate / ref.rate if ref.rate else None
    if args.json:
        out = {
            "variant": args.variant,
            "deals": args.deals,
            "max_states": args.max_states,
            "rust": throughput_json(rust),
            "reference": None if args.rust_only else throughput_json(ref),
            "ratio": ratio,
            "disagreements": disagreements,
        }
        print(json.dumps(out))
    else:
        print(f"{args.variant} deals {args.deals}, at most {args.max_states:,} states each")
        print(f"  {'solver':<10} {'states':>12} {'seconds':>9} {'states/s':>12}")
        rows = [("rust", rust)] if args.rust_only else [("rust", rust), ("reference", ref)]
        for name, t in rows:
            print(f"  {name:<10} {t.states:>12,} {t.seconds:>9.3f} {t.rate:>12,.0f}")
        if ratio is not None:
            print(f"  rust / reference: {ratio:,.0f}x states per second")
            verdict = "agree state for state" if not disagreements else "DISAGREE"
            print(f"  the two solvers {verdict} on {len(deals)} deals")
    if disagreements:
        print(f"castle: disagreement on deals {disagreements}", file=sys.stderr)
        return 1
    return 0
