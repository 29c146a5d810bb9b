"""The command line grammar: the parser and the types of its arguments."""

from __future__ import annotations

import argparse
import re
from typing import NoReturn

from .. import DEFAULT_MAX_MEMORY, DEFAULT_VARIANT, VARIANTS, LimitError, VariantError, __version__
from ..solve import check_limits
from ..variants import check_variant
from .errors import UsageError

#: ``--jobs`` above this is a typo whatever the machine.
MAX_JOBS = 1024

EPILOG = """\
exit status:
  0    every deal was answered: solved, unsolvable or unknown (a limit stopped the
       search); the verdict, or "status" in the JSON, says which
  1    something failed that is not the input (a worker process died)
  2    bad input: board text, variant, deal range, limits, unreadable file
  130  interrupted by Ctrl+C (a batch prints its partial summary first)
  141  stdout closed before the output was written (e.g. piped into head)

examples:
  castle solve board.txt
  castle solve - < board.txt
  castle solve --variant citadel --deal 17 --json
  castle solve --deals 1-1000 --jobs 4 --max-seconds 10 --csv results.csv
"""

SOLVE_HELP = """\
Solve one deal (a board FILE, - for stdin, or --deal N) or a batch (--deals RANGE).
For people: the verdict, states, time and the numbered moves (columns 1-based).
With --json: one object per deal per line, columns 0-based, "to" a column or
"foundation"; a batch prints its summary to stderr then.
"""

_SIZE = re.compile(r"(\d+(?:\.\d*)?)\s*([kmgt]?)(?:i?b)?", re.IGNORECASE)
_SIZE_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (``main`` prints them), not usage + exit."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")


def parse_size(text: str) -> int:
    """``4G``, ``512M``, ``1.5GiB`` or plain bytes, as bytes (units are powers of 1024)."""
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (use e.g. 4G, 512M or bytes)")
    number, unit = match.groups()
    size = int(float(number) * _SIZE_UNITS[unit.lower()])
    _check_limits(memory=size)
    return size


def parse_states(text: str) -> int:
    """A positive whole number of states (``_`` separators allowed, as in Python)."""
    try:
        states = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    _check_limits(states=states)
    return states


def parse_seconds(text: str) -> float:
    """A positive, finite number of seconds."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    _check_limits(seconds=seconds)
    return seconds


def parse_jobs(text: str) -> int:
    """A worker count of at least 1 (``main`` lowers it to the CPUs and deals available)."""
    try:
        jobs = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= jobs <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"must be between 1 and {MAX_JOBS}, not {jobs}")
    return jobs


def parse_deal_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a deal number: {text!r}") from None


def parse_variant(text: str) -> str:
    try:
        return check_variant(text)
    except VariantError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _check_limits(
    states: int | None = None, seconds: float | None = None, memory: int | None = None
) -> None:
    # The library's own check keeps the CLI's idea of a sane limit identical to solve()'s.
    try:
        check_limits(states, seconds, memory)
    except LimitError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def build_parser() -> Parser:
    """The ``castle`` parser with its subcommands."""
    parser = Parser(
        prog="castle",
        description="Solver for Beleaguered Castle, Streets and Alleys and Citadel.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"castle {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    solve = commands.add_parser(
        "solve",
        help="solve a board, a numbered deal or a range of deals",
        description=SOLVE_HELP,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    solve.add_argument(
        "file", nargs="?", metavar="FILE", help="board text (one line per column); - for stdin"
    )
    solve.add_argument(
        "--variant",
        type=parse_variant,
        metavar="V",
        help=f"one of {', '.join(VARIANTS)} (default {DEFAULT_VARIANT} for --deal/--deals; "
        "for a FILE, when the text alone cannot tell)",
    )
    which = solve.add_mutually_exclusive_group()
    which.add_argument("--deal", type=parse_deal_number, metavar="N", help="PySolFC deal number N")
    which.add_argument(
        "--deals", metavar="RANGE", help="a batch of deals, e.g. 1-1000 or 1-10,48,100-120"
    )
    batch = solve.add_argument_group("batch (--deals)")
    batch.add_argument(
        "--jobs",
        type=parse_jobs,
        default=1,
        metavar="N",
        help="worker processes (default 1; at most the CPUs available)",
    )
    batch.add_argument(
        "--csv",
        metavar="FILE",
        help="write variant,deal,status,states,seconds,moves per deal, in deal order "
        "(streamed to a temporary file, renamed into place at the end)",
    )
    limits = solve.add_argument_group("limits (a deal that hits one is 'unknown')")
    limits.add_argument(
        "--max-states", type=parse_states, metavar="N", help="positions to expand per deal"
    )
    limits.add_argument(
        "--max-seconds", type=parse_seconds, metavar="S", help="seconds of search per deal"
    )
    limits.add_argument(
        "--max-memory",
        type=parse_size,
        default=DEFAULT_MAX_MEMORY,
        metavar="SIZE",
        help="transposition table per deal (per worker), e.g. 4G, 512M or bytes "
        "(default 4G; units are powers of 1024)",
    )
    solve.add_argument("--json", action="store_true", help="one JSON object per deal per line")

    bench = commands.add_parser(
        "bench",
        help="time the Rust solver against the pure-Python reference",
        description="Solve the same deals with the Rust solver and castle.reference at the "
        "same state budget; print states per second for each and their ratio, and check that "
        "the two agree state for state.",
    )
    bench.add_argument(
        "--variant", type=parse_variant, default=DEFAULT_VARIANT, metavar="V", help="variant"
    )
    bench.add_argument("--deals", default="1-20", metavar="RANGE", help="deals (default 1-20)")
    bench.add_argument(
        "--max-states",
        type=parse_states,
        default=2000,
        metavar="N",
        help="positions to expand per deal (default 2000)",
    )
    bench.add_argument(
        "--repeat",
        type=parse_jobs,
        default=3,
        metavar="N",
        help="runs of the Rust solver per deal; the fastest counts (default 3)",
    )
    bench.add_argument(
        "--rust-only", action="store_true", help="time only the Rust solver (larger budgets)"
    )
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    return parser
