"""How long a player waits for Spider's fair hint, over whole games played by it alone.

    python benches/spider_hint_times.py --variant spider-1 --deals 1-5 [--max-moves 1000]
        [--json FILE] [--csv FILE]

Each deal is played as a player who only ever presses h would play it: ask
``SpiderGame.hint(fair=True)``, play its move, ask again, until the game is won, a hint has no
move, or ``--max-moves``. Every hint call is timed, by the wall clock (what the player waits)
and by this process's CPU time (what it cost; more than the wall time when the search uses
more than one thread, less when the machine is shared). The target: a median of at
most 1 s and a 99th percentile of at most 3 s a hint, on this 2-core machine.

Only the public API is used (``castle.SpiderGame``, ``castle.SpiderDeal``,
``castle.surveys.autoplay.play``), so the benchmark measures the hint however it is made inside.
Progress goes to standard error; the summary, per game and overall, to standard output;
``--json`` writes the games and the summary, ``--csv`` one row per hint.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import castle
import castle.surveys.autoplay

#: Moves after which a game is given up (a won Spider game takes a few hundred).
MAX_MOVES = 1000
#: Hints between two lines of progress within a game.
PROGRESS_HINTS = 50
#: The targets, in seconds a hint (docs/spider.md).
TARGET_MEDIAN = 1.0
TARGET_P99 = 3.0


@dataclass
class HintTime:
    """One hint call: the moves made before it, its wall and CPU seconds, whether it
    searched (else it was a step of a plan already made), and what it said."""

    moves: int
    wall: float
    cpu: float
    searched: bool
    status: str
    move: str | None


@dataclass
class GamePlayed:
    """A deal played by the fair hint alone, and how it ended: ``"won"``, ``"no move"`` (a
    hint had none) or ``"move cap"``."""

    deal: int
    ended: str = ""
    moves: int = 0
    hints: list[HintTime] = field(default_factory=list)

    @property
    def won(self) -> bool:
        return self.ended == "won"


def quantile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile: the smallest value with at least ``q`` of them at or
    below it (so the p99 of fewer than 100 values is their maximum)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def summary(times: Sequence[float]) -> dict[str, float]:
    """Median, p90, p99 and max of ``times`` (seconds); zeros for none."""
    if not times:
        return {"median": 0.0, "p90": 0.0, "p99": 0.0, "max": 0.0}
    return {
        "median": quantile(times, 0.5),
        "p90": quantile(times, 0.9),
        "p99": quantile(times, 0.99),
        "max": max(times),
    }


def play_deal(
    variant: str,
    number: int,
    max_moves: int = MAX_MOVES,
    progress: Callable[[GamePlayed], None] | None = None,
) -> GamePlayed:
    """Deal ``number`` of ``variant`` played by the fair hint alone, each hint timed;
    ``progress(played)`` every :data:`PROGRESS_HINTS` hints."""
    game = castle.SpiderGame(castle.SpiderDeal.from_number(variant, number))
    played = GamePlayed(number)
    while not game.is_won and game.moves < max_moves:
        if progress is not None and played.hints and len(played.hints) % PROGRESS_HINTS == 0:
            progress(played)
        wall, cpu = time.perf_counter(), time.process_time()
        hint = game.hint(fair=True)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        move = hint.move
        played.hints.append(
            HintTime(
                game.moves,
                wall,
                cpu,
                hint.searched,
                hint.status,
                None if move is None else str(move),
            )
        )
        if move is None:
            break
        castle.surveys.autoplay.play(game, move)
    played.moves = game.moves
    played.ended = "won" if game.is_won else "no move" if game.moves < max_moves else "move cap"
    return played


def game_row(played: GamePlayed) -> dict[str, Any]:
    """A game's line of the report: how it ended and its hints' times."""
    return {
        "deal": played.deal,
        "ended": played.ended,
        "moves": played.moves,
        "hints": len(played.hints),
        "searched": sum(h.searched for h in played.hints),
        "wall": summary([h.wall for h in played.hints]),
        "cpu": summary([h.cpu for h in played.hints]),
    }


def overall(games: Sequence[GamePlayed]) -> dict[str, Any]:
    """Every hint of every game together, and the games won."""
    hints = [h for g in games for h in g.hints]
    wall = summary([h.wall for h in hints])
    return {
        "games": len(games),
        "won": sum(g.won for g in games),
        "hints": len(hints),
        "searched": sum(h.searched for h in hints),
        "wall": wall,
        "cpu": summary([h.cpu for h in hints]),
        # The hints that searched alone (the rest, a plan's next step, take no time).
        "wall_searched": summary([h.wall for h in hints if h.searched]),
        "target_met": wall["median"] <= TARGET_MEDIAN and wall["p99"] <= TARGET_P99,
    }


def times_text(times: dict[str, float]) -> str:
    return "  ".join(f"{name} {times[name]:6.3f}" for name in ("median", "p90", "p99", "max"))


def report(variant: str, games: Sequence[GamePlayed], max_moves: int) -> str:
    """The readable summary: a line a game, then all the hints together."""
    lines = [
        f"Spider fair hint, {variant}, every hint timed (seconds of wall clock; CPU below):",
        f"{'deal':>10} {'ended':>8} {'moves':>5} {'hints':>5}  wall",
    ]
    for played in games:
        row = game_row(played)
        lines.append(
            f"{row['deal']:>10} {row['ended']:>8} {row['moves']:>5} {row['hints']:>5}  "
            f"{times_text(row['wall'])}"
        )
    total = overall(games)
    met = "met" if total["target_met"] else "NOT met"
    lines += [
        f"all {total['hints']} hints ({total['searched']} searched, the rest a plan's next step):",
        f"  wall {times_text(total['wall'])}",
        f"  cpu  {times_text(total['cpu'])}",
        f"the {total['searched']} that searched: wall {times_text(total['wall_searched'])}",
        f"won {total['won']} of {total['games']} (move cap {max_moves}); target median <= "
        f"{TARGET_MEDIAN:g} s and p99 <= {TARGET_P99:g} s: {met}",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="spider-1", choices=["spider-1", "spider-2", "spider"])
    parser.add_argument("--deals", default="1-5", help="deal numbers: 1-5, 3,7,9")
    parser.add_argument("--max-moves", type=int, default=MAX_MOVES, help="a game's move cap")
    parser.add_argument("--json", help="write the games and the summary here, as JSON")
    parser.add_argument("--csv", help="write one row per hint here")
    args = parser.parse_args(argv)
    games: list[GamePlayed] = []
    started = time.perf_counter()

    def elapsed() -> str:
        return f"[{time.perf_counter() - started:7.1f} s]"

    def progress(played: GamePlayed) -> None:
        print(
            f"{elapsed()} deal {played.deal}: {len(played.hints)} hints so far",
            file=sys.stderr,
            flush=True,
        )

    for number in castle.parse_deal_range(args.deals):
        played = play_deal(args.variant, number, args.max_moves, progress)
        games.append(played)
        worst = max((h.wall for h in played.hints), default=0.0)
        print(
            f"{elapsed()} deal {number}: {played.ended} in "
            f"{played.moves} moves, {len(played.hints)} hints, slowest {worst:.2f} s",
            file=sys.stderr,
            flush=True,
        )
    print(report(args.variant, games, args.max_moves))
    if args.json:
        data = {
            "variant": args.variant,
            "deals": args.deals,
            "max_moves": args.max_moves,
            "games": [game_row(g) for g in games],
            "overall": overall(games),
        }
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1)
            out.write("\n")
    if args.csv:
        with open(args.csv, "w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            names = list(HintTime.__dataclass_fields__)
            writer.writerow(["deal", *names])
            for played in games:
                for hint in played.hints:
                    writer.writerow([played.deal, *asdict(hint).values()])
    return 0


if __name__ == "__main__":
    sys.exit(main())
