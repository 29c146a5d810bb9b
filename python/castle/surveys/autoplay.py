"""Deals played to the end by hints alone, as a player who always takes the hint would: what
``castle autoplay`` measures.

A castle game follows :meth:`castle.Game.hint`, whose hints are the steps of one plan, so a
deal the solver wins is won by its hints. A Spider game follows the fair hint (it sees only
what a player sees; its hints are the steps of a plan up to the next card shown) or the
thoughtful solver's plan from the deal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from ..game.fair import FairEffort
from ..game.game import Game
from ..game.plan import Hint
from ..game.spider_game import SpiderGame
from ..solving.deal import Deal
from ..solving.outcome import Status
from ..solving.settings import SolveSettings
from ..solving.spider import SpiderDeal, SpiderMove, solve_spider

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
    effort: FairEffort | None = None,
    samples: int | None = None,
    max_states: int | None = None,
    max_moves: int = MAX_MOVES,
) -> AutoplayResult:
    """Play ``deal`` by the fair hint (:meth:`castle.SpiderGame.hint` with ``fair``, its
    ``seed`` and ``effort``), as a player who always takes it would, or (``fair=False``) by the
    thoughtful solver's plan from the deal itself (within ``max_states``), until it is won,
    no move is advised, or ``max_moves``. ``plans`` counts the hints that thought.
    ``samples`` and ``max_states`` given with ``fair`` set the effort's worlds and each
    world's look-ahead states (``castle autoplay``'s --samples and --max-states)."""
    game = SpiderGame(deal)
    effort = effort or FairEffort()
    if samples is not None:
        effort = replace(effort, worlds=samples)
    if fair and max_states is not None:
        effort = replace(effort, states=max_states)
    if not fair:
        states = PLAN_STATES if max_states is None else max_states
        solution = solve_spider(game.position, SolveSettings(max_states=states))
        for move in solution.moves[:max_moves]:
            play(game, move)
        return AutoplayResult(game.is_won, game.moves, 1, solution.status)
    plans = play_fair_hints(game, seed=seed, effort=effort, max_moves=max_moves)
    return AutoplayResult(game.is_won, game.moves, plans)


def play_fair_hints(
    game: SpiderGame,
    *,
    seed: int,
    effort: FairEffort | None,
    max_moves: int = MAX_MOVES,
    each: Callable[[SpiderGame, Hint[SpiderMove]], None] | None = None,
    until: Callable[[SpiderMove], bool] | None = None,
) -> int:
    """Make the fair hint's moves in ``game`` until it is won, no move is advised, it has
    ``max_moves``, or (``until``) the move advised is one to stop before; returns the hints
    that thought. ``each`` sees every hint with the game as it stands before the hint's
    move."""
    plans = 0
    while not game.is_won and game.moves < max_moves:
        hint = game.hint(fair=True, seed=seed, effort=effort)
        plans += hint.searched
        if each is not None:
            each(game, hint)
        if hint.move is None or (until is not None and until(hint.move)):
            break
        play(game, hint.move)
    return plans


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


#: Each family's player, by the family's name: it takes the family's ``autoplay_settings``.
PLAYERS: dict[str, Callable[..., AutoplayResult]] = {
    "castle": autoplay_castle,
    "spider": autoplay_spider,
}


__all__ = [
    "PLAYERS",
    "AutoplayResult",
    "autoplay_castle",
    "autoplay_spider",
    "play",
    "play_fair_hints",
]
