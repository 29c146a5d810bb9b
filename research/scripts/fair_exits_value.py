"""How much the fair player's choices cost it: the fair value of each choice it weighs.

Each deal is played by the fair hint alone, as ``castle autoplay --fair`` plays it (deal N
draws its worlds from seed N). At every ``--every``-th position where the hint thinks, while
at least ``--stock-min`` cards are left in the stock, each choice the fair player weighs there
(:func:`castle.game.fair.fair_exits`, the first ``--exits``; and its own if it is not among them)
is made in ``--worlds`` worlds a player cannot tell from the position (the hidden cards dealt
anew, the same worlds for every choice so that luck does not decide between them), and the
rest of each world's game is played by the fair hint. A choice's fair value is the share of
its worlds won: how likely the fair player is to win after it. A row per choice, written as
each deal ends, so a run stopped or killed resumes with the same command::

    nice python benches/fair_exits_value.py --variant spider --deals 1-40 --worlds 8 \\
        --csv exits.csv --jobs 1

The summary: over the positions, the mean value of the player's own choice, of the
best-looking choice, and of the best choice, the last chosen on half of the worlds and
valued on the other half (choosing and valuing on the same worlds would flatter it). The
gap between the player's choice and the best is what a better judge of choices could gain
there; the rows are also the labels for learning one.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
from collections.abc import Iterable
from functools import partial
from pathlib import Path

from castle import SpiderDeal, SpiderGame
from castle.game.fair import FairEffort, dealt_anew, fair_advice, fair_exits
from castle.game.plan import Hint
from castle.solving.deal import parse_deal_range
from castle.solving.spider import SpiderMove
from castle.surveys.autoplay import play, play_fair_hints
from rows_file import append_as_done

COLUMNS = (
    "deal",
    "won",
    "hint",
    "stock",
    "down",
    "choice",
    "rank",
    "chosen",
    "worlds",
    "wins",
    "mask",
)

#: One thread a game: ``--jobs`` sets how many play at once.
EFFORT = FairEffort(threads=1)

#: The seed of world i's fair hint (the game itself plays with its deal's number).
WORLD_SEEDS = 1_000


def positions(
    variant: str, number: int, every: int, stock_min: int
) -> tuple[bool, list[tuple[int, SpiderDeal, list[SpiderDeal]]]]:
    """Deal ``number`` played by the fair hint: whether it was won, and every ``every``-th
    position it thought in with at least ``stock_min`` cards in the stock (the count of hints
    that thought before it, the position, the positions played since a card was shown)."""
    game = SpiderGame(SpiderDeal.from_number(variant, number))
    marks: list[tuple[int, SpiderDeal, list[SpiderDeal]]] = []
    searched = 0

    def each(at: SpiderGame, hint: Hint[SpiderMove]) -> None:
        nonlocal searched
        if hint.searched:
            if searched % every == 0 and at.stock >= stock_min:
                marks.append((searched, at.position, at.since_shown()))
            searched += 1

    play_fair_hints(game, seed=number, effort=EFFORT, each=each)
    return game.is_won, marks


def played_on(world: SpiderDeal, plan: tuple[SpiderMove, ...], seed: int) -> bool:
    """``plan`` made in ``world`` (legal in every world: its moves before the last read no
    hidden card), then the rest of the game by the fair hint: won?"""
    game = SpiderGame(world)
    for move in plan:
        play(game, move)
    play_fair_hints(game, seed=seed, effort=EFFORT)
    return game.is_won


def one_deal(
    variant: str, number: int, *, worlds: int, exits: int, every: int, stock_min: int
) -> list[dict[str, int | str]]:
    won, marks = positions(variant, number, every, stock_min)
    rows: list[dict[str, int | str]] = []
    for hint, position, visited in marks:
        plans = fair_exits(position, visited=visited, effort=EFFORT, most=exits)
        own = fair_advice(position, visited=visited, seed=number, effort=EFFORT).moves
        if len(plans) < 2 or not own:
            continue
        ranks = list(range(len(plans)))
        if own not in plans:
            plans.append(own)
            ranks.append(-1)  # the player's own, outside the ones weighed (the solver's rescue)
        rng = random.Random(number * 1_000_003 + hint)
        seen = [dealt_anew(position, rng) for _ in range(worlds)]
        down = sum(len(c.down) for c in position.columns)
        for choice, (plan, rank) in enumerate(zip(plans, ranks)):
            mask = "".join(
                "1" if played_on(world, plan, WORLD_SEEDS + w) else "0"
                for w, world in enumerate(seen)
            )
            rows.append(
                {
                    "deal": number,
                    "won": int(won),
                    "hint": hint,
                    "stock": len(position.stock),
                    "down": down,
                    "choice": choice,
                    "rank": rank,
                    "chosen": int(plan == own),
                    "worlds": worlds,
                    "wins": mask.count("1"),
                    "mask": mask,
                }
            )
    return rows


def read(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def summary(rows: Iterable[dict[str, str]]) -> str:
    """Per position: the player's choice, the best-looking one, and the best chosen on the
    even worlds and valued on the odd ones (and the other way round), as shares of worlds."""
    groups: dict[tuple[str, str], list[dict[str, str]]] = {}
    for row in rows:
        groups.setdefault((row["deal"], row["hint"]), []).append(row)

    def value(row: dict[str, str], half: int) -> float:
        bits = row["mask"][half::2]
        return bits.count("1") / max(1, len(bits))

    own = first = best = 0.0
    for choices in groups.values():
        mine = next(r for r in choices if r["chosen"] == "1")
        top = next((r for r in choices if r["rank"] == "0"), mine)
        own += int(mine["wins"]) / int(mine["worlds"])
        first += int(top["wins"]) / int(top["worlds"])
        for half in (0, 1):
            pick = max(choices, key=lambda r: (value(r, half), r["chosen"]))
            best += value(pick, 1 - half) / 2
    n = max(1, len(groups))
    return (
        f"{len(groups)} positions, {len({d for d, _ in groups})} deals: mean fair value of the "
        f"player's choice {own / n:.3f}, of the best-looking {first / n:.3f}, of the best "
        f"(chosen on half the worlds, valued on the other) {best / n:.3f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="spider")
    parser.add_argument("--deals", help="A-B; without it, only the summary of --csv")
    parser.add_argument("--worlds", type=int, default=8, help="worlds each choice is played in")
    parser.add_argument("--exits", type=int, default=4, help="the best-looking choices weighed")
    parser.add_argument("--every", type=int, default=3, help="every how many thinking hints")
    parser.add_argument("--stock-min", type=int, default=40, help="cards left in the stock")
    parser.add_argument("--csv", type=Path, required=True, help="the choices, one row each")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    if min(args.worlds, args.jobs, args.every) < 1 or args.exits < 2:
        parser.error("--worlds, --jobs and --every are at least 1, --exits at least 2")
    if args.deals:
        done = {int(row["deal"]) for row in read(args.csv)}
        todo = [d for d in parse_deal_range(args.deals) if d not in done]
        job = partial(
            one_deal,
            args.variant,
            worlds=args.worlds,
            exits=args.exits,
            every=args.every,
            stock_min=args.stock_min,
        )
        append_as_done(args.csv, COLUMNS, job, todo, args.jobs, lambda rows: f"{len(rows)} choices")
    print(summary(read(args.csv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
