"""``castle survey report``: what a survey file holds, a table per variant; its CSV and plot;
its parser.

The file is read through :class:`castle.surveys.survey_store.SurveyStore`; the plot is
:mod:`castle.cli.plot` (matplotlib, imported only for ``--plot``).
"""

from __future__ import annotations

import argparse
import statistics
from array import array
from collections.abc import Sequence

from rich.text import Text

from ..surveys.stats import distribution, winnability
from ..surveys.survey_store import VERDICT_FIELDS, SurveyStore
from ..variants import NAMES
from .args import parse_survey_variant
from .csvfile import AtomicCsv
from .errors import EXIT_OK, Parser, UsageError
from .output import format_percent, format_seconds, make_console
from .plot import plot_format, require_matplotlib, write_plot
from .report import STATUSES, VerdictTally


def add_parser(actions: argparse._SubParsersAction[Parser]) -> Parser:
    """Add ``report`` to ``castle survey``'s ``actions``."""
    report = actions.add_parser(
        "report",
        help="a table per variant of what the file holds; CSV; plots",
        description="Read --db and print, for each variant: deals, solved, unsolvable, "
        "unknown, winnability with its 95% Wilson interval, the median, p99 and maximum "
        "time per deal and the median states.",
    )
    report.add_argument("--db", required=True, metavar="FILE", help="the survey file")
    report.add_argument(
        "--variant", type=parse_survey_variant, metavar="V", help="only this variant (default: all)"
    )
    report.add_argument(
        "--csv", metavar="FILE", help="write every stored row: one per deal, by variant and deal"
    )
    report.add_argument(
        "--status",
        choices=STATUSES,
        help="with --csv: only the rows of this verdict in the file (the unknown ones, say)",
    )
    report.add_argument(
        "--plot",
        metavar="FILE",
        help="draw the distributions of time and states per deal (log scales) in the "
        "format the file's suffix names: .png, .jpg, .svg, .pdf (and the others matplotlib "
        "writes); needs matplotlib: pip install 'castle-solitaire[plot]'",
    )
    return report


REPORT_COLUMNS = (
    ("variant", "<"),
    ("deals", ">"),
    ("solved", ">"),
    ("unsolvable", ">"),
    ("unknown", ">"),
    ("winnable", ">"),
    ("95% interval", ">"),
    ("median time", ">"),
    ("p99 time", ">"),
    ("max time", ">"),
    ("median states", ">"),
)


def report_row(variant: str, tally: VerdictTally) -> list[str]:
    """One variant's line of the report table."""
    counts = tally.counts
    won = winnability(counts["solved"], counts["unsolvable"])
    times = distribution(tally.seconds)
    assert times is not None
    return [
        NAMES.get(variant, variant),
        f"{tally.finished:,}",
        f"{counts['solved']:,}",
        f"{counts['unsolvable']:,}",
        f"{counts['unknown']:,}",
        "-" if won is None else format_percent(won.point),
        "-" if won is None else f"{format_percent(won.low)[:-1]}-{format_percent(won.high)}",
        format_seconds(times.median),
        format_seconds(times.p99),
        format_seconds(times.max),
        f"{statistics.median(tally.states):,.0f}",
    ]


def table_lines(columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[str]]) -> list[str]:
    """Columns padded to their widest cell, two spaces apart; the header first."""
    cells = [[title for title, _ in columns], *rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(columns))]
    return [
        "  ".join(
            f"{cell:{align}{width}}" for cell, (_, align), width in zip(row, columns, widths)
        ).rstrip()
        for row in cells
    ]


def run(args: argparse.Namespace) -> int:
    """Run ``castle survey report`` with parsed ``args``; returns the exit status."""
    if args.status is not None and args.csv is None:
        raise UsageError("--status picks the rows of the --csv file: give --csv FILE too")
    if args.plot is not None:
        plot_format(args.plot)  # before any work: a suffix that names no format is refused
        require_matplotlib()
    console = make_console()
    with SurveyStore.open(args.db) as store:
        variants = [args.variant] if args.variant else store.variants()
        tallies: dict[str, VerdictTally] = {}
        # For the plot: the seconds and states of each variant's deals, by verdict.
        samples: dict[str, dict[str, tuple[array[float], array[int]]]] = {}
        for variant in variants:
            tally = VerdictTally()
            by_status = {s: (array("d"), array("q")) for s in STATUSES}
            for status, limit, seconds, states in store.outcomes(variant):
                tally.add(status, limit, seconds, states)
                if args.plot is not None:
                    plotted = by_status[status]
                    plotted[0].append(seconds)
                    plotted[1].append(states)
            if tally.finished:
                tallies[variant] = tally
                samples[variant] = by_status
        if args.csv is not None:
            rows = write_csv(store, args.csv, args.variant, args.status)

    if not tallies:
        which = f" {NAMES.get(args.variant, args.variant)}" if args.variant else ""
        console.print(f"{args.db} holds no{which} deals")
    else:
        total = sum(t.finished for t in tallies.values())
        console.print(Text(f"{args.db}: {total:,} deals", style="bold"))
        rows_text = table_lines(REPORT_COLUMNS, [report_row(v, t) for v, t in tallies.items()])
        console.print(Text(rows_text[0], style="bold"))
        for line in rows_text[1:]:
            console.print(line)
        console.print(
            Text(
                "winnable: solved / (solved + unsolvable), with its 95% Wilson interval; "
                "times and states per deal, over all deals",
                style="dim",
            )
        )
        unknown = sum(t.counts["unknown"] for t in tallies.values())
        if unknown:
            console.print(
                Text(
                    f"{unknown:,} unknown: castle survey retry --db {args.db} with larger "
                    "limits solves them again",
                    style="dim",
                )
            )
    if args.csv is not None:
        console.print(f"{rows:,} rows written to {args.csv}", style="dim")
    if args.plot is not None:
        write_plot(args.plot, samples)
        console.print(f"plot written to {args.plot}", style="dim")
    return EXIT_OK


def write_csv(store: SurveyStore, path: str, variant: str | None, status: str | None = None) -> int:
    """Every stored row (of ``variant``, with ``status``) to ``path``, by variant and deal;
    the row count."""
    table = AtomicCsv(path, VERDICT_FIELDS)
    try:
        for verdict in store.verdicts(variant):
            if status is None or verdict.status == status:
                table.write(verdict._replace(seconds=round(verdict.seconds, 6)))
        table.commit()
    except BaseException:
        table.discard()
        raise
    return table.rows
