"""Which family of games board text is written for: the castle games (a foundations or free
cells line) or Spider (a stock line, a line of the runs taken off, face-down cards before
``|``), told by the lines only one of the two has. Text given to the other family's reader is
then refused for what it is ("this is a castle board ..., not a Spider board"), not at the
first token that reader does not know (``Foundations:``: not a card)."""

from __future__ import annotations

from typing import Literal, NamedTuple

from ..errors import BoardError
from ..variants import NAMES, VARIANTS

Family = Literal["castle", "spider"]

#: How messages name a board of each family.
BOARD_NAMES: dict[Family, str] = {
    "castle": f"a castle board ({', '.join(NAMES[v] for v in VARIANTS)})",
    "spider": "a Spider board",
}

#: The start of a line (in any case) that only one family's text has, what it says of the
#: family, and how a message names it.
_HEADERS: tuple[tuple[str, Family, str], ...] = (
    ("foundations:", "castle", "a foundations line"),
    ("freecells:", "castle", "a free cells line"),
    ("stock:", "spider", "a stock line"),
    ("off:", "spider", "a line of the runs taken off"),
)


class Sign(NamedTuple):
    """What tells a board's family: the family, the line (1-based) and what is on it."""

    family: Family
    line: int
    what: str


def board_family(text: str) -> Sign | None:
    """The first sign of the family ``text`` is written for; None when nothing in it tells,
    or when it has signs of both."""
    signs: list[Sign] = []
    # Lines end at "\n" alone, as the core counts them (splitlines() would break at more).
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip().lower()
        if not line or line.startswith("#"):
            continue
        for start, family, what in _HEADERS:
            if line.startswith(start):
                signs.append(Sign(family, number, what))
                break
        else:
            if "|" in line:
                signs.append(Sign("spider", number, "face-down cards (before |)"))
    if not signs or len({sign.family for sign in signs}) > 1:
        return None
    return signs[0]


def check_family(text: str, wanted: Family) -> None:
    """Raise :class:`BoardError` if ``text`` is plainly a board of the family other than
    ``wanted``, naming what it is and the line that says so; else nothing."""
    sign = board_family(text)
    if sign is not None and sign.family != wanted:
        raise BoardError(
            f"this is {BOARD_NAMES[sign.family]}, not {BOARD_NAMES[wanted]}: it has {sign.what}",
            line=sign.line,
        )


__all__ = ["BOARD_NAMES", "Family", "Sign", "board_family", "check_family"]
