"""benches/fair_fit.py: what it counts in a position, and its logistic fit."""

from __future__ import annotations

import math
import random

from castle import Card
from castle.spider import SpiderColumn
from paths import load_bench

bench = load_bench("fair_fit")


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def test_the_counts_are_the_estimates_terms() -> None:
    columns = [
        SpiderColumn(cards("AS 2S"), cards("9H 8H 7S 5D")),  # a change of suit, a break of rank
        SpiderColumn([], []),  # empty
        SpiderColumn([], cards("KC QC")),  # clear: no card face down
        SpiderColumn(cards("3D"), cards("JS")),
    ]
    assert bench.counts(columns, 30) == {
        "down": 3,
        "rank_break": 1,
        "suit_break": 1,
        "empty": 1,
        "stock": 30,
        "table": 10,
        "clear": 1,
    }


def test_the_fit_finds_the_odds_it_was_drawn_from() -> None:
    rng = random.Random(5)
    xs, ys = [], []
    for _ in range(4_000):
        a, b = rng.uniform(-2, 2), rng.uniform(-2, 2)
        xs.append([a, b])
        ys.append(int(rng.random() < 1 / (1 + math.exp(-(0.5 + 1.5 * a - 1.0 * b)))))
    intercept, ca, cb = bench.logistic(xs, ys, ridge=0.0)
    assert abs(intercept - 0.5) < 0.2 and abs(ca - 1.5) < 0.2 and abs(cb + 1.0) < 0.2
