"""Spider (docs/rules.md §4): deals, board text, moves and the solver's answer.

Three decks share the rules: ``spider`` (4 suits), ``spider-2`` (spades and hearts) and
``spider-1`` (spades). Deal N is documented in ``rust/src/spider/deal.rs``; the board text
adds face-down cards (before ``|`` on a column's line) and the stock (see
docs/guide/spider.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, cast

from .. import _core
from ..cards import CARDS, SUITS, Card
from ..errors import VariantError
from .deal import DealOf
from .outcome import (
    Cancelled,
    Status,
    core_progress,
    solution_json,
)
from .settings import SolveSettings

#: Spider variant ids, in the core's order.
SPIDER_VARIANTS: tuple[str, ...] = tuple(_core.spider_variants())
#: The table's columns (a deal from the stock puts a card on each), the cards of a complete
#: run, and the runs that win the game: the core's numbers.
COLUMNS: int = _core.SPIDER_COLUMNS
RUN: int = _core.SPIDER_RUN
RUNS: int = _core.SPIDER_RUNS


def check_spider_variant(variant: str) -> str:
    if variant not in SPIDER_VARIANTS:
        known = ", ".join(SPIDER_VARIANTS)
        raise VariantError(f"unknown Spider variant {variant!r} (known: {known})")
    return variant


class SpiderColumn(NamedTuple):
    """A column: its face-down cards and its face-up cards, each bottom first."""

    down: list[Card]
    up: list[Card]


class SpiderDeal(DealOf[_core.SpiderDeal]):
    """A Spider position: ten columns, the stock, the runs already taken off. Board text
    without a variant: the suits present say which."""

    __slots__ = ()

    _CORE = _core.SpiderDeal
    _FAMILY = "spider"
    _DEFAULT_VARIANT = "spider"

    @staticmethod
    def _check_variant(variant: str) -> str:
        return check_spider_variant(variant)

    @property
    def columns(self) -> list[SpiderColumn]:
        return [
            SpiderColumn([CARDS[i] for i in down], [CARDS[i] for i in up])
            for down, up in self._deal.columns
        ]

    @property
    def stock(self) -> list[Card]:
        """The stock in dealing order: the first ten cards are the next deal."""
        return [CARDS[i] for i in self._deal.stock]

    @property
    def off(self) -> list[str]:
        """The suits of the runs taken off."""
        return [SUITS[s] for s in self._deal.off]


MoveKind = Literal["run", "deal", "off"]


@dataclass(frozen=True)
class SpiderMove:
    """A run of ``cards`` from column ``src`` onto column ``dst``, a deal from the stock, or
    the run on top of column ``src`` taken off."""

    kind: MoveKind
    cards: tuple[Card, ...]
    src: int | None = None
    dst: int | None = None

    def to_json(self) -> dict[str, Any]:
        if self.kind == "deal":
            return {"deal": True}
        if self.kind == "off":
            return {"off": self.src}
        return {"cards": [str(c) for c in self.cards], "from": self.src, "to": self.dst}

    def __str__(self) -> str:
        if self.kind == "deal":
            return "deal ten cards from the stock"
        assert self.src is not None
        if self.kind == "off":
            return f"take the {self.cards[0]}-{self.cards[-1]} run off column {self.src + 1}"
        assert self.dst is not None
        run = " ".join(map(str, self.cards))
        return f"{run} from column {self.src + 1} to column {self.dst + 1}"


def public_move(position: SpiderDeal, kind: str, src: int, dst: int, count: int) -> SpiderMove:
    """The core's move (kind, from, to, count) in ``position`` as a :class:`SpiderMove`, with
    the cards it carries."""
    if kind == "deal":
        return SpiderMove("deal", tuple(position.stock[:COLUMNS]))
    if kind == "off":
        return SpiderMove("off", tuple(position.columns[src].up[-RUN:]), src)
    return SpiderMove("run", tuple(position.columns[src].up[-count:]), src, dst)


@dataclass(frozen=True)
class SpiderSolution:
    """What the Spider solver found; as :class:`castle.Solution`, with Spider moves."""

    status: Status
    moves: tuple[SpiderMove, ...]
    states: int
    seconds: float
    limit: str | None = None

    def to_json(self, deal: SpiderDeal | None = None) -> dict[str, Any]:
        return solution_json(self, [m.to_json() for m in self.moves], deal)


#: The widest beam ``solve_spider`` takes (a layer of a million positions is about 1 GB).
MAX_BEAM_WIDTH: int = _core.MAX_BEAM_WIDTH


def check_beam_width(width: object) -> None:
    """Raise ``ValueError`` unless ``width`` is None or a whole number 1 to MAX_BEAM_WIDTH."""
    if width is None:
        return
    if isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= MAX_BEAM_WIDTH:
        raise ValueError(f"beam_width must be 1 to {MAX_BEAM_WIDTH:,}, not {width!r}")


def solve_spider(
    deal: SpiderDeal, settings: SolveSettings, *, beam_width: int | None = None
) -> SpiderSolution:
    """Decide a Spider deal: beam searches, then a complete depth-first search that sees the
    face-down cards and the stock ("unsolvable" is a proof). ``castle.solve`` calls this.

    ``beam_width`` replaces the portfolio of beams by one beam of that width (1 to
    :data:`MAX_BEAM_WIDTH`): a quicker, weaker search, as the fair hint's samples use.
    ``max_memory`` bounds all the search holds, the beams' layers included (a layer of a
    million positions is about 1 GB), ``progress`` is called about once a second and
    ``cancel`` stops the search, as in ``castle.solve``."""
    check_beam_width(beam_width)
    hook, every = core_progress(settings.progress, settings.cancel)
    try:
        status, moves, states, seconds, limit = _core.solve_spider(
            deal.core,
            settings.max_states,
            settings.core_seconds,
            settings.max_memory,
            beam_width,
            progress=hook,
            progress_seconds=every,
            max_cpu_seconds=settings.core_cpu_seconds,
        )
    except Cancelled:
        return SpiderSolution("unknown", (), 0, 0.0, limit="cancelled")
    return SpiderSolution(
        status=cast(Status, status),
        moves=tuple(
            SpiderMove(
                cast(MoveKind, kind),
                tuple(CARDS[i] for i in cards),
                None if src < 0 else src,
                None if dst < 0 else dst,
            )
            for kind, src, dst, cards in moves
        ),
        states=states,
        seconds=seconds,
        limit=limit,
    )


__all__ = [
    "COLUMNS",
    "RUN",
    "RUNS",
    "SPIDER_VARIANTS",
    "SpiderColumn",
    "SpiderDeal",
    "SpiderMove",
    "SpiderSolution",
    "check_beam_width",
    "check_spider_variant",
    "public_move",
    "solve_spider",
]
