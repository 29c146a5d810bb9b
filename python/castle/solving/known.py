"""The verdicts castle has proved for every deal of a numbered range, shipped in the package:
``known_verdict(variant, deal)`` answers at once, with no search.

Each table (``castle/solving/verdicts/VARIANT.bin``) is one line of JSON, then one bit a deal: deal
``n`` of ``1..deals`` is bit ``(n - 1) % 8`` of byte ``(n - 1) // 8``, 1 for "solved", 0 for
"unsolvable". The JSON names the ``variant``, the ``deals`` and how many were ``solved`` (a check on
the bits), and lists the deals left ``unknown`` (none in a finished table: a bit of theirs means
nothing). Every "solved" was replayed by the core and every "unsolvable" is a complete search's
(docs/winnability.md says how each table was made, and how it was checked).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import Literal

from ..errors import CastleError
from ..family import all_variants
from ..variants import check_variant

Verdict = Literal["solved", "unsolvable"]

#: The first line of every table.
MAGIC = "castle-verdicts 1"


class VerdictTableError(CastleError):
    """A verdict table that is not one (damaged, or of another version)."""


@dataclass(frozen=True)
class VerdictTable:
    """One variant's verdicts for deals ``1..deals``: ``bits`` as the module says, the deals
    left ``unknown``."""

    variant: str
    deals: int
    bits: bytes
    unknown: frozenset[int]

    def verdict(self, deal: int) -> Verdict | None:
        """Deal ``deal``'s verdict; None past the table, or for a deal it leaves unknown."""
        if not 1 <= deal <= self.deals or deal in self.unknown:
            return None
        return "solved" if self._bit(deal) else "unsolvable"

    def solved_deals(self) -> int:
        """How many of the table's deals are won (the unknown ones' bits left out)."""
        ones = bin(int.from_bytes(self.bits, "little")).count("1")
        return ones - sum(self._bit(deal) for deal in self.unknown if 1 <= deal <= self.deals)

    def _bit(self, deal: int) -> int:
        return self.bits[(deal - 1) // 8] >> ((deal - 1) % 8) & 1

    def to_bytes(self) -> bytes:
        header = {
            "variant": self.variant,
            "deals": self.deals,
            "solved": self.solved_deals(),
            "unknown": sorted(self.unknown),
        }
        return f"{MAGIC}\n{json.dumps(header)}\n".encode() + self.bits

    @classmethod
    def from_bytes(cls, data: bytes) -> VerdictTable:
        """The table in ``data``; :class:`VerdictTableError` for anything else."""
        magic, _, rest = data.partition(b"\n")
        line, _, bits = rest.partition(b"\n")
        if magic.decode("ascii", "replace") != MAGIC:
            raise VerdictTableError("not a castle verdict table (or of another version)")
        try:
            header = json.loads(line)
            table = cls(
                str(header["variant"]),
                int(header["deals"]),
                bits,
                frozenset(int(d) for d in header["unknown"]),
            )
            solved = int(header["solved"])
        except (ValueError, KeyError, TypeError) as e:
            raise VerdictTableError(f"a verdict table's header is damaged: {e}") from None
        if len(bits) != (table.deals + 7) // 8 or table.solved_deals() != solved:
            raise VerdictTableError(f"the {table.variant} verdict table's bits are damaged")
        return table


@functools.cache
def shipped_table(variant: str) -> VerdictTable | None:
    """The table the package ships for ``variant`` (None: none)."""
    resource = resources.files("castle.solving").joinpath("verdicts", f"{variant}.bin")
    try:
        data = resource.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        return None
    return VerdictTable.from_bytes(data)


def known_verdict(variant: str, deal: int) -> Verdict | None:
    """Deal ``deal`` of ``variant`` (a castle variant's id, as :class:`castle.Deal` takes it),
    ``"solved"`` (a win replayed) or ``"unsolvable"`` (a complete search), as the tables the
    package ships have it, at once: no search. None for a deal past the variant's table, or
    a variant without one (Spider, the free-cell games). :class:`castle.VariantError` for a
    variant castle does not know; ``TypeError`` for a deal that is not a whole number."""
    if variant not in all_variants():
        check_variant(variant)
    if isinstance(deal, bool) or not isinstance(deal, int):
        raise TypeError(f"a deal number is a whole number, not {type(deal).__name__}")
    table = shipped_table(variant)
    return None if table is None else table.verdict(deal)


__all__ = [
    "MAGIC",
    "Verdict",
    "VerdictTable",
    "VerdictTableError",
    "known_verdict",
    "shipped_table",
]
