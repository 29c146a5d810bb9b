"""Deals played to the end by hints alone, as a player who always takes the hint would: what
``castle autoplay`` measures.

A castle game follows :meth:`castle.Game.hint`, whose hints are the steps of one plan, so a
deal the solver wins is won by its hints. A Spider game follows the fair hint (it sees only
what a player sees, and plans again whenever a card turns up or the stock is dealt: only then
is there anything new to see) or the thoughtful solver's plan from the deal.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .deal import Deal
from .fair import SAMPLES, fair_advice
from .game import Game
from .outcome import Status
from .spider import SpiderDeal, SpiderMove, solve_spider
from .spider_game import SpiderGame

#: The states the thoughtful Spider player (``fair=False``) plans within: the solver's
#: portfolio.
PLAN_STATES = 3_000_000
#: Moves after which a game is given up (a castle win takes a few hundred at most).
MAX_MOVES = 2_000


@dataclass(frozen=True)
class AutoplayResult:
    """How a deal went: won or not, the moves made, and the searches the hints needed.
    ``status`` is the first search's verdict on the deal (castle games: the solver's, under
    the same limits)."""

    won: bool
    moves: int
    plans: int
    status: Status | None = None


def autoplay_castle(
    deal: Deal,
    *,
    max_seconds: float | None = None,
    max_states: int | None = None,
    max_moves: int = MAX_MOVES,
) -> AutoplayResult:
    """Play ``deal`` by :meth:`castle.Game.hint` alone, each search within the limits, until
    it is won, a hint has no move, or ``max_moves``."""
    game = Game(deal)
    plans = 0
    status: Status | None = None
    while not game.is_won and game.moves < max_moves:
        hint = game.hint(max_seconds=max_seconds, max_states=max_states)
        plans += hint.searched
        status = status or hint.status
        if hint.move is None:
            break
        game.move(hint.move.src, hint.move.dst)
    return AutoplayResult(game.is_won, game.moves, plans, status or "solved")


def autoplay_spider(
    deal: SpiderDeal,
    *,
    fair: bool = True,
    seed: int = 0,
    samples: int = SAMPLES,
    max_states: int | None = None,
    max_moves: int = MAX_MOVES,
) -> AutoplayResult:
    """Play ``deal`` with the fair advice (or, ``fair=False``, with the thoughtful solver's
    plan from the deal itself) until it is won, no advice is left, or ``max_moves``."""
    rng = random.Random(seed)
    game = SpiderGame(deal)
    plan: list[SpiderMove] = []
    plans = 0
    while not game.is_won and game.moves < max_moves:
        if not plan:
            plans += 1
            if fair:
                plan = list(fair_advice(game.position, rng, samples, max_states).plan)
            else:
                states = PLAN_STATES if max_states is None else max_states * samples
                plan = list(solve_spider(game.position, max_states=states).moves)
            if not plan:
                break
        move = plan.pop(0)
        turned_before = sum(len(c.down) for c in game.columns)
        try:
            play(game, move)
        except ValueError:
            plan = []  # the plan met what it could not see: plan again
            continue
        if move.kind == "deal" or sum(len(c.down) for c in game.columns) != turned_before:
            plan = []  # something new is in sight
    return AutoplayResult(game.is_won, game.moves, plans)


def play(game: SpiderGame, move: SpiderMove) -> None:
    """Make ``move`` in a :class:`castle.SpiderGame`."""
    if move.kind == "deal":
        game.deal_row()
    elif move.kind == "off":
        assert move.src is not None
        game.take_off(move.src)
    else:
        assert move.src is not None and move.dst is not None
        game.move(move.src, move.dst, len(move.cards))


__all__ = ["AutoplayResult", "autoplay_castle", "autoplay_spider", "play"]
