"""``castle solve``: one board or numbered deal, or a batch of deals (JSON lines and CSV
rows in deal order); its parser."""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Callable, Sequence

from rich.console import Console

from ..errors import BoardError
from ..family import CASTLE, CELLS, SPIDER, AnyDeal, AnySolution, family_named, family_of
from ..solving.board_family import board_family
from ..solving.outcome import Progress
from ..solving.settings import SolveSettings
from ..variants import DEFAULT_VARIANT
from .args import (
    DEALS_HELP,
    add_jobs_option,
    add_limit_options,
    check_spill_options,
    deal_numbers,
    parse_deal_number,
    parse_solve_variant,
)
from .batch import batch_title, cap_jobs, solve_batch
from .csvfile import AtomicCsv, deal_row
from .engine import Job, numbered_deal
from .errors import EXIT_FAILURE, EXIT_OK, Parser, UsageError
from .output import (
    bytes_text,
    deal_title,
    format_seconds,
    json_line,
    make_console,
    print_solution,
)
from .progress import BatchProgress
from .report import BatchSummary, DealResult
from .signals import STOP_SIGNALS, InterruptGuard

#: Board text is a few hundred bytes; anything past this is the wrong file.
MAX_BOARD_CHARS = 2**20


EPILOG = """\
exit status:
  0    every deal was answered: solved, unsolvable or unknown (a limit stopped the
       search); the verdict, or "status" in the JSON, says which
  1    something failed that is not the input (a worker process died)
  2    bad input: board text, variant, deal range, limits, unreadable file
  130  interrupted by Ctrl+C (a batch prints its partial summary first; the --csv
       file keeps the rows of the deals finished)
  141  stdout closed before the output was written (e.g. piped into head)
  143  stopped by SIGTERM (a batch as for Ctrl+C)

examples:
  castle solve --deal 2
  castle solve board.txt
  castle solve - < board.txt
  castle solve --variant citadel --deal 17 --json
  castle solve --deal 2 --short
  castle solve --deals 1-1000 --jobs 4 --max-seconds 10 --csv results.csv
  castle solve --variant spider-2 --deal 3
  castle solve --variant freecell --deal 617
  castle solve --variant freecell freecell-board.txt
"""

SOLVE_HELP = """\
Solve one deal (a board FILE, - for stdin, or --deal N) or a batch (--deals RANGE) of
Beleaguered Castle, Streets and Alleys, Citadel, Spider (--variant spider: 4 suits,
spider-2: spades and hearts, spider-1: spades) or a free-cell game (--variant freecell,
bakers-game, eight-off, seahaven-towers, siegecraft, stronghold, private-lane; a board in
fc-solve's layout).
For people: the verdict, states, time and the numbered moves (columns and cells 1-based).
With --json: one object per deal per line, columns 0-based, "to" a column or
"foundation" (free-cell games: {"column": i} or {"cell": i}, or "foundation"); a batch
prints its summary to stderr then.
"""


def add_parser(commands: argparse._SubParsersAction[Parser], summary: str) -> Parser:
    """Add ``castle solve`` to ``commands``, ``summary`` its line in ``castle --help``."""
    solve = commands.add_parser(
        "solve",
        help=summary,
        description=SOLVE_HELP,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    solve.add_argument(
        "file", nargs="?", metavar="FILE", help="board text (one line per column); - for stdin"
    )
    solve.add_argument(
        "--variant",
        type=parse_solve_variant,
        metavar="V",
        help=f"one of {', '.join(CASTLE.variants)}, or Spider: {', '.join(SPIDER.variants)} (4, 2, "
        f"1 suits), or a free-cell game: {', '.join(CELLS.variants)}; any case (default "
        f"{DEFAULT_VARIANT} for --deal/--deals; for a FILE, when the text alone cannot tell)",
    )
    which = solve.add_mutually_exclusive_group()
    which.add_argument("--deal", type=parse_deal_number, metavar="N", help="PySolFC deal number N")
    which.add_argument("--deals", metavar="RANGE", help=f"a batch of deals, {DEALS_HELP}")
    batch = solve.add_argument_group("batch (--deals)")
    add_jobs_option(batch)
    batch.add_argument(
        "--csv",
        metavar="FILE",
        help="write variant,deal,status,states,seconds,moves per deal, in deal order "
        "(streamed to a temporary file, renamed into place at the end)",
    )
    add_limit_options(solve)
    solve.add_argument(
        "--short",
        action="store_true",
        help="after a win is found, spend more search (beam searches of growing width, "
        "within the limits) on a shorter one (not for Spider yet)",
    )
    solve.add_argument("--json", action="store_true", help="one JSON object per deal per line")
    return solve


def run(args: argparse.Namespace) -> int:
    """Run ``castle solve`` with parsed ``args``; returns the exit status."""
    given = [args.file is not None, args.deal is not None, args.deals is not None]
    if sum(given) != 1:
        raise UsageError("give exactly one of: a board FILE (- for stdin), --deal N, --deals RANGE")
    if args.deals is None and (args.csv is not None or args.jobs != 1):
        raise UsageError("--jobs and --csv go with --deals")
    settings = SolveSettings(
        max_states=args.max_states,
        max_seconds=args.max_seconds,
        max_cpu_seconds=args.max_cpu_seconds,
        max_memory=args.max_memory,
        short=args.short,
        spill_dir=args.spill_dir,
        max_disk=args.max_disk,
    )
    job = Job(variant=args.variant or DEFAULT_VARIANT, settings=settings, json=args.json)
    check_spill_options(args)
    family = family_of(job.variant)
    if args.short and not family.offers_short:
        raise UsageError(f"--short is not offered for {family.title} yet")
    if args.spill_dir is not None and not family.offers_spill:
        raise UsageError(f"--spill-dir is not offered for {family.title} yet")
    if args.deals is not None:
        return run_deals(job, args.deals, args.jobs, args.csv)
    deal: AnyDeal
    if args.file is not None:
        text, source = read_board(args.file)
        deal = board_deal(text, args.variant, source)
    else:
        source = None
        try:
            deal = numbered_deal(job.variant, args.deal)
        except ValueError as e:
            raise UsageError(str(e)) from None
    # SIGTERM stops the search as Ctrl+C does (exit 143), so that it gives back its spill
    # directory; left to its default, it ended the process there and then.
    with InterruptGuard(STOP_SIGNALS):
        solution = solve_showing_progress(job, deal)
    if args.json:
        sys.stdout.write(json_line(deal, solution) + "\n")
    else:
        print_solution(make_console(), deal, solution, source)
    return EXIT_OK


def solve_showing_progress(job: Job, deal: AnyDeal) -> AnySolution:
    """``job.solve(deal)``; on a terminal, a line on stderr says how it is going (states,
    time, memory) while it runs, and goes when it ends."""
    errors = make_console(stderr=True)
    if not errors.is_terminal:
        return job.solve(deal)
    title = deal_title(deal)
    with errors.status(f"solving {title}", spinner="line") as status:

        def show(p: Progress) -> None:
            disk = f", {bytes_text(p.disk)} on disk" if p.disk else ""
            status.update(
                f"solving {title}: {p.states:,} states, {format_seconds(p.seconds)}, "
                f"{bytes_text(p.memory)} held{disk} (Ctrl+C stops)"
            )

        return job.solve(deal, progress=show)


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


def board_deal(text: str, variant: str | None, source: str) -> AnyDeal:
    """Parse board text (another family's than the default variant's when ``variant`` says
    so, or without it when the text plainly is: a Spider board's stock line, a card in a
    free cell); a fault names the source, line and token, and a board of another family
    than ``variant``'s says what it is."""
    sign = board_family(text)
    if variant is not None:
        family = family_of(variant)
    elif sign is not None:
        family = family_named(sign.family)
    else:
        family = family_of(DEFAULT_VARIANT)  # the text cannot tell: the default variant's
    try:
        return family.read_board(text, variant)
    except BoardError as e:
        where = source
        if e.line is not None:
            where += f", line {e.line}"
        if e.token is not None:
            where += f", token {e.token!r}"
        hint = ""
        if sign is not None and family.name not in sign.families:
            hint = " (without --variant it is read as such)"  # --variant chose the family
        raise UsageError(f"{where}: {e.message}{hint}") from None


def run_deals(job: Job, deals: str, jobs: int, csv_path: str | None) -> int:
    """The batch: summary on stdout (stderr under ``--json``, whose lines own stdout)."""
    numbers = deal_numbers(deals, "solve", job.variant)
    errors = make_console(stderr=True)
    jobs = cap_jobs(jobs, len(numbers), errors)
    summary = run_batch(job, numbers, deals, jobs=jobs, csv_path=csv_path, progress_console=errors)
    console = errors if job.json else make_console()
    summary.print(console)
    if csv_path is not None:
        console.print(f"{summary.finished:,} rows written to {csv_path}", style="dim")
    if summary.failure:
        errors.print(f"castle: error: {summary.failure}")
        return EXIT_FAILURE
    return 128 + summary.stop_signal if summary.interrupted else EXIT_OK


class OrderedSink:
    """Passes results on in batch order, holding back those that finish early."""

    def __init__(self, emit: Callable[[DealResult], None]) -> None:
        self._emit = emit
        self._next = 0
        self._held: dict[int, DealResult] = {}

    def add(self, result: DealResult) -> None:
        self._held[result.position] = result
        while self._next in self._held:
            self._emit(self._held.pop(self._next))
            self._next += 1

    def flush(self) -> None:
        """Pass on the rest (an interrupted batch has gaps), still in order."""
        for index in sorted(self._held):
            self._emit(self._held.pop(index))


def run_batch(
    job: Job,
    numbers: Sequence[int],
    label: str,
    *,
    jobs: int,
    csv_path: str | None,
    progress_console: Console,
) -> BatchSummary:
    """``castle solve --deals``: JSON lines (if ``job.json``) to stdout and CSV rows (if
    ``csv_path``), both in batch order, as :func:`solve_batch` solves ``numbers``.

    The CSV gets the finished deals whether the batch ends, is interrupted (Ctrl+C or
    SIGTERM) or fails; a signal outside the solving (while the file is set up, say) leaves no
    temporary file behind either.
    """
    out = sys.stdout
    # Off a terminal, or when JSON lines share the terminal, a live bar would only garble.
    show = progress_console.is_terminal and not (job.json and out.isatty())
    progress = BatchProgress(progress_console, len(numbers), batch_title(label), enabled=show)
    with InterruptGuard(STOP_SIGNALS) as guard:
        table = AtomicCsv(csv_path) if csv_path else None

        def emit(result: DealResult) -> None:
            if result.json is not None:
                out.write(result.json + "\n")
            if table is not None:
                table.write(deal_row(job.variant, result))

        sink = OrderedSink(emit)
        try:
            summary = solve_batch(
                job,
                numbers,
                label,
                jobs=jobs,
                progress=progress,
                on_result=sink.add,
                signals=STOP_SIGNALS,
            )
            with guard.held():  # a signal now waits for the file to be in place
                sink.flush()
                out.flush()
                if table is not None:
                    table.commit()
        except BaseException:
            if table is not None:
                table.discard()
            raise
    return summary
