"""The player's levels (docs/rules.md §3) and how each picks a deal.

Easy is Beleaguered Castle restricted to deals the solver has proven winnable; Medium is any
Beleaguered Castle deal; Hard is Streets and Alleys. Citadel is playable as a level of its own.
FreeCell is any of Microsoft's deals, Easy FreeCell only those the solver wins; each other
free-cell game is a level of its own.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..errors import CastleError
from ..family import SPIDER, AnyDeal, Family, family_of
from ..solving.deal import RANDOM_DEAL_MAX
from ..solving.known import known_verdict, shipped_table
from ..solving.solve import solve
from ..variants import NAMES


class LevelError(CastleError, ValueError):
    """An unknown level name."""


@dataclass(frozen=True)
class Level:
    id: str
    name: str
    variant: str
    #: Only deals the solver has proven winnable.
    winnable_only: bool
    blurb: str


LEVELS: dict[str, Level] = {
    level.id: level
    for level in (
        Level("easy", "Easy", "beleaguered-castle", True, "Beleaguered Castle, always winnable"),
        Level("medium", "Medium", "beleaguered-castle", False, "Any Beleaguered Castle deal"),
        Level("hard", "Hard", "streets-and-alleys", False, "Streets and Alleys: aces dealt too"),
        Level("citadel", "Citadel", "citadel", False, "Citadel: cards go up as they are dealt"),
        Level("spider-1", NAMES["spider-1"], "spider-1", False, "Two decks, all spades"),
        Level("spider-2", NAMES["spider-2"], "spider-2", False, "Spades and hearts"),
        Level("spider", NAMES["spider"], "spider", False, "The classic, two full decks"),
        Level("freecell", "FreeCell", "freecell", False, "Any deal, Microsoft's numbers"),
        Level("freecell-easy", "Easy FreeCell", "freecell", True, "FreeCell, always winnable"),
        Level("bakers-game", NAMES["bakers-game"], "bakers-game", False, "FreeCell built in suit"),
        Level("eight-off", NAMES["eight-off"], "eight-off", False, "Eight cells, built in suit"),
        Level(
            "seahaven-towers",
            NAMES["seahaven-towers"],
            "seahaven-towers",
            False,
            "Ten columns, built in suit",
        ),
        Level("siegecraft", NAMES["siegecraft"], "siegecraft", False, "Beleaguered Castle, a cell"),
        Level("stronghold", NAMES["stronghold"], "stronghold", False, "Streets and Alleys, a cell"),
        Level("private-lane", NAMES["private-lane"], "private-lane", False, "Two cells, any suit"),
    )
}
DEFAULT_LEVEL = "easy"

#: The solver's budget for one Easy candidate: most winnable deals are won in far fewer states,
#: and a candidate it cannot settle quickly is simply skipped.
EASY_CANDIDATE_STATES = 200_000
#: Candidates Easy tries before giving up (two in three deals are winnable).
EASY_CANDIDATES = 200


def level(level_id: str) -> Level:
    """The level named ``level_id`` (``easy``, ``medium``, ``hard``, ``citadel``, ``spider``,
    ``spider-2``, ``spider-1``, ``freecell``, ``freecell-easy``, and each other free-cell
    game's id)."""
    try:
        return LEVELS[level_id]
    except KeyError:
        known = ", ".join(LEVELS)
        raise LevelError(f"unknown level {level_id!r} (known: {known})") from None


def level_for_variant(variant: str) -> Level:
    """The level that plays ``variant`` with any deal."""
    for candidate in LEVELS.values():
        if candidate.variant == variant and not candidate.winnable_only:
            return candidate
    raise LevelError(f"no level plays {variant!r}")


def level_family(level_id: str) -> Family:
    """The family of games the level plays (:mod:`castle.family`)."""
    return family_of(level(level_id).variant)


def is_spider(level_id: str) -> bool:
    """Whether the level plays Spider (kept for callers; castle itself asks
    :func:`level_family`)."""
    return level_family(level_id) is SPIDER


def pick_deal(level_id: str, rng: random.Random | None = None) -> AnyDeal:
    """A numbered deal for the level, drawn with ``rng``; for Easy, a deal the shipped verdict
    table (:mod:`castle.solving.known`) has as won, with no search; without one, the first candidate
    the solver wins within :data:`EASY_CANDIDATE_STATES` states."""
    chosen = level(level_id)
    family = family_of(chosen.variant)
    rng = rng or random.Random()
    table = shipped_table(chosen.variant) if chosen.winnable_only else None
    highest = RANDOM_DEAL_MAX if table is None else table.deals
    highest = min(highest, family.last_deal(chosen.variant))
    for _ in range(EASY_CANDIDATES if chosen.winnable_only else 1):
        deal = family.deal(chosen.variant, rng.randint(1, highest))
        if not chosen.winnable_only:
            return deal
        if is_proven_winnable(deal):
            return deal
    raise CastleError(f"no winnable deal found in {EASY_CANDIDATES} candidates")


def numbered_deal(level_id: str, number: int) -> AnyDeal:
    """Deal ``number`` of the level's game; Easy and Easy FreeCell refuse one the solver does
    not win quickly (:class:`LevelError`)."""
    chosen = level(level_id)
    deal = family_of(chosen.variant).deal(chosen.variant, number)
    if chosen.winnable_only and not is_proven_winnable(deal):
        raise LevelError(
            f"deal {number} is not one the solver wins quickly: {chosen.name} plays only those "
            f"(try --level {level_for_variant(chosen.variant).id})"
        )
    return deal


def is_proven_winnable(deal: AnyDeal) -> bool:
    """Whether ``deal`` is won: as the shipped verdict table has it, else whether the solver
    wins it within an Easy candidate's budget."""
    if deal.number is not None:
        known = known_verdict(deal.variant, deal.number)
        if known is not None:
            return known == "solved"
    return solve(deal, max_states=EASY_CANDIDATE_STATES).status == "solved"


__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "AnyDeal",
    "Level",
    "LevelError",
    "is_proven_winnable",
    "is_spider",
    "level",
    "level_family",
    "level_for_variant",
    "numbered_deal",
    "pick_deal",
]
