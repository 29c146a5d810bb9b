"""The variants castle knows, by id. The rules and layouts live in the core (``rust/src``)."""

from __future__ import annotations

from . import _core
from .errors import VariantError

#: Variant ids, in the core's order; the first is the default.
VARIANTS: tuple[str, ...] = tuple(_core.variants())
DEFAULT_VARIANT = "beleaguered-castle"

#: What people call each game, castle's, Spider's decks and the free-cell games alike: one
#: name per game everywhere (the levels, the player, the command line).
NAMES = {
    "beleaguered-castle": "Beleaguered Castle",
    "streets-and-alleys": "Streets and Alleys",
    "citadel": "Citadel",
    "spider": "Spider (4 suits)",
    "spider-2": "Spider (2 suits)",
    "spider-1": "Spider (1 suit)",
    "freecell": "FreeCell",
    "bakers-game": "Baker's Game",
    "eight-off": "Eight Off",
    "seahaven-towers": "Seahaven Towers",
    "siegecraft": "Siegecraft",
    "stronghold": "Stronghold",
    "private-lane": "Private Lane",
}


def check_variant(variant: str) -> str:
    """Return ``variant`` if castle knows it, else raise :class:`VariantError`."""
    if variant not in VARIANTS:
        raise VariantError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    return variant
