"""What differs between the free-cell games' rules (docs/rules.md §6): how a column builds,
what an empty column takes, and how long a run may move as a unit. The layouts (columns, cells,
where the deal puts cards) come with the deal.

Translation of ``rust/src/cells/variant.rs`` (its rules; the variants' data is the core's, read
through :func:`castle.solving.cells.cells_rules`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ...solving.cells import Build, cells_rules


@dataclass(frozen=True)
class Rules:
    """A variant's rules of play."""

    #: How a card goes onto a column's top card: one rank lower and of the other colour
    #: (``"alternate-colours"``), of the same suit (``"suit"``) or of any suit (``"rank"``).
    build: Build
    #: Whether an empty column takes only a king (else any card).
    kings_only: bool

    def max_run(self, free_cells: int, empty_columns: int) -> int:
        """The most cards a run may move as a unit with ``free_cells`` empty cells and
        ``empty_columns`` empty columns besides its destination: (cells + 1), doubled for each
        empty column, as PySolFC's supermove allows; where an empty column takes only a king,
        the empty columns do not count."""
        through_cells = free_cells + 1
        if self.kings_only:
            return through_cells
        return through_cells << min(empty_columns, 16)


@cache
def rules(variant: str) -> Rules:
    """The rules of free-cell ``variant`` (:class:`castle.VariantError` for another)."""
    r = cells_rules(variant)
    return Rules(r.build, r.kings_only)
