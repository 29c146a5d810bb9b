"""What a family of games (the castle games, Spider, the free-cell games) answers for the rest
of castle: every question whose answer differs between families, so that the command line,
solving, output, the levels and the front ends ask the family and never which game it is.

A family's deals, moves and answers are its own types; the unions below name them all, so
a new family adds its types here, its module beside :mod:`castle.family.castle`, and its line
in :data:`castle.family.FAMILIES`.
"""

from __future__ import annotations

from typing import Any, Protocol, Union

from ..solving.cells import CellsDeal, CellsMove, CellsSolution
from ..solving.deal import Deal
from ..solving.settings import SolveSettings
from ..solving.solution import Move, Solution
from ..solving.spider import SpiderDeal, SpiderMove, SpiderSolution

#: A deal of any family.
AnyDeal = Union[Deal, SpiderDeal, CellsDeal]
#: A move of any family.
AnyMove = Union[Move, SpiderMove, CellsMove]
#: A solver's answer for any family.
AnySolution = Union[Solution, SpiderSolution, CellsSolution]


class Family(Protocol):
    """One family of games: its variants, its deals (by number and from board text), its
    solver, how its moves and answers are written, what its players take, and its saves."""

    @property
    def name(self) -> str:
        """``"castle"``, ``"spider"``, ``"cells"``: the family as views, board text and the
        page name it (``Played.KIND`` of its game)."""
        ...

    @property
    def title(self) -> str:
        """How a message names the family: ``the castle games``, ``Spider``."""
        ...

    @property
    def variants(self) -> tuple[str, ...]:
        """The variant ids it plays, in the order the command line lists them."""
        ...

    @property
    def plays(self) -> bool:
        """Whether castle plays its games (its levels, the players, ``castle autoplay``), not
        only solves them. The attributes below about play matter only then."""
        ...

    @property
    def autoplays(self) -> bool:
        """Whether ``castle autoplay`` plays its deals (a player of its own that sees what a
        person sees); only where :attr:`plays`."""
        ...

    @property
    def offers_survey(self) -> bool:
        """Whether ``castle survey`` takes its variants."""
        ...

    @property
    def save_format(self) -> str:
        """The format tag of its game's saves (its game class: ``Played.KINDS[save_format]``)."""
        ...

    @property
    def solved_words(self) -> str:
        """What ``castle solve`` says under a win: what the moves listed include."""
        ...

    @property
    def offers_short(self) -> bool:
        """Whether its solver searches for a shorter win (``short``)."""
        ...

    @property
    def offers_spill(self) -> bool:
        """Whether its solver goes on in files past its memory (``spill_dir``)."""
        ...

    @property
    def rules_section(self) -> int:
        """The section of docs/rules.md with its rules (the players' guide starts there)."""
        ...

    @property
    def shared_play(self) -> tuple[str, ...]:
        """The subsections of docs/rules.md's §3 (the castle games as a person plays them)
        that its game plays alike, for its players' guide (the castle games: all of §3)."""
        ...

    @property
    def tips_heading(self) -> str:
        """The heading of its tips in docs/rules.md's §5."""
        ...

    @property
    def autoplay_settings(self) -> frozenset[str]:
        """The settings of ``castle autoplay``'s player that its games are played by."""
        ...

    @property
    def autoplay_verdicts(self) -> bool:
        """Whether its games played by ``castle autoplay`` carry the solver's verdict on the
        deal under the same limits (the summary tallies them)."""
        ...

    def owns(self, deal: object) -> bool:
        """Whether ``deal`` is a deal of this family."""
        ...

    def last_deal(self, variant: str) -> int:
        """The largest deal number of ``variant`` (one of :attr:`variants`)."""
        ...

    def deal(self, variant: str, number: int) -> AnyDeal:
        """Deal ``number`` of ``variant`` (one of :attr:`variants`)."""
        ...

    def read_board(self, text: str, variant: str | None) -> AnyDeal:
        """The deal that board ``text`` lays out (``variant``, or the family's default when
        None); a fault is a :class:`castle.BoardError`."""
        ...

    def solve(self, deal: AnyDeal, settings: SolveSettings) -> AnySolution:
        """``castle.solve`` on a deal of this family, its limits and options as one object;
        ``short`` and a spill directory come only when :attr:`offers_short` and
        :attr:`offers_spill` say so (``castle.solve`` and the command line refuse them
        otherwise)."""
        ...

    def move_text(self, move: AnyMove, arrow: str) -> str:
        """One move as ``castle solve`` lists it, after its number: ``7H  column 4 → column 6``."""
        ...

    def solution_json(self, deal: AnyDeal, solution: AnySolution) -> dict[str, Any]:
        """``solution.to_json(deal)``: the answer as ``castle solve --json`` writes it."""
        ...


__all__ = ["AnyDeal", "AnyMove", "AnySolution", "Family"]
