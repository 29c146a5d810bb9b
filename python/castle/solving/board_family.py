"""Which family of games board text is written for: the castle games or the free-cell games
(fc-solve's layout: a foundations or free cells line; a card in a free cell only the
free-cell games') or Spider (a stock line, a line of the runs taken off, face-down cards
before ``|``), told by the lines only some families have. Text given to another family's
reader is then refused for what it is ("this is a castle board ..., not a Spider board"), not
at the first token that reader does not know (``Foundations:``: not a card)."""

from __future__ import annotations

from typing import Literal, NamedTuple

from .. import _core
from ..errors import BoardError
from ..variants import NAMES, VARIANTS

Family = Literal["castle", "spider", "cells"]

#: How messages name a board of each family.
BOARD_NAMES: dict[Family, str] = {
    "castle": f"a castle board ({', '.join(NAMES[v] for v in VARIANTS)})",
    "spider": "a Spider board",
    "cells": f"a free-cell board ({', '.join(NAMES[v] for v in _core.cells_variants())})",
}

#: fc-solve's layout, which the castle games and the free-cell games share.
_FC_SOLVE: tuple[Family, ...] = ("castle", "cells")

#: The start of a line (in any case) that only some families' text has, those families (the
#: first is the one such text is read as), and how a message names it.
_HEADERS: tuple[tuple[str, tuple[Family, ...], str], ...] = (
    ("foundations:", _FC_SOLVE, "a foundations line"),
    ("freecells:", _FC_SOLVE, "a free cells line"),
    ("stock:", ("spider",), "a stock line"),
    ("off:", ("spider",), "a line of the runs taken off"),
)


class Sign(NamedTuple):
    """What tells a board's family: the family it is read as, the line (1-based), what is
    on it, and every family whose reader takes such text (and says itself what is wrong)."""

    family: Family
    line: int
    what: str
    families: tuple[Family, ...]


#: A card in a free cell: a free-cell board, which the castle reader still takes (and
#: refuses for the card, named with its line: "no free cells").
_CELL_CARD: tuple[Family, ...] = ("cells", "castle")


def board_family(text: str) -> Sign | None:
    """The sign that tells the family ``text`` is written for; None when nothing in it
    tells, or when its signs disagree."""
    signs: list[Sign] = []
    # Lines end at "\n" alone, as the core counts them (splitlines() would break at more).
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip().lower()
        if not line or line.startswith("#"):
            continue
        for start, families, what in _HEADERS:
            if line.startswith(start):
                if start == "freecells:" and line[len(start) :].replace("-", " ").split():
                    families, what = _CELL_CARD, "a card in a free cell"
                signs.append(Sign(families[0], number, what, families))
                break
        else:
            if "|" in line:
                signs.append(Sign("spider", number, "face-down cards (before |)", ("spider",)))
    if not signs:
        return None
    # The families every sign allows: none when signs disagree.
    common = tuple(f for f in signs[0].families if all(f in sign.families for sign in signs))
    if not common:
        return None
    # A sign that reads as another family than the first's tells more (a card in a free
    # cell, after the foundations line): it names the family.
    first = signs[0]
    telling = next((s for s in signs if s.family != first.family and s.family in common), first)
    return telling._replace(families=common)


def check_family(text: str, wanted: Family) -> None:
    """Raise :class:`BoardError` if ``text`` is plainly a board of a family other than
    ``wanted``, naming what it is and the line that says so; else nothing."""
    sign = board_family(text)
    if sign is not None and wanted not in sign.families:
        raise BoardError(
            f"this is {BOARD_NAMES[sign.family]}, not {BOARD_NAMES[wanted]}: it has {sign.what}",
            line=sign.line,
        )


__all__ = ["BOARD_NAMES", "Family", "Sign", "board_family", "check_family"]
