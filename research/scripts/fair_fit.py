"""The fair player's estimate fitted on its own games: which positions lead to wins.

    nice python benches/fair_fit.py play --variant spider --deals 1-300 --csv pos.csv [--jobs 2]
    python benches/fair_fit.py fit --csv pos.csv

``play`` plays each deal by the fair hint alone, as ``castle autoplay --fair`` does, and
writes a row for every position a hint thought in (what the estimate of
``rust/src/spider/beam.rs`` counts there, as a player sees it) with whether that game was won;
a game's rows are written when it ends, so a run stopped or killed resumes with the same
command. ``fit`` fits a logistic model of the win on those counts (Newton's method, a little
ridge) and prints the estimate's weights it implies: the model's coefficients scaled so that a
card on the table costs half a point, as in the estimate, and rounded. They are the
``weights`` of :class:`castle.FairEffort` (``benches/fair_trials.py --effort``), a setting to
try on whole games, not a result: a position's label is its game's end, which the player's
own later choices decide.
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

from castle import SpiderDeal, SpiderGame, SpiderMove
from castle.game.plan import Hint
from castle.reference.spider.estimate import Weights
from castle.reference.spider.state import SpiderState
from castle.solving.deal import parse_deal_range
from castle.surveys.autoplay import play_fair_hints

#: The counts, in the order of the estimate's weights (down, rank break, suit break, empty,
#: stock), then the half points of the cards on the table (as the estimate counts them) and
#: the columns with cards and none face down (not counted by the estimate).
FEATURES = ("down", "rank_break", "suit_break", "empty", "stock", "table", "clear")

#: No weight at all: the estimate is then the cards on the table's half points alone.
NONE = Weights(down=0, rank_break=0, suit_break=0, empty=0, stock=0)


def counts(state: SpiderState) -> dict[str, int]:
    """What a player sees of ``state``, counted as :data:`FEATURES` says: each of the
    estimate's terms is the reference's estimate with that weight 1 and the others 0, less
    the cards' half points."""
    table = NONE.estimate(state)
    out = {name: abs(replace(NONE, **{name: 1}).estimate(state) - table) for name in FEATURES[:5]}
    out["table"] = table
    out["clear"] = sum(1 for c in state.cols if c.cards and not c.down)
    return out


def one_game(variant: str, number: int) -> list[dict[str, int]]:
    """Deal ``number`` played by the fair hint: the counts at each position it thought in,
    each with the game's end."""
    game = SpiderGame(SpiderDeal.from_number(variant, number))
    rows: list[dict[str, int]] = []

    def count(at: SpiderGame, hint: Hint[SpiderMove]) -> None:
        if hint.searched:
            rows.append({"deal": number, **counts(SpiderState.from_deal(at.position))})

    play_fair_hints(game, seed=number, effort=None, each=count)
    return [{**row, "won": int(game.is_won)} for row in rows]


def play_games(args: argparse.Namespace) -> int:
    done: set[int] = set()
    if args.csv.exists():
        with args.csv.open(newline="") as f:
            done = {int(r["deal"]) for r in csv.DictReader(f)}
    todo = [d for d in args.deals if d not in done]
    new = not args.csv.exists()
    with args.csv.open("a", newline="") as f, ProcessPoolExecutor(args.jobs) as pool:
        out = csv.DictWriter(f, fieldnames=("deal", *FEATURES, "won"))
        if new:
            out.writeheader()
        games = pool.map(one_game, [args.variant] * len(todo), todo)
        for i, (number, rows) in enumerate(zip(todo, games), 1):
            out.writerows(rows)
            f.flush()
            won = rows[0]["won"] if rows else 0
            print(f"[{i}/{len(todo)}] deal {number}: won {won}, {len(rows)} positions", flush=True)
    return 0


def logistic(xs: list[list[float]], ys: list[int], ridge: float = 1e-3) -> list[float]:
    """The coefficients (intercept first) of a logistic model of ``ys`` on ``xs``."""
    n = len(xs[0]) + 1
    beta = [0.0] * n
    for _ in range(50):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        for x, y in zip(xs, ys):
            row = [1.0, *x]
            p = 1 / (1 + math.exp(-sum(b * v for b, v in zip(beta, row))))
            for i in range(n):
                grad[i] += (y - p) * row[i]
                for j in range(n):
                    hess[i][j] += p * (1 - p) * row[i] * row[j]
        for i in range(1, n):
            grad[i] -= ridge * len(xs) * beta[i]
            hess[i][i] += ridge * len(xs)
        step = solve(hess, grad)
        beta = [b + s for b, s in zip(beta, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return beta


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[c][c]:
                f = m[r][c] / m[c][c]
                m[r] = [v - f * w for v, w in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def fit(args: argparse.Namespace) -> int:
    with args.csv.open(newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        print(f"{args.csv}: no positions", file=sys.stderr)
        return 2
    xs = [[float(r[k]) for k in FEATURES] for r in rows]
    ys = [int(r["won"]) for r in rows]
    # Scaled to unit spread, so that the ridge weighs every count alike.
    means = [sum(col) / len(col) for col in zip(*xs)]
    spreads = [
        max(1e-9, math.sqrt(sum((v - m) ** 2 for v in col) / len(col)))
        for col, m in zip(zip(*xs), means)
    ]
    scaled = [[(v - m) / s for v, m, s in zip(x, means, spreads)] for x in xs]
    beta = logistic(scaled, ys)
    coef = {k: b / s for k, b, s in zip(FEATURES, beta[1:], spreads)}
    games = len({r["deal"] for r in rows})
    won = len({r["deal"] for r in rows if r["won"] == "1"})
    print(f"{len(rows)} positions of {games} games ({won} won)")
    for k in FEATURES:
        print(f"  {k:>10}: {coef[k]:+.4f} a count (log-odds of a win)")
    if coef["table"] >= 0:
        print("a card on the table does not lower the odds here: no weights implied")
        return 1
    per_point = -coef["table"]  # log-odds a point of the estimate costs
    implied = [round(-coef[k] / per_point) for k in ("down", "rank_break", "suit_break")]
    implied += [round(coef["empty"] / per_point), round(-coef["stock"] / per_point)]
    print(f"weights implied (down, rank_break, suit_break, empty, stock): {tuple(implied)}")
    print(f"a column cleared of face-down cards, in points: {coef['clear'] / per_point:+.1f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("--variant", default="spider")
    p.add_argument("--deals", type=parse_deal_range, required=True)
    p.add_argument("--csv", type=Path, required=True)
    p.add_argument("--jobs", type=int, default=1)
    f = sub.add_parser("fit")
    f.add_argument("--csv", type=Path, required=True)
    args = parser.parse_args(argv)
    return play_games(args) if args.command == "play" else fit(args)


if __name__ == "__main__":
    sys.exit(main())
