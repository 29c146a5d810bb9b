"""A fair Spider hint: advice from what the player can see.

The face-down cards and the stock are unknown to a player. The fair hint deals them at random
(the cards not in sight, in random places), solves a few such completions with the thoughtful
solver, and advises the first move the most of them start with. Such a move is legal in the
real game: a move's legality only reads face-up cards and whether the stock and the columns
are empty. (:mod:`castle.autoplay` plays deals to the end with it.)
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from .cards import Card
from .spider import SpiderDeal, SpiderMove, solve_spider

#: Completions solved for one hint.
SAMPLES = 3

#: The beam each completion is solved with (one beam, not the solver's portfolio: a hint
#: solves many completions). Alone, a beam of 100 won all one-suit deals 1-30 in about 15,000
#: positions each, but 13 of 30 two-suit deals; one of 1,000 wins most deals of every deck.
SAMPLE_WIDTH = {"spider-1": 100, "spider-2": 1_000, "spider": 1_000}


def sample_states(variant: str) -> int:
    """The states a completion is solved within by default: room for its beam's 300 layers
    (a beam's win takes 150-250)."""
    return 300 * SAMPLE_WIDTH[variant]


def unseen_cards(position: SpiderDeal) -> list[Card]:
    """The cards a player cannot see: the whole deck less the face-up cards and the runs off."""
    deck: Counter[Card] = Counter()
    full = SpiderDeal.from_number(position.variant, 1)  # any deal holds the whole deck
    for column in full.columns:
        deck.update(column.down + column.up)
    deck.update(full.stock)
    for column in position.columns:
        deck.subtract(column.up)
    for suit in position.off:
        deck.subtract(Card(rank, suit) for rank in range(1, 14))
    return sorted(deck.elements())


def completion(
    position: SpiderDeal, rng: random.Random, unseen: list[Card] | None = None
) -> SpiderDeal:
    """The position with its face-down cards and its stock dealt at random from the unseen
    cards (``unseen``, when the caller has counted them already): one world the player cannot
    tell from the real one."""
    hidden = list(unseen) if unseen is not None else unseen_cards(position)
    rng.shuffle(hidden)
    lines = ["Stock: " + " ".join(str(c) for c in hidden[: len(position.stock)])]
    hidden = hidden[len(position.stock) :]
    if position.off:
        lines.append("Off: " + " ".join(position.off))
    for column in position.columns:
        down, hidden = hidden[: len(column.down)], hidden[len(column.down) :]
        up = " ".join(map(str, column.up))
        lines.append(f"{' '.join(map(str, down))} | {up}" if down else (up or ":"))
    return SpiderDeal.from_text("\n".join(lines) + "\n", position.variant)


@dataclass(frozen=True)
class FairAdvice:
    """The move most completions start their win with (None if none was won), and the plan
    of the first completion that starts so."""

    move: SpiderMove | None
    plan: tuple[SpiderMove, ...]
    won: int
    samples: int


def fair_advice(
    position: SpiderDeal,
    rng: random.Random,
    samples: int = SAMPLES,
    max_states: int | None = None,
) -> FairAdvice:
    """Advice for ``position`` from ``samples`` random completions of its unseen cards, each
    solved by a beam of :data:`SAMPLE_WIDTH` within ``max_states`` (default:
    :func:`sample_states`)."""
    width = SAMPLE_WIDTH[position.variant]
    states = sample_states(position.variant) if max_states is None else max_states
    plans = []
    unseen = unseen_cards(position)
    for _ in range(samples):
        world = completion(position, rng, unseen)
        solution = solve_spider(world, max_states=states, beam_width=width)
        if solution.status == "solved" and solution.moves:
            plans.append(solution.moves)
    if not plans:
        return FairAdvice(None, (), 0, samples)
    votes = Counter(plan[0] for plan in plans)
    best = max(votes, key=lambda m: votes[m])  # the first of the most voted
    plan = next(p for p in plans if p[0] == best)
    return FairAdvice(best, plan, len(plans), samples)


__all__ = ["SAMPLES", "FairAdvice", "completion", "fair_advice", "unseen_cards"]
