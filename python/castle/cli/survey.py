"""``castle survey``: deals solved into an SQLite file that resumes, and ``retry``; the
parser of ``castle survey`` (``report`` is :mod:`castle.cli.survey_report`).

The solving is :func:`castle.cli.batch.solve_batch`, as for ``castle solve --deals``, on local
processes or on the Dask cluster that ``--scheduler`` or ``--dask-local`` asks for
(:mod:`castle.cli.cluster`); each verdict goes to a
:class:`castle.surveys.survey_store.SurveyWriter` as it arrives. The summaries cover the whole file
for the variant, not only the deals of the run. Runs on one file at the same time share the deals
through :class:`castle.surveys.survey_claims.DealClaims`.
"""

from __future__ import annotations

import argparse
import contextlib
import time
from collections import Counter
from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from ..family import surveyed_variants
from ..solving.settings import SolveSettings
from ..surveys.survey_claims import DealClaims
from ..surveys.survey_store import SurveyError, SurveyStore, SurveyWriter, Verdict, utc_now
from ..variants import DEFAULT_VARIANT, NAMES
from . import survey_report
from .args import (
    DEALS_HELP,
    add_limit_options,
    add_workers_options,
    check_spill_options,
    deal_numbers,
    parse_survey_variant,
)
from .batch import batch_title, cap_jobs, solve_batch
from .cluster import DaskCluster, connect, distributed
from .engine import Job
from .errors import EXIT_FAILURE, EXIT_OK, Parser, UsageError
from .output import make_console
from .progress import BatchProgress
from .report import STATUSES, BatchSummary, DealResult, VerdictTally
from .signals import STOP_SIGNALS, signals_blocked

# --- the parser ------------------------------------------------------------------------

SURVEY_HELP = """\
Solve many deals and keep every verdict in an SQLite file (--db) as it is found, so that
a run can stop at any time and resume later: deals already in the file are skipped.

  castle survey [run] --deals RANGE --db FILE [--variant V] [--jobs N] [limits]
  castle survey retry --db FILE [--variant V] [--jobs N] [limits]  re-solve the unknowns
  castle survey report --db FILE [--variant V] [--csv FILE] [--plot FILE.png]

Instead of --jobs N local processes, --scheduler tcp://HOST:PORT sends the deals to the
workers of a Dask cluster, and --dask-local N starts one here (N worker processes); the
file is the same either way, so a survey can start one way and resume the other.
Dask is an optional extra: pip install 'castle-solitaire[cluster]'.

"run" is the default: `castle survey --deals 1-1000 --db bc.db` runs a survey.
"""

SURVEY_RUN_HELP = """\
Solve each deal of --deals that the --db file does not hold yet, and store its verdict
as it comes (committed every 100 deals or half a second of solving). After an
interruption, run the same command again to finish. At the end: winnability and
times for everything the file holds for the variant.
"""

SURVEY_RETRY_HELP = """\
Solve again every deal the --db file holds as unknown (of --variant, or of every
variant) under the limits given, and store the verdicts now decided. A deal still
unknown keeps its row, unless this search went further (expanded more states).
"""

SURVEY_EPILOG = """\
exit status:
  0    done (every deal answered: solved, unsolvable or unknown)
  1    a worker process died (the verdicts found until then are stored)
  2    bad input: deal range, limits, a --db file that is not a castle survey or is damaged
  130  interrupted by Ctrl+C (143: by SIGTERM); the verdicts found are stored: run the
       same command again to go on

examples:
  castle survey --deals 1-1000 --jobs 2 --db bc.db
  castle survey --variant citadel --deals 1-100000 --jobs 4 --max-seconds 10 --db citadel.db
  castle survey --variant freecell --deals 1-32000 --jobs 2 --db freecell.db
  castle survey retry --db citadel.db --max-seconds 120
  castle survey report --db citadel.db --csv citadel.csv --plot citadel.png
"""


def add_parser(commands: argparse._SubParsersAction[Parser], summary: str) -> Parser:
    """Add ``castle survey`` (``run``, ``retry``, ``report``) to ``commands``, ``summary``
    its line in ``castle --help``."""
    survey = commands.add_parser(
        "survey",
        help=summary,
        description=SURVEY_HELP,
        epilog=SURVEY_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = survey.add_subparsers(dest="survey_command", metavar="COMMAND", required=True)

    run = actions.add_parser(
        "run",
        help="solve the deals of a range not in the file yet (the default command)",
        description=SURVEY_RUN_HELP,
        epilog=SURVEY_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.add_argument(
        "--variant",
        type=parse_survey_variant,
        default=DEFAULT_VARIANT,
        metavar="V",
        help=f"one of {', '.join(surveyed_variants())}, any case (default {DEFAULT_VARIANT})",
    )
    run.add_argument("--deals", required=True, metavar="RANGE", help=DEALS_HELP)
    run.add_argument("--db", required=True, metavar="FILE", help="the survey file (made if new)")
    add_workers_options(run)
    add_limit_options(run)

    retry = actions.add_parser(
        "retry",
        help="re-solve the deals stored as unknown, with new limits",
        description=SURVEY_RETRY_HELP,
        epilog=SURVEY_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    retry.add_argument("--db", required=True, metavar="FILE", help="the survey file")
    retry.add_argument(
        "--variant", type=parse_survey_variant, metavar="V", help="only this variant (default: all)"
    )
    add_workers_options(retry)
    add_limit_options(retry)

    survey_report.add_parser(actions)
    return survey


# --- the command -----------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    """Run ``castle survey run|retry|report`` with parsed ``args``; returns the exit status."""
    commands = {"run": run_survey, "retry": run_retry, "report": survey_report.run}
    try:
        if getattr(args, "scheduler", None) or getattr(args, "dask_local", None):
            distributed()  # before any file is touched: says what to install
        return commands[args.survey_command](args)
    except SurveyError as e:
        raise UsageError(str(e)) from None


# --- run and retry ---------------------------------------------------------------------


def job_from(args: argparse.Namespace, variant: str) -> Job:
    check_spill_options(args)
    settings = SolveSettings(
        max_states=args.max_states,
        max_seconds=args.max_seconds,
        max_cpu_seconds=args.max_cpu_seconds,
        max_memory=args.max_memory,
        spill_dir=args.spill_dir,
        max_disk=args.max_disk,
    )
    return Job(variant=variant, settings=settings)


class SharedDeals:
    """The deals of a run, shared with the runs on the same file at the same time: the
    :class:`castle.cli.engine.Claims` of :func:`solve_batch`. A deal another run settles
    advances the progress bar with its verdict and is counted in ``elsewhere``.

    While other runs are on the file, the rows found so far are committed before each
    claim: one of them may be waiting for those deals (it claims again every
    :data:`castle.cli.engine.CLAIM_POLL_SECONDS` then, and so does this run when it waits).
    """

    def __init__(self, claims: DealClaims, writer: SurveyWriter, progress: BatchProgress) -> None:
        self._claims = claims
        self._writer = writer
        self._progress = progress
        self._shared = False
        #: Deals of this run that other runs settled meanwhile.
        self.elsewhere = 0

    def claim(self, deals: Sequence[int]) -> tuple[list[int], list[int]]:
        if self._shared:
            self._writer.flush()
        got = self._claims.claim(deals)
        self._shared = got.others > 0
        for deal, status in got.done.items():
            self._progress.advance(DealResult(-1, deal, status, 0, 0.0, 0, None))
        self.elsewhere += len(got.done)
        return got.mine, got.held


def solve_into(
    store: SurveyStore,
    job: Job,
    numbers: Sequence[int],
    label: str,
    *,
    jobs: int,
    progress: BatchProgress,
    cluster: DaskCluster | None = None,
    retry: bool = False,
    since: float | None = None,
) -> tuple[BatchSummary, int]:
    """Solve ``numbers`` (in ``jobs`` local processes, or on ``cluster``) and store each
    verdict as it arrives; Ctrl+C or SIGTERM ends the batch early (``interrupted``), with
    every verdict found so far committed. Other runs on the file at the same time share
    the deals (a ``retry`` of unknowns since ``since`` shares them as
    :class:`DealClaims` says): the summary, and how many deals they settled."""
    limits = (
        job.settings.max_states,
        job.settings.max_seconds,
        job.settings.max_memory,
        job.settings.max_cpu_seconds,
    )
    if not numbers:
        return BatchSummary(job.variant, label, 0, jobs, limits=job.describe_limits()), 0
    claims = DealClaims(store, job.variant, limits, retry=retry, since=since)
    with signals_blocked(STOP_SIGNALS):  # its heartbeat thread and its row, or neither
        claims.open()
    writer = SurveyWriter(store, claims=claims)
    shared = SharedDeals(claims, writer, progress)

    def store_result(result: DealResult) -> None:
        writer.add(
            Verdict(
                job.variant,
                result.number,
                result.status,
                result.states,
                result.seconds,
                result.moves,
                result.limit,
                job.settings.max_states,
                job.settings.max_seconds,
                job.settings.max_memory,
                utc_now(),
                job.settings.max_cpu_seconds,
            )
        )

    try:
        summary = solve_batch(
            job,
            numbers,
            label,
            jobs=jobs,
            progress=progress,
            on_result=store_result,
            signals=STOP_SIGNALS,
            cluster=cluster,
            claims=shared,
        )
        return summary, shared.elsewhere
    finally:
        with signals_blocked(STOP_SIGNALS):  # a second Ctrl+C waits for the last commit
            try:
                writer.flush()
            finally:
                claims.close()  # the claims not settled go back


def run_survey(args: argparse.Namespace) -> int:
    variant: str = args.variant
    numbers = list(deal_numbers(args.deals, "survey run", variant))
    job = job_from(args, variant)
    errors = make_console(stderr=True)
    with contextlib.ExitStack() as stack:
        store = stack.enter_context(SurveyStore.open(args.db, create=True))
        stored = store.statuses(variant, min(numbers), max(numbers))
        todo = [n for n in numbers if n not in stored]
        already = len(numbers) - len(todo)
        # A cluster only when there is work for it (a LocalCluster takes a second to start).
        cluster = stack.enter_context(connect(args.scheduler, args.dask_local)) if todo else None
        jobs = cap_jobs(args.jobs, len(todo), errors)
        progress = BatchProgress(
            errors,
            len(numbers),
            batch_title(args.deals),
            enabled=errors.is_terminal,
            done=already,
            counts=Counter(stored[n] for n in numbers if n in stored),
        )
        summary, elsewhere = solve_into(
            store, job, todo, args.deals, jobs=jobs, progress=progress, cluster=cluster
        )
        tally = store_tally(store, variant)

    name = NAMES.get(variant, variant)
    head = Text.assemble((f"{name} survey of deals {args.deals} into {args.db}", "bold"), ": ")
    if todo:
        head.append_text(run_progress(summary, "new deals"))
        head.append(summary.speed_text())
        if elsewhere:
            head.append(f"; {elsewhere:,} solved by another run at the same time")
        if already:
            head.append(f"; {already:,} stored already")
    else:
        head.append(f"all {already:,} deals stored already, nothing to solve")
    lines = [head]
    if todo:
        lines.append(Text(f"  limits per deal: {summary.limits}", style="dim"))
        lines.append(Text(f"  this run: {verdict_counts(summary.tally.counts)}", style="dim"))
    if summary.interrupted:
        left = len(todo) - summary.finished - elsewhere
        lines.append(
            Text(f"run the same command again to solve the {left:,} deals left", style="yellow")
        )
    lines.extend(store_lines(args.db, variant, tally, job))
    print_lines(make_console(), lines)
    return exit_status(summary, errors)


def run_retry(args: argparse.Namespace) -> int:
    errors = make_console(stderr=True)
    console = make_console()
    summaries = []
    since = time.time()  # retries that finish deals after this are this one's partners
    with contextlib.ExitStack() as stack:
        store = stack.enter_context(SurveyStore.open(args.db))
        variants = [args.variant] if args.variant else store.variants()
        work = {v: store.unknown_deals(v) for v in variants}
        if not any(work.values()):
            which = f" {NAMES.get(args.variant, args.variant)}" if args.variant else ""
            console.print(f"{args.db} holds no unknown{which} deals: nothing to retry")
            return EXIT_OK
        cluster = stack.enter_context(connect(args.scheduler, args.dask_local))
        for variant, numbers in work.items():
            if not numbers:
                continue
            job = job_from(args, variant)
            jobs = cap_jobs(args.jobs, len(numbers), errors)
            name = NAMES.get(variant, variant)
            progress = BatchProgress(
                errors, len(numbers), f"{name} unknown", enabled=errors.is_terminal
            )
            summary, elsewhere = solve_into(
                store,
                job,
                numbers,
                "unknown",
                jobs=jobs,
                progress=progress,
                cluster=cluster,
                retry=True,
                since=since,
            )
            summaries.append(summary)
            head = Text.assemble((f"{name} survey retry in {args.db}", "bold"), ": ")
            head.append_text(run_progress(summary, "unknown deals"))
            head.append(summary.speed_text())
            if elsewhere:
                head.append(f"; {elsewhere:,} retried by another run at the same time")
            counts = summary.tally.counts
            lines = [
                head,
                Text(f"  limits per deal: {summary.limits}", style="dim"),
                Text(
                    f"  now decided: {counts['solved']:,} solved, {counts['unsolvable']:,} "
                    f"unsolvable; still unknown: {counts['unknown']:,}",
                    style="dim",
                ),
            ]
            lines.extend(store_lines(args.db, variant, store_tally(store, variant), job))
            print_lines(console, lines)
            if summary.interrupted or summary.failure:
                break
    return exit_status(summaries[-1], errors)


def run_progress(summary: BatchSummary, what: str) -> Text:
    """``10 new deals``, or ``interrupted after 4 of 10 new deals`` (highlighted)."""
    n, planned = summary.finished, summary.planned
    if summary.interrupted:
        return Text(f"interrupted after {n:,} of {planned:,} {what}", style="bold yellow")
    if summary.failure:
        return Text(f"stopped after {n:,} of {planned:,} {what}", style="bold yellow")
    return Text(f"{n:,} {what}")


def verdict_counts(counts: Counter[str]) -> str:
    return ", ".join(f"{counts[s]:,} {s}" for s in STATUSES)


def exit_status(summary: BatchSummary, errors: Console) -> int:
    if summary.failure:
        errors.print(f"castle: error: {summary.failure}")
        return EXIT_FAILURE
    if summary.interrupted:
        return 128 + summary.stop_signal
    return EXIT_OK


def store_tally(store: SurveyStore, variant: str) -> VerdictTally:
    """Everything ``store`` holds for ``variant``, counted."""
    tally = VerdictTally()
    for outcome in store.outcomes(variant):
        tally.add(*outcome)
    return tally


def store_lines(db: str, variant: str, tally: VerdictTally, job: Job) -> list[Text]:
    """The whole file's verdicts for ``variant``: counts, winnability, time distribution; a
    retry of the unknowns by the clock ``job`` ran on."""
    name = NAMES.get(variant, variant)
    if not tally.finished:
        return [Text(f"{db} holds no {name} deals yet")]
    lines = [Text(f"{db} now holds {tally.finished:,} {name} deals:", style="bold")]
    lines.extend(tally.lines(p90=True))
    unknown = tally.counts["unknown"]
    clock = "--max-seconds" if job.settings.max_cpu_seconds is None else "--max-cpu-seconds"
    if unknown:
        lines.append(
            Text(
                f"to solve the {unknown:,} unknown again with larger limits: "
                f"castle survey retry --db {db} --variant {variant} {clock} S",
                style="dim",
            )
        )
    return lines


def print_lines(console: Console, lines: Sequence[Text]) -> None:
    for line in lines:
        console.print(line)
