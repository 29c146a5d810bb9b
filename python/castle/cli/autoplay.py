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
from ..variants import NAMES
from .errors import EXIT_OK, UsageError
from .output import format_percent, format_seconds, make_console


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


__all__ = ["run"]
