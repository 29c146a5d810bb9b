"""``castle solve``: one board or numbered deal, or a batch of deals."""

from __future__ import annotations

import argparse
import io
import os
import sys

from ..deal import Deal, parse_deal_range
from ..errors import BoardError
from ..spider import SPIDER_VARIANTS, SpiderDeal
from ..variants import DEFAULT_VARIANT
from .batch import Job, numbered_deal, run_batch
from .errors import EXIT_FAILURE, EXIT_OK, UsageError
from .output import json_line, make_console, print_solution

#: Board text is a few hundred bytes; anything past this is the wrong file.
MAX_BOARD_CHARS = 2**20


def run(args: argparse.Namespace) -> int:
    """Run ``castle solve`` with parsed ``args``; returns the exit status."""
    given = [args.file is not None, args.deal is not None, args.deals is not None]
    if sum(given) != 1:
        raise UsageError("give exactly one of: a board FILE (- for stdin), --deal N, --deals RANGE")
    if args.deals is None and (args.csv is not None or args.jobs != 1):
        raise UsageError("--jobs and --csv go with --deals")
    job = Job(
        variant=args.variant or DEFAULT_VARIANT,
        max_states=args.max_states,
        max_seconds=args.max_seconds,
        max_memory=args.max_memory,
        short=args.short,
        json=args.json,
    )
    if args.short and job.variant in SPIDER_VARIANTS:
        raise UsageError("--short is not offered for Spider yet")
    if args.deals is not None:
        return run_deals(job, args.deals, args.jobs, args.csv)
    deal: Deal | SpiderDeal
    if args.file is not None:
        text, source = read_board(args.file)
        deal = board_deal(text, args.variant, source)
    else:
        source = None
        try:
            deal = numbered_deal(job.variant, args.deal)
        except ValueError as e:
            raise UsageError(str(e)) from None
    solution = job.solve(deal)
    if args.json:
        sys.stdout.write(json_line(deal, solution) + "\n")
    else:
        print_solution(make_console(), deal, solution, source)
    return EXIT_OK


def read_board(path: str) -> tuple[str, str]:
    """The text of board file ``path`` (``-``: stdin) and a name for messages."""
    name = "stdin" if path == "-" else path
    try:
        if path == "-":
            text = read_stdin(MAX_BOARD_CHARS + 1)
        else:
            with open(path, encoding="utf-8-sig") as file:
                text = file.read(MAX_BOARD_CHARS + 1)
    except OSError as e:
        raise UsageError(f"cannot read {name}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{name} is not UTF-8 text, so not a board") from None
    if len(text) > MAX_BOARD_CHARS:
        raise UsageError(f"{name} is over {MAX_BOARD_CHARS:,} characters, so not a board")
    return text, name


def read_stdin(limit: int) -> str:
    """Up to ``limit`` characters of standard input, decoded as a board file is: UTF-8, a
    byte-order mark skipped, a byte that is not UTF-8 a UnicodeDecodeError. (``sys.stdin``
    itself decodes by the locale, and under the C locale turns such bytes into surrogates.)"""
    raw = getattr(sys.stdin, "buffer", None)
    if raw is None:  # stdin replaced by a text stream (tests): already text
        return sys.stdin.read(limit)
    wrapper = io.TextIOWrapper(raw, encoding="utf-8-sig", errors="strict")
    try:
        return wrapper.read(limit)
    finally:
        wrapper.detach()  # leave sys.stdin's buffer open


def board_deal(text: str, variant: str | None, source: str) -> Deal | SpiderDeal:
    """Parse board text (Spider's when ``variant`` says so or the text has a stock line); a
    fault names the source, line and token."""
    spider = variant in SPIDER_VARIANTS or (
        variant is None and any(line.lower().startswith("stock:") for line in text.splitlines())
    )
    try:
        if spider:
            return SpiderDeal.from_text(text, variant)
        return Deal.from_text(text, variant)
    except BoardError as e:
        where = source
        if e.line is not None:
            where += f", line {e.line}"
        if e.token is not None:
            where += f", token {e.token!r}"
        raise UsageError(f"{where}: {e.message}") from None


def usable_cpus() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def run_deals(job: Job, deals: str, jobs: int, csv_path: str | None) -> int:
    """The batch: summary on stdout (stderr under ``--json``, whose lines own stdout)."""
    try:
        numbers = parse_deal_range(deals)
    except ValueError as e:
        raise UsageError(f"--deals: {e}") from None
    errors = make_console(stderr=True)
    cpus = usable_cpus()
    if jobs > cpus:
        errors.print(f"castle: note: --jobs {jobs} lowered to {cpus}, the CPUs available")
    jobs = max(1, min(jobs, cpus, len(numbers)))
    summary = run_batch(job, numbers, deals, jobs=jobs, csv_path=csv_path, progress_console=errors)
    console = errors if job.json else make_console()
    summary.print(console)
    if csv_path is not None:
        console.print(f"{summary.finished:,} rows written to {csv_path}", style="dim")
    if summary.failure:
        errors.print(f"castle: error: {summary.failure}")
        return EXIT_FAILURE
    return 128 + summary.stop_signal if summary.interrupted else EXIT_OK
