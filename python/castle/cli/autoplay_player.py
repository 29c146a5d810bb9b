"""The player of ``castle autoplay``: its settings, read from the command line once, and a deal
played by them. It is the batch's :class:`castle.cli.engine.Work`, sent to the worker
processes (or Dask workers) that play the deals.

:meth:`Autoplayer.play` is the one place that calls :mod:`castle.surveys.autoplay`. A new setting of
the player is a field here (with its flag in :mod:`castle.cli.autoplay`, read in
:meth:`Autoplayer.from_args`, and its keyword in :meth:`Autoplayer.play`); the settings a
result is stored under are the fields (:meth:`Autoplayer.settings`), so it is part of them
with no more change.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any, NamedTuple

from ..family import SPIDER, family_of
from ..game.fair import FAIR_PLAYER
from ..surveys.autoplay import PLAYERS, AutoplayResult
from .errors import UsageError

#: What each setting that not every family's player takes says when it is given to another
#: (the flag's words, given the variant).
REFUSED: dict[str, Callable[[str], str]] = {
    "fair": lambda variant: (
        f"--fair is for Spider (--variant {', '.join(SPIDER.variants)}): {variant} is "
        "a castle game, where every card is in sight"
    ),
    "max_seconds": lambda variant: (
        "--max-seconds is for the castle games: Spider plans by --max-states"
    ),
}


class PlayedDeal(NamedTuple):
    """A deal played, as a worker reports it."""

    position: int
    number: int
    #: Wall-clock seconds the play took.
    seconds: float
    result: AutoplayResult


@dataclass(frozen=True)
class Autoplayer:
    """How ``castle autoplay`` plays each deal of a batch (the flags of the same names)."""

    variant: str
    fair: bool = False
    samples: int | None = None
    seed: int = 0
    max_states: int | None = None
    max_seconds: float | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace, variant: str) -> Autoplayer:
        """The player the flags ask for, on ``variant``; flags of the other game's player
        are refused (a UsageError)."""
        takes = family_of(variant).autoplay_settings
        given = {"fair": args.fair, "max_seconds": args.max_seconds is not None}
        for name, refusal in REFUSED.items():
            if given[name] and name not in takes:
                raise UsageError(refusal(variant))
        return cls(
            variant,
            fair=args.fair,
            samples=args.samples,
            seed=args.seed,
            max_states=args.max_states,
            max_seconds=args.max_seconds,
        )

    def settings(self) -> dict[str, Any]:
        """The settings that change how this variant's deals are played: every field but the
        variant, less those of the other game's player. Results are stored under them."""
        takes = family_of(self.variant).autoplay_settings
        settings = {f.name: getattr(self, f.name) for f in fields(self) if f.name in takes}
        if settings.get("fair"):
            settings["player"] = FAIR_PLAYER  # a new fair player's games are other games
        return settings

    def play(self, number: int) -> AutoplayResult:
        """Deal ``number`` played to the end by this player."""
        family = family_of(self.variant)
        settings = {name: getattr(self, name) for name in family.autoplay_settings}
        if "seed" in settings:
            settings["seed"] += number  # each deal its own seed, the same every run
        return PLAYERS[family.name](family.deal(self.variant, number), **settings)

    def run_chunk(self, start: int, numbers: Sequence[int]) -> list[PlayedDeal]:
        """Play deals ``numbers`` (positions ``start``... of the batch); runs in a worker."""
        played = []
        for offset, number in enumerate(numbers):
            started = time.perf_counter()
            result = self.play(number)
            played.append(PlayedDeal(start + offset, number, time.perf_counter() - started, result))
        return played


def result_fields(result: AutoplayResult) -> dict[str, Any]:
    """Every field of ``result``, by name (those that are None left out)."""
    return {k: v for k, v in asdict(result).items() if v is not None}


__all__ = ["Autoplayer", "PlayedDeal", "result_fields"]
