"""Settings of the fair Spider player tried on whole games: the experiment harness behind
docs/spider.md's "What was tried".

Each game is played by the fair hint alone, as ``castle autoplay --fair`` plays it (deal N
draws its worlds from seed N), with the fair player's effort changed by ``--effort`` (a JSON
object of :class:`castle.FairEffort` fields). Each game is a row of ``--csv`` as it ends, so a
run stopped or killed resumes with the same command; ``--against`` compares the deals both
files hold, game by game::

    nice python benches/fair_trials.py --variant spider --deals 1-100 \\
        --effort '{"reveal_quiet": 500}' --csv quiet500.csv --jobs 2
    python benches/fair_trials.py --csv quiet500.csv --against fair4.csv

The summary: games won with a 95% (Wilson) interval, the cards left face down at the end (a
smoother measure than wins), and against the other file the deals only one of the two won (a
sign test) and the paired difference in cards left face down.

With ``--opening`` each deal is played only until the hint first deals from the stock (or
has no move): the cards still face down then are the row's ``down_left``. Four-suit games
are mostly decided there (docs/spider.md), and an opening costs a tenth of a game, so a
setting's effect on it shows in a minute where its effect on wins needs an hour of games.
With ``--stretch K`` one stretch of a game is measured alone: the deck's own fair player (the
default effort) plays to its K-th deal and makes it, and from there the tried effort plays
until the hint deals again, or with K 5 (the stock empty) to the game's end; the cards face
down then are the row's ``down_left`` (and with K 5, ``won`` whether the game was won), its
``cpu_seconds`` the stretch's. Every setting starts each deal's stretch from the same
position, so a stretch is measured without the noise of what went before, and a change that
plays the opening the same way is measured later in the game too (``--stretch 0`` is the
opening). A game that ends before its K-th deal is recorded where it ended, the same for
every setting. A file holds one kind of run (whole games, or one stretch), never two (its
rows' ``stop``).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import time
from dataclasses import fields, replace
from functools import partial
from pathlib import Path

from castle import SpiderDeal, SpiderGame
from castle.game.fair import FairEffort
from castle.solving.deal import parse_deal_range
from castle.solving.spider import COLUMNS as TABLE_COLUMNS
from castle.solving.spider import SpiderMove
from castle.surveys.autoplay import play_fair_hints
from castle.surveys.stats import wilson_interval
from rows_file import append_as_done

COLUMNS = (
    "deal",
    "won",
    "moves",
    "plans",
    "down_left",
    "runs_off",
    "cpu_seconds",
    "effort",
    "stop",
)

#: Where a row's game stopped: at its end, where the hint first deals (``--opening``), or
#: (``--stretch K``) where it deals next after the K-th deal.
END, FIRST_DEAL = "end", "first deal"
ORDINALS = ("first", "second", "third", "fourth", "fifth")
#: The stretch from the last deal, the rest of the game: as many as the stock holds deals (the
#: game's rule, read from a deal).
LAST = len(SpiderDeal.from_number("spider", 1).stock) // TABLE_COLUMNS


def stop_of(stretch: int | None) -> str:
    """What a row of a run of ``stretch`` says in its ``stop`` (None: whole games)."""
    if stretch is None:
        return END
    if stretch == 0:
        return FIRST_DEAL
    if stretch == LAST:
        return f"{END} from the {ORDINALS[LAST - 1]} deal"
    return f"{ORDINALS[stretch]} deal from the {ORDINALS[stretch - 1]}"


def effort_of(text: str) -> FairEffort:
    given = json.loads(text)
    known = {f.name for f in fields(FairEffort)}
    if not isinstance(given, dict) or not set(given) <= known:
        raise SystemExit(f"fair_trials: --effort takes a JSON object of {sorted(known)}")
    if "weights" in given:
        given["weights"] = tuple(given["weights"])
    return FairEffort(**given)


def kind(stop: str) -> str:
    """A run's rows, named by where they stop."""
    return {END: "whole games", FIRST_DEAL: "openings"}.get(stop, f"stretches to the {stop}")


def is_deal(move: SpiderMove) -> bool:
    """Where an opening or a stretch stops: before the hint deals from the stock."""
    return move.kind == "deal"


def deals_made(game: SpiderGame, seed: int, count: int) -> bool:
    """The first ``count`` deals of ``game`` as the deck's own fair player makes them, its
    hints played up to each and the deal made: whether all ``count`` were."""
    base = FairEffort(threads=1)
    for _ in range(count):
        play_fair_hints(game, seed=seed, effort=base, until=is_deal)
        # The plan's next step, kept by the game: no new search.
        hint = game.hint(fair=True, seed=seed, effort=base)
        if hint.move is None or not is_deal(hint.move):
            return False
        game.deal_row()
    return True


def one_game(
    variant: str, number: int, *, effort_text: str, stretch: int | None = None
) -> list[dict[str, object]]:
    """Deal ``number`` played by the fair hint alone, on one thread, to its end, or (``stretch``
    K) from the deck's own player's K-th deal to the hint's next: its row."""
    effort = effort_of(effort_text)
    if effort.threads is None:
        effort = replace(effort, threads=1)
    game = SpiderGame(SpiderDeal.from_number(variant, number))
    made = deals_made(game, number, stretch or 0)
    start = time.process_time()
    until = None if stretch in (None, LAST) else is_deal
    plans = play_fair_hints(game, seed=number, effort=effort, until=until) if made else 0
    cpu = time.process_time() - start
    down = sum(len(c.down) for c in game.position.columns)
    return [
        {
            "deal": number,
            "won": int(game.is_won),
            "moves": game.moves,
            "plans": plans,
            "down_left": down,
            "runs_off": len(game.position.off),
            "cpu_seconds": round(cpu, 2),
            "effort": effort_text,
            "stop": stop_of(stretch),
        }
    ]


def read(path: Path) -> dict[int, dict[str, str]]:
    if not path.exists():
        return {}
    with path.open(newline="") as f:
        return {int(row["deal"]): row for row in csv.DictReader(f) if row.get("won") in ("0", "1")}


def sign_test(a: int, b: int) -> float:
    """Two-sided p of a fair coin giving a split as uneven as ``a`` against ``b``."""
    n, k = a + b, min(a, b)
    if n == 0:
        return 1.0
    tail: float = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def summary(rows: dict[int, dict[str, str]], name: str) -> str:
    n = len(rows)
    stops = {r.get("stop", END).split(" from ")[0] for r in rows.values()}
    when = "left" if stops <= {END} else f"at the {stops.pop()}"
    won = sum(int(r["won"]) for r in rows.values())
    low, high = wilson_interval(won, n) if n else (0.0, 1.0)
    down = sum(int(r["down_left"]) for r in rows.values()) / max(n, 1)
    cpu = sum(float(r["cpu_seconds"]) for r in rows.values()) / max(n, 1)
    return (
        f"{name}: {won} of {n} won ({100 * won / max(n, 1):.1f}%, 95% {100 * low:.1f}-"
        f"{100 * high:.1f}%), {down:.2f} cards face down {when} a game, {cpu:.2f} s CPU a game"
    )


def compare(mine: dict[int, dict[str, str]], theirs: dict[int, dict[str, str]]) -> str:
    both = sorted(set(mine) & set(theirs))
    only_mine = sum(1 for d in both if mine[d]["won"] == "1" and theirs[d]["won"] == "0")
    only_theirs = sum(1 for d in both if mine[d]["won"] == "0" and theirs[d]["won"] == "1")
    diffs = [int(mine[d]["down_left"]) - int(theirs[d]["down_left"]) for d in both]
    n = len(diffs)
    mean = sum(diffs) / max(n, 1)
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / max(n - 1, 1))
    half = 1.96 * sd / math.sqrt(max(n, 1))
    return (
        f"on the {n} deals both hold: {only_mine} won only by this one, {only_theirs} only by "
        f"the other (sign test p {sign_test(only_mine, only_theirs):.3f}); face down "
        f"{mean:+.2f} ± {half:.2f} a game"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="spider")
    parser.add_argument("--deals", help="A-B; without it, only the summary of --csv")
    parser.add_argument("--effort", default="{}", help="a JSON object of FairEffort fields")
    parser.add_argument("--csv", type=Path, required=True, help="the games, one row each")
    parser.add_argument("--against", type=Path, help="another run's CSV to compare with")
    parser.add_argument("--jobs", type=int, default=1)
    part = parser.add_mutually_exclusive_group()
    part.add_argument(
        "--opening", action="store_true", help="play each deal only to the hint's first deal"
    )
    part.add_argument(
        "--stretch",
        type=int,
        metavar="K",
        help="from the deck's own player's K-th deal, play only to the hint's next (5: the end)",
    )
    args = parser.parse_args()
    effort_of(args.effort)  # a bad effort stops here, not in a worker
    if args.stretch is not None and not 0 <= args.stretch <= LAST:
        parser.error(f"--stretch takes 0 to {LAST}: the stock holds {LAST} deals")
    stretch = 0 if args.opening else args.stretch
    stop = stop_of(stretch)
    done = read(args.csv)
    if args.deals:
        held = {r.get("stop", END) for r in done.values()} - {stop}
        if held:
            parser.error(f"{args.csv} holds {kind(held.pop())}: write {kind(stop)} to another file")
        wanted = parse_deal_range(args.deals)
        todo = [d for d in wanted if d not in done]

        def described(rows: list[dict[str, object]]) -> str:
            (row,) = rows
            return (
                f"deal {row['deal']}: won {row['won']}, {row['down_left']} face down, "
                f"{row['cpu_seconds']} s"
            )

        job = partial(one_game, args.variant, effort_text=args.effort, stretch=stretch)
        append_as_done(args.csv, COLUMNS, job, todo, args.jobs, described)
        keep = set(wanted)
        done = {d: r for d, r in read(args.csv).items() if d in keep}
    print(summary(done, str(args.csv)))
    if args.against:
        print(compare(done, read(args.against)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
