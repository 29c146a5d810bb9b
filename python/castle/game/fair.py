"""A fair Spider hint: advice from what the player can see (docs/spider.md, "The fair
player").

The face-down cards and the stock are unknown to a player, and the core's fair player
(``rust/src/spider/fair/``) reads a position only as a player sees it. It plans the moves that
show nothing new (their outcome is the same whatever lies face down), and chooses where to
look next, a card to turn up or a row to deal, by trying each choice in many worlds that agree
with what is in sight. Once nothing is hidden, its plan is the solver's win. Its advice is a
plan: the moves up to and including the one that shows something, after which it thinks
again. It never leads back to a position played since a card last turned up, so it cannot
loop; when nothing it can show leads anywhere new, it says that no move helps.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from .. import _core
from ..solving.outcome import Canceller, core_progress
from ..solving.spider import SpiderDeal, SpiderMove, public_move

#: The fair player's version: results of another are other results (``castle autoplay
#: --db`` keeps them apart).
FAIR_PLAYER = "fair-7"


@dataclass(frozen=True)
class FairEffort:
    """How hard the fair player thinks before a choice; None is the deck's default (the
    core's, ``Effort::for_deck`` in ``rust/src/spider/fair/advise.rs``, which also checks each
    value: ValueError where the effort is made). With one suit the player's ``worlds`` vote:
    in each, a beam of ``width`` within ``states`` plays the whole game, and its win votes
    for the card it turns up first (0 worlds: the best-looking choice is taken); with two and
    four suits its first ``reveal`` choices are judged by the card each turns up.
    ``quiet``: the positions the search of moves that show nothing may reach; ``exact``: the
    solver's positions once nothing is hidden; ``threads``: worlds or cards judged at once
    (default: up to 2, the cores there are)."""

    worlds: int | None = None
    width: int | None = None
    states: int | None = None
    quiet: int | None = None
    #: The positions the quiet search goes on from at each depth, the nearest-looking (0:
    #: all, breadth first).
    layer: int | None = None
    exact: int | None = None
    threads: int | None = None
    #: What the fair player ranks positions by: (each face-down card, each break of rank,
    #: each change of suit, each empty column taken off, each card in the stock).
    weights: tuple[int, int, int, int, int] | None = None
    #: Whether the worlds vote (the one-suit player's way of choosing).
    vote: bool | None = None
    #: The first ``reveal`` choices that turn a card up are judged instead by that card: for
    #: each card the player has not seen, weighted by its copies, a small quiet search of
    #: ``reveal_quiet`` positions (``reveal_layer`` a depth, 0: all) from the card turned up,
    #: and the best it reaches; the best mean is played (0: not judged so).
    reveal: int | None = None
    reveal_quiet: int | None = None
    reveal_layer: int | None = None
    #: Taken off the worth of each card placed for each column the search after it can turn
    #: up (the ways on it leaves open); below 1,000 (0: not counted).
    reveal_options: int | None = None
    #: When no search of the moves that show nothing finds a way on: the worlds the solver
    #: plays, a win's moves up to the first card it shows being the plan (0: none; then no
    #: move helps).
    rescue: int | None = None

    def __post_init__(self) -> None:
        _core.spider_fair_effort_check(self._settings())

    def _settings(self) -> dict[str, object]:
        """The settings given (not None), by name: the one mapping the core reads."""
        return {name: value for name, value in asdict(self).items() if value is not None}


@dataclass(frozen=True)
class FairAdvice:
    """The fair player's plan from a position: quiet moves and the one that shows something
    (or, ``exact``, the solver's win once nothing is hidden). No moves: no move helps
    (``proved``: the solver proved there is no win). ``won`` of ``worlds`` worlds voted for
    the chosen move (one suit), or were won by way of it by the solver (when no search of the
    moves that show nothing found a way on)."""

    moves: tuple[SpiderMove, ...]
    exact: bool = False
    won: int = 0
    worlds: int = 0
    proved: bool = False

    @property
    def move(self) -> SpiderMove | None:
        return self.moves[0] if self.moves else None


def fair_advice(
    position: SpiderDeal,
    *,
    visited: Sequence[SpiderDeal] = (),
    seed: int = 0,
    effort: FairEffort | None = None,
    cancel: Canceller | None = None,
) -> FairAdvice:
    """The fair player's advice for ``position``, never leading back into a position of
    ``visited`` (the positions played since a card last turned up). The same view of a
    position and the same ``seed`` give the same advice. ``cancel`` set stops its solver
    searches within about 50 ms: :class:`castle.solving.outcome.Cancelled` is raised."""
    hook, every = core_progress(None, cancel)
    core_moves, exact, won, worlds, proved = _core.spider_fair_advice(
        position.core,
        [p.core for p in visited],
        seed,
        (effort or FairEffort())._settings(),
        progress=hook,
        progress_seconds=every,
    )
    return FairAdvice(_public_plan(position, core_moves), exact, won, worlds, proved)


def fair_exits(
    position: SpiderDeal,
    *,
    visited: Sequence[SpiderDeal] = (),
    effort: FairEffort | None = None,
    most: int = 4,
) -> list[tuple[SpiderMove, ...]]:
    """The choices the fair player weighs from ``position``, best-looking first, at most
    ``most``: each a plan of moves that show nothing, then the one that turns a card up or
    deals (never leading into a position of ``visited``). Empty when no way on is left or the
    quiet moves alone win. Of ``effort`` only the quiet search's fields bear on them."""
    plans = _core.spider_fair_exits(
        position.core, [p.core for p in visited], most, (effort or FairEffort())._settings()
    )
    return [_public_plan(position, plan) for plan in plans]


def _public_plan(
    position: SpiderDeal, core_moves: Sequence[tuple[str, int, int, int]]
) -> tuple[SpiderMove, ...]:
    """The core's moves from ``position`` as the public moves they are."""
    moves = []
    at = position
    for kind, src, dst, count in core_moves:
        moves.append(public_move(at, kind, src, dst, count))
        at = SpiderDeal(at.core.play(kind, src, dst, count))
    return tuple(moves)


def dealt_anew(position: SpiderDeal, rng: random.Random) -> SpiderDeal:
    """``position`` with its face-down cards and its stock dealt anew by ``rng``: a world a
    player cannot tell from it (the same cards in sight, the same number hidden in each
    place), made as the fair player's worlds are."""
    core = position.core
    hidden = [i for down, _ in core.columns for i in down] + list(core.stock)
    rng.shuffle(hidden)
    return SpiderDeal(core.with_hidden(hidden))


__all__ = ["FAIR_PLAYER", "FairAdvice", "FairEffort", "dealt_anew", "fair_advice", "fair_exits"]
