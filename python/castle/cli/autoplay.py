"""``castle autoplay``: deals played to the end by the hints alone, with the win rate. A castle
game follows the player's hint (a step of one plan); the summary sets the solver's verdicts on
the same deals beside it. Spider follows the fair hint, or the thoughtful solver's plan."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..autoplay import AutoplayResult, autoplay_castle, autoplay_spider
from ..deal import Deal, parse_deal_range
from ..spider import SPIDER_VARIANTS, SpiderDeal
from ..stats import proportion
from ..variants import NAMES, VARIANTS
from .args import (
    DEALS_HELP,
    Parser,
    parse_jobs,
    parse_seconds,
    parse_seed,
    parse_solve_variant,
    parse_states,
)
from .errors import EXIT_OK, UsageError
from .output import format_percent, format_seconds, make_console


def add_parser(commands: argparse._SubParsersAction[Parser]) -> Parser:
    """Add ``castle autoplay`` to ``commands``."""
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
    return autoplay


def run(args: argparse.Namespace) -> int:
    spider = args.variant in SPIDER_VARIANTS
    if not spider and args.fair:
        raise UsageError("--fair is for Spider: in the castle games every card is in sight")
    if spider and args.max_seconds is not None:
        raise UsageError("--max-seconds is for the castle games: Spider plans by --max-states")
    try:
        numbers = parse_deal_range(args.deals)
    except ValueError as e:
        raise UsageError(f"--deals: {e}") from None
    errors = make_console(stderr=True)
    out = make_console()
    won = 0
    verdicts: Counter[str] = Counter()
    started = time.perf_counter()
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[won]} won"),
        TimeElapsedColumn(),
        console=errors,
        transient=True,
        disable=not errors.is_terminal,
    )
    with progress:
        task = progress.add_task(f"{args.variant} autoplay", total=len(numbers), won=0)
        for number in numbers:
            result = play_deal(args, number, spider)
            won += result.won
            if result.status is not None:
                verdicts[result.status] += 1
            if args.json:
                line = {"variant": args.variant, "deal": number, "won": result.won}
                line.update(moves=result.moves, plans=result.plans)
                if result.status is not None:
                    line.update(status=result.status)
                sys.stdout.write(json.dumps(line) + "\n")
                sys.stdout.flush()
            progress.update(task, advance=1, won=won)
    seconds = time.perf_counter() - started
    rate = proportion(won, len(numbers))
    assert rate is not None
    how = ("the fair hint" if args.fair else "the thoughtful solver") if spider else "the hints"
    name = NAMES.get(args.variant, args.variant)
    summary = (
        f"{name} deals {args.deals}, played by {how}: won {won} of {len(numbers)} "
        f"({format_percent(rate.point)}; 95% interval {format_percent(rate.low)} to "
        f"{format_percent(rate.high)}) in {format_seconds(seconds)}"
    )
    if not spider:
        summary += (
            f"\nthe solver on the same deals: {verdicts['solved']} solved, "
            f"{verdicts['unsolvable']} unsolvable, {verdicts['unknown']} unknown"
        )
    (errors if args.json else out).print(summary)
    return EXIT_OK


def play_deal(args: argparse.Namespace, number: int, spider: bool) -> AutoplayResult:
    if spider:
        return autoplay_spider(
            SpiderDeal.from_number(args.variant, number),
            fair=args.fair,
            seed=args.seed + number,
            samples=args.samples,
            max_states=args.max_states,
        )
    return autoplay_castle(
        Deal.from_number(args.variant, number),
        max_seconds=args.max_seconds,
        max_states=args.max_states,
    )


__all__ = ["add_parser", "run"]
