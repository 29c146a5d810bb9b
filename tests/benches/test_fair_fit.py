"""benches/fair_fit.py: what it counts in a position, and its logistic fit."""

from __future__ import annotations

import math
import random

from castle import Card
from castle.reference.spider.estimate import WEIGHTS
from castle.reference.spider.state import Col, SpiderState
from paths import load_bench

bench = load_bench("fair_fit")


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def test_the_counts_are_the_estimates_terms() -> None:
    columns = [
        Col(cards("AS 2S 9H 8H 7S 5D"), 2),  # a change of suit, a break of rank
        Col([], 0),  # empty
        Col(cards("KC QC"), 0),  # clear: no card face down
        Col(cards("3D JS"), 1),
    ]
    state = SpiderState(columns, cards("4C " * 30), 0, [])
    assert bench.counts(state) == {
        "down": 3,
        "rank_break": 1,
        "suit_break": 1,
        "empty": 1,
        "stock": 30,
        "table": 3 + 1 + 1,  # each column's cards' half points
        "clear": 1,
    }
    # The estimate is those counts weighted.
    weights = WEIGHTS
    counted = bench.counts(state)
    assert weights.estimate(state) == (
        weights.down * counted["down"]
        + weights.rank_break * counted["rank_break"]
        + weights.suit_break * counted["suit_break"]
        - weights.empty * counted["empty"]
        + weights.stock * counted["stock"]
        + counted["table"]
    )


def test_the_fit_finds_the_odds_it_was_drawn_from() -> None:
    rng = random.Random(5)
    xs, ys = [], []
    for _ in range(4_000):
        a, b = rng.uniform(-2, 2), rng.uniform(-2, 2)
        xs.append([a, b])
        ys.append(int(rng.random() < 1 / (1 + math.exp(-(0.5 + 1.5 * a - 1.0 * b)))))
    intercept, ca, cb = bench.logistic(xs, ys, ridge=0.0)
    assert abs(intercept - 0.5) < 0.2 and abs(ca - 1.5) < 0.2 and abs(cb + 1.0) < 0.2
