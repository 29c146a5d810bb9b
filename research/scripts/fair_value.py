"""Where fair Spider games are decided: the fair value of the positions along them.

Each deal is played by the fair hint alone, as ``castle autoplay --fair`` plays it (deal N
draws its worlds from seed N). At the first position of the game (the stock at 50) and the
first after each deal from the stock (40, 30, 20, 10, 0), the hidden cards are dealt anew
``--worlds`` times (:func:`castle.game.fair.dealt_anew`, seeded by the deal's number) and each
world is played on by the fair hint to its end; the position's fair value is the share of
those worlds won: how likely the fair player is to win from what it sees there. A row per
position, written as each deal ends, so a run stopped or killed resumes with the same
command::

    nice python benches/fair_value.py --variant spider --deals 1-15 --worlds 10 \\
        --csv value.csv --jobs 2

The summary: for the games won and the games lost, the mean value at each stock count. Where
the two part, the games were decided (by the cards turned up, and by the player's choices).
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
from castle.game.fair import FairEffort, dealt_anew
from castle.game.plan import Hint
from castle.solving.deal import parse_deal_range
from castle.solving.spider import SpiderMove
from castle.surveys.autoplay import play_fair_hints
from rows_file import append_as_done

COLUMNS = ("deal", "won", "stock", "down", "worlds", "wins")

#: One thread a game: ``--jobs`` sets how many play at once.
EFFORT = FairEffort(threads=1)

#: The seed of world i's fair hint (the game itself plays with its deal's number).
WORLD_SEEDS = 1_000


def positions_at_deals(variant: str, number: int) -> tuple[bool, dict[int, SpiderDeal]]:
    """Deal ``number`` played by the fair hint: whether it was won, and the first position
    it thought in at each count of cards left in the stock."""
    game = SpiderGame(SpiderDeal.from_number(variant, number))
    marks: dict[int, SpiderDeal] = {}

    def each(at: SpiderGame, hint: Hint[SpiderMove]) -> None:
        if hint.searched:
            marks.setdefault(at.stock, at.position)

    play_fair_hints(game, seed=number, effort=EFFORT, each=each)
    return game.is_won, marks


def fair_value(position: SpiderDeal, worlds: int, rng: random.Random) -> int:
    """Of ``worlds`` worlds a player cannot tell from ``position``, how many the fair hint
    wins from there."""
    wins = 0
    for i in range(worlds):
        game = SpiderGame(dealt_anew(position, rng))
        play_fair_hints(game, seed=WORLD_SEEDS + i, effort=EFFORT)
        wins += game.is_won
    return wins


def one_deal(variant: str, number: int, *, worlds: int) -> list[dict[str, int]]:
    won, marks = positions_at_deals(variant, number)
    rng = random.Random(number)
    return [
        {
            "deal": number,
            "won": int(won),
            "stock": stock,
            "down": sum(len(c.down) for c in position.columns),
            "worlds": worlds,
            "wins": fair_value(position, worlds, rng),
        }
        for stock, position in sorted(marks.items(), reverse=True)
    ]


def read(path: Path) -> list[dict[str, int]]:
    if not path.exists():
        return []
    with path.open(newline="") as f:
        return [{k: int(v) for k, v in row.items()} for row in csv.DictReader(f)]


def summary(rows: Iterable[dict[str, int]]) -> str:
    """The games won and lost, each with its mean value at each stock count."""
    groups: dict[tuple[int, int], list[float]] = {}
    games: dict[int, set[int]] = {0: set(), 1: set()}
    for row in rows:
        games[row["won"]].add(row["deal"])
        groups.setdefault((row["won"], row["stock"]), []).append(row["wins"] / row["worlds"])
    lines = []
    for won, name in ((1, "won"), (0, "lost")):
        cells = [
            f"{stock}: {sum(v) / len(v):.2f}"
            for (w, stock), v in sorted(groups.items(), key=lambda kv: -kv[0][1])
            if w == won
        ]
        by_stock = ", ".join(cells)
        lines.append(f"{len(games[won])} games {name}; mean value by stock left: {by_stock}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="spider")
    parser.add_argument("--deals", help="A-B; without it, only the summary of --csv")
    parser.add_argument("--worlds", type=int, default=10, help="worlds a position is played in")
    parser.add_argument("--csv", type=Path, required=True, help="the positions, one row each")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    if args.worlds < 1 or args.jobs < 1:
        parser.error("--worlds and --jobs are at least 1")
    if args.deals:
        done = {row["deal"] for row in read(args.csv)}
        todo = [d for d in parse_deal_range(args.deals) if d not in done]

        def described(rows: list[dict[str, int]]) -> str:
            values = ", ".join(f"{r['stock']}: {r['wins']}/{r['worlds']}" for r in rows)
            return f"deal {rows[0]['deal']}: {values}"

        job = partial(one_deal, args.variant, worlds=args.worlds)
        append_as_done(args.csv, COLUMNS, job, todo, args.jobs, described)
    print(summary(read(args.csv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
