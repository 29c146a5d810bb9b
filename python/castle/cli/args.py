"""The command line grammar: the parser and the types of its arguments."""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import NoReturn

from .. import DEFAULT_MAX_MEMORY, DEFAULT_VARIANT, VARIANTS, __version__
from ..cards import shown
from ..deal import check_deal_number
from ..errors import BoardError
from ..levels import LEVELS
from ..solve import limit_problem
from ..spider import SPIDER_VARIANTS
from .errors import UsageError
from .report import STATUSES

#: ``--jobs`` above this is a typo whatever the machine.
MAX_JOBS = 1024
#: The largest ``--seed``.
MAX_SEED = 2**63 - 1

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
  castle solve board.txt
  castle solve - < board.txt
  castle solve --variant citadel --deal 17 --json
  castle solve --deal 2 --short
  castle solve --deals 1-1000 --jobs 4 --max-seconds 10 --csv results.csv
  castle solve --variant spider-2 --deal 3
"""

MAIN_HELP = """\
Solve and play the castle patience games (Beleaguered Castle, Streets and Alleys,
Citadel) and Spider (4, 2 or 1 suits: --variant spider, spider-2, spider-1).
"""

SOLVE_HELP = """\
Solve one deal (a board FILE, - for stdin, or --deal N) or a batch (--deals RANGE) of
Beleaguered Castle, Streets and Alleys, Citadel, or Spider (--variant spider: 4 suits,
spider-2: spades and hearts, spider-1: spades).
For people: the verdict, states, time and the numbered moves (columns 1-based).
With --json: one object per deal per line, columns 0-based, "to" a column or
"foundation"; a batch prints its summary to stderr then.
"""

#: How a deal range is written, for the help of every --deals.
DEALS_HELP = (
    "e.g. 1-1000 or 1-10,48,100-120 (a deal given twice, or in overlapping ranges, counts once)"
)

_SIZE = re.compile(r"(\d+(?:\.\d*)?)\s*([kmgt]?)(?:i?b)?", re.IGNORECASE | re.ASCII)
_DIGITS = re.compile(r"\s*[+-]?[0-9_]+\s*")
_SIZE_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (``main`` prints them), not usage + exit."""

    def error(self, message: str) -> NoReturn:
        # "argument --max-states: must be ..." reads "--max-states: must be ...", as the
        # CLI's own messages do ("--deals: not a deal range ...").
        if message.startswith("argument -"):
            message = message.removeprefix("argument ")
        raise UsageError(f"{message} (see {self.prog} --help)")


def parse_size(text: str) -> int:
    """``4G``, ``512M``, ``1.5GiB`` or plain bytes, as bytes (units are powers of 1024)."""
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise argparse.ArgumentTypeError(f"not a size: {shown(text)} (use e.g. 4G, 512M or bytes)")
    number, unit = match.groups()
    whole = number.partition(".")[0].lstrip("0")
    if len(whole) > 30:  # far above any limit (and float() would make it inf)
        raise argparse.ArgumentTypeError(
            f"must be between 1 MiB and 1 TiB in bytes, not {shown(text)}"
        )
    # Exact arithmetic: 0.5G is 536870912 bytes, not a float's nearest.
    size = int(Fraction(number) * _SIZE_UNITS[unit.lower()])
    _check_limit("max_memory", size)
    return size


def _whole_number(text: str, what: str = "a whole number") -> int:
    """``int(text)`` (``_`` separators allowed, as in Python), or an argparse error. Digits
    are ASCII only: ``int()`` would read Arabic-Indic or full-width digits too."""
    if not text.isascii():
        raise argparse.ArgumentTypeError(f"not {what}: {shown(text)} (digits 0-9 only)")
    try:
        return int(text)
    except ValueError:
        if len(text) > 4000 and _DIGITS.fullmatch(text):  # int() takes 4,300 digits at most
            raise argparse.ArgumentTypeError(f"far too large: {shown(text)}") from None
        raise argparse.ArgumentTypeError(f"not {what}: {shown(text)}") from None


def parse_states(text: str) -> int:
    """A positive whole number of states."""
    states = _whole_number(text)
    _check_limit("max_states", states)
    return states


def parse_seconds(text: str) -> float:
    """A positive, finite number of seconds."""
    try:
        if not text.isascii():  # float() would read Arabic-Indic digits too
            raise ValueError
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not a number of seconds: {shown(text)} (digits 0-9 only)"
        ) from None
    _check_limit("max_seconds", seconds)
    return seconds


def parse_jobs(text: str) -> int:
    """A worker count of at least 1 (``main`` lowers it to the CPUs and deals available)."""
    jobs = _whole_number(text)
    if not 1 <= jobs <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"must be between 1 and {MAX_JOBS}, not {shown(jobs)}")
    return jobs


def parse_deal_number(text: str) -> int:
    """A deal number, 1 to 2**63-1."""
    try:
        return check_deal_number(_whole_number(text, "a deal number"))
    except BoardError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def parse_seed(text: str) -> int:
    """A seed for random choices, 0 to 2**63-1."""
    seed = _whole_number(text, "a seed")
    if not 0 <= seed <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"must be between 0 and 2**63-1, not {shown(seed)}")
    return seed


def _variant_id(text: str, known: Sequence[str]) -> str:
    """The variant of ``known`` that ``text`` names, in any case, with spaces or underscores
    for hyphens (``Citadel``, ``Streets and Alleys``, ``SPIDER-2``)."""
    wanted = "-".join(text.strip().lower().replace("_", " ").split())
    if wanted in known:
        return wanted
    raise argparse.ArgumentTypeError(f"unknown variant {text!r} (known: {', '.join(known)})")


def parse_solve_variant(text: str) -> str:
    """A castle variant or a Spider deck (``castle solve`` takes both), in any case."""
    return _variant_id(text, (*VARIANTS, *SPIDER_VARIANTS))


def parse_variant(text: str) -> str:
    """A castle variant, in any case."""
    return _variant_id(text, VARIANTS)


def _check_limit(name: str, value: int | float) -> None:
    # The library's own check keeps the CLI's idea of a sane limit identical to solve()'s;
    # argparse puts the flag before the words ("--max-states: must be ...").
    problem = limit_problem(name, value)
    if problem is not None:
        # A number of 300 digits in full is no help: cut short as castle's own messages do.
        raise argparse.ArgumentTypeError(problem.replace(repr(value), shown(value)))


def add_jobs_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    parser.add_argument(
        "--jobs",
        type=parse_jobs,
        default=1,
        metavar="N",
        help="worker processes (default 1; at most the CPUs available)",
    )


def add_survey_workers_options(parser: argparse.ArgumentParser) -> None:
    """Where a survey's deals are solved: ``--jobs`` local processes, or a Dask cluster."""
    where = parser.add_argument_group(
        "where to solve (one of; Dask needs pip install 'castle-solitaire[cluster]')"
    ).add_mutually_exclusive_group()
    add_jobs_option(where)
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="a Dask scheduler, e.g. tcp://10.0.0.5:8786: its workers solve the deals",
    )
    where.add_argument(
        "--dask-local",
        type=parse_jobs,
        metavar="N",
        help="start a Dask LocalCluster of N single-threaded worker processes here",
    )


def add_limit_options(parser: argparse.ArgumentParser) -> None:
    """``--max-states``, ``--max-seconds`` and ``--max-memory``, in a group of their own."""
    limits = parser.add_argument_group("limits (a deal that hits one is 'unknown')")
    limits.add_argument(
        "--max-states",
        type=parse_states,
        metavar="N",
        help="positions to expand per deal (default: no limit)",
    )
    limits.add_argument(
        "--max-seconds",
        type=parse_seconds,
        metavar="S",
        help="seconds of search per deal (default: no limit)",
    )
    limits.add_argument(
        "--max-memory",
        type=parse_size,
        default=DEFAULT_MAX_MEMORY,
        metavar="SIZE",
        help="transposition table per deal (per worker), e.g. 4G, 512M or bytes "
        "(default 4G; units are powers of 1024)",
    )


def survey_argv(argv: Sequence[str]) -> list[str]:
    """``castle survey --deals ...`` means ``castle survey run --deals ...``."""
    out = list(argv)
    if out and out[0] == "survey":
        rest = out[1:]
        if not rest or rest[0] not in (*SURVEY_COMMANDS, "-h", "--help"):
            out.insert(1, "run")
    return out


def build_parser() -> Parser:
    """The ``castle`` parser with its subcommands."""
    parser = Parser(
        prog="castle",
        description=MAIN_HELP,
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
        type=parse_solve_variant,
        metavar="V",
        help=f"one of {', '.join(VARIANTS)}, or Spider: {', '.join(SPIDER_VARIANTS)} (4, 2, "
        f"1 suits); any case (default {DEFAULT_VARIANT} for --deal/--deals; for a FILE, "
        "when the text alone cannot tell)",
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

    add_survey_parser(commands)
    add_play_parser(commands)
    add_autoplay_parser(commands)

    bench = commands.add_parser(
        "bench",
        help="time the Rust solver against the pure-Python reference",
        description="Solve the same deals with the Rust solver and castle.reference at the "
        "same state budget; print states per second for each and their ratio, and check that "
        "the two agree state for state.",
    )
    bench.add_argument(
        "--variant",
        type=parse_variant,
        default=DEFAULT_VARIANT,
        metavar="V",
        help=f"one of {', '.join(VARIANTS)}, any case (default %(default)s; the "
        "reference solves the castle games only)",
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
    return parser


SURVEY_COMMANDS = ("run", "retry", "report")

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
  castle survey --variant citadel --deals 1-100000 --jobs 4 --max-seconds 10 --db citadel.db
  castle survey retry --db citadel.db --max-seconds 120
  castle survey report --db citadel.db --csv citadel.csv --plot citadel.png
"""


PLAY_HELP = """\
Play in the terminal: a full-screen game (mouse and keyboard), or with --plain a line mode
that reads commands from standard input (for scripts and screen readers). The game is saved
after every move. With no arguments the level picker opens (Continue first when a game is
unfinished); --level L continues an unfinished game of L, else deals anew; --deal N and --new
deal anew. --plain has no picker: it continues the unfinished game, or deals anew.
"""


def parse_level(text: str) -> str:
    """A level's id, in any case."""
    wanted = text.strip().lower()
    if wanted not in LEVELS:
        raise argparse.ArgumentTypeError(f"unknown level {text!r} (known: {', '.join(LEVELS)})")
    return wanted


def add_play_parser(commands: argparse._SubParsersAction[Parser]) -> None:
    play = commands.add_parser(
        "play",
        help="play a game in the terminal",
        description=PLAY_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    which = play.add_mutually_exclusive_group()
    which.add_argument(
        "--level",
        type=parse_level,
        metavar="L",
        help=f"one of {', '.join(LEVELS)} (easy: winnable deals only)",
    )
    which.add_argument(
        "--variant",
        type=parse_solve_variant,
        metavar="V",
        help="play any deal of this variant (spider, spider-2 and spider-1 too)",
    )
    play.add_argument("--deal", type=parse_deal_number, metavar="N", help="PySolFC deal number N")
    play.add_argument(
        "--new", action="store_true", help="start a new deal even if one is unfinished"
    )
    play.add_argument("--plain", action="store_true", help="line mode: read commands from stdin")
    play.add_argument(
        "--data-dir",
        metavar="DIR",
        help="where the save and statistics live (default: $CASTLE_DATA_DIR, else the "
        "user data directory)",
    )


def add_autoplay_parser(commands: argparse._SubParsersAction[Parser]) -> None:
    autoplay = commands.add_parser(
        "autoplay",
        help="play deals to the end by the hints alone, and report the win rate",
        description="Each deal is played by the hint alone. A castle game (Beleaguered "
        "Castle, Streets and Alleys, Citadel) follows the player's hint, a step of one plan "
        "that wins (searched again only off the plan), so it wins exactly the deals the "
        "solver wins under the same limits; the summary sets the two side by side. Spider: "
        "with --fair the hint sees only what a player sees: it solves a few random "
        "completions of the face-down cards and the stock and plays the move most of their "
        "wins start with, planning again whenever a card turns up or the stock is dealt. "
        "Without --fair it follows the thoughtful solver, which sees every card.",
    )
    autoplay.add_argument(
        "--variant",
        type=parse_solve_variant,
        default="spider",
        metavar="V",
        help=f"any variant, any case: {', '.join(VARIANTS)} (played by the hint's plan) or "
        f"{', '.join(SPIDER_VARIANTS)} (played by the solver, or with --fair by the fair "
        "hint) (default %(default)s)",
    )
    autoplay.add_argument(
        "--deals",
        required=True,
        metavar="RANGE",
        help=f"the deals to play (required), {DEALS_HELP}",
    )
    autoplay.add_argument(
        "--fair",
        action="store_true",
        help="Spider: the hint sees only what a player sees (default: the solver, which "
        "sees every card)",
    )
    autoplay.add_argument(
        "--samples",
        type=parse_jobs,
        default=3,
        metavar="N",
        help="with --fair: random completions of the unseen cards solved for each hint "
        "(default %(default)s)",
    )
    autoplay.add_argument(
        "--max-states",
        type=parse_states,
        default=None,
        metavar="N",
        help="castle games: states for each hint's search (default: none, as castle solve); "
        "Spider: the solver's states for each completion (default: 300 layers of its beam: "
        "30,000 with one suit, 300,000 with more)",
    )
    autoplay.add_argument(
        "--max-seconds",
        type=parse_seconds,
        default=None,
        metavar="S",
        help="castle games: seconds for each hint's search (default: none, as castle solve)",
    )
    autoplay.add_argument(
        "--seed",
        type=parse_seed,
        default=0,
        metavar="N",
        help="with --fair: seed of the random completions, 0 to 2**63-1 (deal N uses seed + N; "
        "default %(default)s)",
    )
    autoplay.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per deal on stdout, the summary on stderr (default: the "
        "summary only)",
    )


def add_survey_parser(commands: argparse._SubParsersAction[Parser]) -> None:
    survey = commands.add_parser(
        "survey",
        help="solve a range of deals into an SQLite file that resumes; retry, report",
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
        type=parse_variant,
        default=DEFAULT_VARIANT,
        metavar="V",
        help=f"one of {', '.join(VARIANTS)}, any case (default {DEFAULT_VARIANT})",
    )
    run.add_argument("--deals", required=True, metavar="RANGE", help=DEALS_HELP)
    run.add_argument("--db", required=True, metavar="FILE", help="the survey file (made if new)")
    add_survey_workers_options(run)
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
        "--variant", type=parse_variant, metavar="V", help="only this variant (default: all)"
    )
    add_survey_workers_options(retry)
    add_limit_options(retry)

    report = actions.add_parser(
        "report",
        help="a table per variant of what the file holds; CSV; plots",
        description="Read --db and print, for each variant: deals, solved, unsolvable, "
        "unknown, winnability with its 95% Wilson interval, the median, p99 and maximum "
        "time per deal and the median states.",
    )
    report.add_argument("--db", required=True, metavar="FILE", help="the survey file")
    report.add_argument(
        "--variant", type=parse_variant, metavar="V", help="only this variant (default: all)"
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
