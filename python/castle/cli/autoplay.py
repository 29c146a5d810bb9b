"""``castle autoplay``: Spider deals played to the end by the fair hint (or by the thoughtful
solver's plan), with the win rate."""

from __future__ import annotations

import argparse
import json
import sys
import time

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..deal import parse_deal_range
from ..fair import autoplay
from ..spider import SPIDER_VARIANTS, SpiderDeal
from ..stats import proportion
from .errors import EXIT_OK, UsageError
from .output import format_percent, format_seconds, make_console


def run(args: argparse.Namespace) -> int:
    if args.variant not in SPIDER_VARIANTS:
        raise UsageError(f"autoplay plays Spider: --variant one of {', '.join(SPIDER_VARIANTS)}")
    try:
        numbers = parse_deal_range(args.deals)
    except ValueError as e:
        raise UsageError(f"--deals: {e}") from None
    errors = make_console(stderr=True)
    out = make_console()
    won = 0
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
            result = autoplay(
                SpiderDeal.from_number(args.variant, number),
                fair=args.fair,
                seed=args.seed + number,
                samples=args.samples,
                max_states=args.max_states,
            )
            won += result.won
            if args.json:
                line = {"variant": args.variant, "deal": number, "won": result.won}
                line.update(moves=result.moves, plans=result.plans)
                sys.stdout.write(json.dumps(line) + "\n")
                sys.stdout.flush()
            progress.update(task, advance=1, won=won)
    seconds = time.perf_counter() - started
    rate = proportion(won, len(numbers))
    assert rate is not None
    how = "the fair hint" if args.fair else "the thoughtful solver"
    summary = (
        f"{args.variant} deals {args.deals}, played by {how}: won {won} of {len(numbers)} "
        f"({format_percent(rate.point)}; 95% interval {format_percent(rate.low)} to "
        f"{format_percent(rate.high)}) in {format_seconds(seconds)}"
    )
    (errors if args.json else out).print(summary)
    return EXIT_OK


__all__ = ["run"]
