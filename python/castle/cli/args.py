"""The command line grammar that the commands share: the types of the arguments (sizes,
states, seconds, jobs, deal numbers, seeds, variants, levels) and the option groups of several
commands (limits, jobs). Each command's module adds its own parser (``add_parser``);
:func:`castle.cli.build_parser` puts them together."""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path

from .. import DEFAULT_MAX_MEMORY, VARIANTS
from ..cards import shown
from ..errors import BoardError, LimitError
from ..family import (
    all_variants,
    autoplayed_variants,
    family_of,
    played_variants,
    surveyed_variants,
)
from ..game.levels import LEVELS
from ..saves.store import DATA_DIR_ENV, SaveStore, StoreLockError
from ..solving.deal import check_deal_number, parse_deal_range
from ..solving.outcome import check_spill, limit_problem
from .errors import UsageError

#: ``--jobs`` above this is a typo whatever the machine.
MAX_JOBS = 1024
#: The largest ``--seed``.
MAX_SEED = 2**63 - 1

#: How a deal range is written, for the help of every --deals.
DEALS_HELP = (
    "e.g. 1-1000 or 1-10,48,100-120 (a deal given twice, or in overlapping ranges, counts once)"
)

_SIZE = re.compile(r"(\d+(?:\.\d*)?)\s*([kmgt]?)(?:i?b)?", re.IGNORECASE | re.ASCII)
_DIGITS = re.compile(r"\s*[+-]?[0-9_]+\s*")
_SIZE_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


def deal_numbers(deals: str, command: str, variant: str | None = None) -> Sequence[int]:
    """The deals of ``--deals`` (:data:`DEALS_HELP`), or a one-line error that points to the
    help of ``castle COMMAND``, as the parser's own errors do; with ``variant``, a deal past
    its last (FreeCell's 2**33-1) is such an error too."""
    try:
        numbers = parse_deal_range(deals)
    except ValueError as e:
        raise UsageError(f"--deals: {e} (see castle {command} --help)") from None
    if variant is not None and numbers:
        last = family_of(variant).last_deal(variant)
        if max(numbers) > last:
            raise UsageError(
                f"--deals: {variant} deals run from 1 to {last}, not to {max(numbers)} "
                f"(see castle {command} --help)"
            )
    return numbers


def parse_size(text: str) -> int:
    """``4G``, ``512M``, ``1.5GiB`` or plain bytes, as bytes (units are powers of 1024): a
    ``--max-memory``."""
    return _bytes(text, "max_memory")


def parse_disk_size(text: str) -> int:
    """A ``--max-disk``, as :func:`parse_size` reads it."""
    return _bytes(text, "max_disk")


def _bytes(text: str, limit: str) -> int:
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise argparse.ArgumentTypeError(f"not a size: {shown(text)} (use e.g. 4G, 512M or bytes)")
    number, unit = match.groups()
    whole = number.partition(".")[0].lstrip("0")
    if len(whole) > 30:  # far above any limit (and float() would make it inf)
        _check_limit(limit, 10**40, text)
    # Exact arithmetic: 0.5G is 536870912 bytes, not a float's nearest.
    size = int(Fraction(number) * _SIZE_UNITS[unit.lower()])
    _check_limit(limit, size)
    return size


def parse_spill_dir(text: str) -> Path:
    """A ``--spill-dir``: a directory this process may write in."""
    try:
        path = check_spill(text, None)
    except LimitError as e:
        raise argparse.ArgumentTypeError(str(e).removeprefix("spill_dir ")) from None
    assert path is not None
    return path


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


def parse_seconds(text: str, limit: str = "max_seconds") -> float:
    """A positive, finite number of seconds (checked as the limit ``limit``)."""
    try:
        if not text.isascii():  # float() would read Arabic-Indic digits too
            raise ValueError
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not a number of seconds: {shown(text)} (digits 0-9 only)"
        ) from None
    _check_limit(limit, seconds)
    return seconds


def parse_cpu_seconds(text: str) -> float:
    """A positive, finite number of seconds of CPU time."""
    return parse_seconds(text, "max_cpu_seconds")


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
    """A variant of any family (``castle solve`` takes them all), in any case."""
    return _variant_id(text, all_variants())


def parse_played_variant(text: str) -> str:
    """A variant castle plays (``castle play``, ``castle autoplay``), in any case; one it
    only solves is refused as such."""
    variant = _variant_id(text, all_variants())
    if variant not in played_variants():
        raise argparse.ArgumentTypeError(
            f"castle does not play {family_of(variant).title} yet, it solves and surveys them "
            f"(castle solve --variant {variant}); it plays {', '.join(played_variants())}"
        )
    return variant


def parse_autoplay_variant(text: str) -> str:
    """A variant ``castle autoplay`` plays, in any case; one castle plays only with a person
    (the free-cell games) is refused as such."""
    variant = parse_played_variant(text)
    if variant not in autoplayed_variants():
        raise argparse.ArgumentTypeError(
            f"castle autoplay does not play {family_of(variant).title}: every card is in "
            "sight, so the solver's verdict is the fair player's (castle survey --variant "
            f"{variant}); it plays {', '.join(autoplayed_variants())}"
        )
    return variant


def parse_survey_variant(text: str) -> str:
    """A variant ``castle survey`` takes, in any case."""
    return _variant_id(text, surveyed_variants())


def parse_variant(text: str) -> str:
    """A castle variant, in any case."""
    return _variant_id(text, VARIANTS)


def parse_level(text: str) -> str:
    """A level's id, in any case."""
    wanted = text.strip().lower()
    if wanted not in LEVELS:
        raise argparse.ArgumentTypeError(f"unknown level {text!r} (known: {', '.join(LEVELS)})")
    return wanted


def _check_limit(name: str, value: int | float, text: str | None = None) -> None:
    # The library's own check keeps the CLI's idea of a sane limit identical to solve()'s;
    # argparse puts the flag before the words ("--max-states: must be ...").
    problem = limit_problem(name, value)
    if problem is not None:
        # A number of 300 digits in full is no help: cut short as castle's own messages do.
        shown_as = shown(value) if text is None else shown(text)
        raise argparse.ArgumentTypeError(problem.replace(repr(value), shown_as))


def add_data_dir_option(parser: argparse.ArgumentParser) -> None:
    """``--data-dir``: where a player's saves live (castle play and castle serve)."""
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help="where the saves and statistics live (default: $CASTLE_DATA_DIR, else the "
        "user data directory)",
    )


def as_the_player(data_dir: str | None, do: Callable[[SaveStore], int]) -> int:
    """Run ``do`` as the one player of the data directory (castle play, castle serve): a
    second is refused with one line before it reads or writes anything, so the first's game
    is neither overwritten nor entered as a loss. A directory the player named (``data_dir``,
    else ``$CASTLE_DATA_DIR``) that cannot keep saves is refused too; the platform's default
    only warns, and play goes on unsaved."""
    store = SaveStore(data_dir)
    named = (
        "--data-dir" if data_dir else "$CASTLE_DATA_DIR" if os.environ.get(DATA_DIR_ENV) else None
    )
    reason = None if named is None else store.unusable()
    if reason is not None:
        raise UsageError(f"{named} {store.directory} cannot keep saves: {reason}")
    try:
        with store.player_lock():
            return do(store)
    except StoreLockError as e:
        raise UsageError(str(e)) from None


def add_jobs_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    parser.add_argument(
        "--jobs",
        type=parse_jobs,
        default=1,
        metavar="N",
        help="worker processes (default 1; at most the CPUs available)",
    )


def add_workers_options(parser: argparse.ArgumentParser, verb: str = "solve") -> None:
    """Where a batch's deals go to be solved (or played, ``verb``): ``--jobs`` local
    processes, or a Dask cluster (:mod:`castle.cli.cluster`)."""
    where = parser.add_argument_group(
        f"where to {verb} (one of; Dask needs pip install 'castle-solitaire[cluster]')"
    ).add_mutually_exclusive_group()
    add_jobs_option(where)
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help=f"a Dask scheduler, e.g. tcp://10.0.0.5:8786: its workers {verb} the deals "
        "(default: none, --jobs)",
    )
    where.add_argument(
        "--dask-local",
        type=parse_jobs,
        metavar="N",
        help="start a Dask LocalCluster of N single-threaded worker processes here "
        "(default: none, --jobs)",
    )


def add_limit_options(parser: argparse.ArgumentParser) -> None:
    """``--max-states``, ``--max-seconds``, ``--max-cpu-seconds``, ``--max-memory`` and the
    spill options, in a group of their own."""
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
        help="seconds of search per deal, on the wall clock (default: no limit)",
    )
    limits.add_argument(
        "--max-cpu-seconds",
        type=parse_cpu_seconds,
        metavar="S",
        help="seconds of CPU time per deal's search: the same search's share however busy "
        "the machine is, for runs niced beside other work (default: no limit)",
    )
    limits.add_argument(
        "--max-memory",
        type=parse_size,
        default=DEFAULT_MAX_MEMORY,
        metavar="SIZE",
        help="memory each deal's search may hold: its tables, stacks and beams (per "
        "worker), e.g. 4G, 512M or bytes (default 4G; units are powers of 1024)",
    )
    limits.add_argument(
        "--spill-dir",
        type=parse_spill_dir,
        metavar="DIR",
        help="a directory where a proof too large for --max-memory goes on in files (each "
        "search its own, removed when it ends; default: none, memory is the end)",
    )
    limits.add_argument(
        "--max-disk",
        type=parse_disk_size,
        metavar="SIZE",
        help="bytes of files each deal's search may hold in --spill-dir (default: no limit "
        "but the disk's: a search stops while 256 MiB are still free)",
    )


def check_spill_options(args: argparse.Namespace) -> None:
    """``--max-disk`` bounds ``--spill-dir``: alone it is a mistake."""
    if args.max_disk is not None and args.spill_dir is None:
        raise UsageError("--max-disk goes with --spill-dir")
