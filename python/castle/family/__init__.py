"""The game families (:class:`Family`) and their registry: what differs between the castle
games, Spider and the free-cell games is asked of the family of a variant
(:func:`family_of`) or of a deal (:func:`family_of_deal`). A new family is one module beside
these and one line in :data:`FAMILIES`."""

from __future__ import annotations

from ..errors import VariantError
from .castle import CASTLE
from .cells import CELLS
from .protocol import AnyDeal, AnyMove, AnySolution, Family
from .spider import SPIDER

#: Every family, in the order the command line lists their variants.
FAMILIES: tuple[Family, ...] = (CASTLE, SPIDER, CELLS)


def all_variants() -> tuple[str, ...]:
    """Every variant of every family, family by family."""
    return tuple(variant for family in FAMILIES for variant in family.variants)


def played_variants() -> tuple[str, ...]:
    """Every variant castle plays (:attr:`Family.plays`), family by family."""
    return tuple(v for family in FAMILIES if family.plays for v in family.variants)


def autoplayed_variants() -> tuple[str, ...]:
    """Every variant ``castle autoplay`` takes (:attr:`Family.autoplays`)."""
    return tuple(
        v for family in FAMILIES if family.plays and family.autoplays for v in family.variants
    )


def surveyed_variants() -> tuple[str, ...]:
    """Every variant ``castle survey`` takes (:attr:`Family.offers_survey`)."""
    return tuple(v for family in FAMILIES if family.offers_survey for v in family.variants)


def family_of(variant: str) -> Family:
    """The family that plays ``variant``; :class:`castle.VariantError` for one castle does not
    know."""
    for family in FAMILIES:
        if variant in family.variants:
            return family
    raise VariantError(f"unknown variant {variant!r} (known: {', '.join(all_variants())})")


def family_named(name: str) -> Family:
    """The family called ``name`` (``castle``, ``spider``, ``cells``: :attr:`Family.name`)."""
    for family in FAMILIES:
        if family.name == name:
            return family
    raise ValueError(f"no game family {name!r}")


# A family owns a deal by its class: each class's family is asked once (``castle.solve``
# asks it for every deal of a survey).
_OWNER_OF_CLASS: dict[type, Family] = {}


def family_of_deal(deal: object) -> Family | None:
    """The family ``deal`` is a deal of; None when it is no family's deal."""
    owner = _OWNER_OF_CLASS.get(type(deal))
    if owner is not None:
        return owner
    for family in FAMILIES:
        if family.owns(deal):
            _OWNER_OF_CLASS[type(deal)] = family
            return family
    return None


__all__ = [
    "CASTLE",
    "CELLS",
    "FAMILIES",
    "SPIDER",
    "AnyDeal",
    "AnyMove",
    "AnySolution",
    "Family",
    "all_variants",
    "autoplayed_variants",
    "family_named",
    "family_of",
    "family_of_deal",
    "played_variants",
    "surveyed_variants",
]
