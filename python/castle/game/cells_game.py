"""``castle.CellsGame``: a free-cell deal as a person plays it (docs/rules.md §6).

The same shape as :class:`castle.Game` (undo, redo, hints, the clock, the timed score, saves,
statistics); the core decides every rule (``CellsDeal.core.is_legal``, ``single_moves``,
``play``). At the table the places are numbered: the columns first, then the cells (cell ``i``
of a deal with ``n`` columns is place ``n + i``), so that a table and its front ends pick,
drop and tap a cell as they do a column.

A run moved as a unit goes as the single-card moves the core plans for it through the free
cells and empty columns, and counts as those moves. After every action, and before the first,
the cards nothing could still go onto go up by themselves (the core's safe moves, the ones the
solver makes): they join the action, so an undo takes them back with it.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cards import Card
from ..errors import IllegalMoveError, SaveError
from ..family.cells import CELLS
from ..solving.cells import CellsDeal, CellsMove, Place, cells_rules, public_move, solve_cells
from ..solving.outcome import Canceller
from ..solving.settings import SolveSettings
from ..solving.solve import FOUNDATION, Target
from ..variants import NAMES
from ..words import plural
from . import played
from .levels import level
from .one_deck import OneDeck
from .plan import Hint, Plan
from .playclock import Clock
from .played import Step, TopRow, text_field

if TYPE_CHECKING:
    from ..saves.store import SaveStore

#: What the free-cell games' hint is called: it sees every card, as the player does.
HINT_LABEL = "hint"

#: How a column builds down, in a refusal's words (the variant's ``build``).
BUILDS = {
    "alternate-colours": "in alternating colours",
    "suit": "in suit",
    "rank": "by rank",
}

#: A move as the core takes it: (card index, from kind, from index, to kind, to index).
CoreMove = tuple[int, str, int, str, int]


@dataclass(frozen=True)
class CellsAction:
    """One player action as the single-card moves it made, in order: a run moved as a unit
    stands for several, and the cards that went up by themselves after it join it. Undo takes
    back a whole action."""

    moves: tuple[CellsMove, ...]


class CellsGame(OneDeck[CellsAction, CellsDeal]):
    """A free-cell deal in play. Illegal actions raise :class:`IllegalMoveError` and change
    nothing; with a ``store`` the game is saved after every action and a win is entered in
    the level's statistics."""

    SAVE_FORMAT = CELLS.save_format
    DEAL = CellsDeal
    VARIANTS = CELLS.variants
    DEFAULT_LEVEL = "freecell"
    KIND = CELLS.name

    def __init__(
        self,
        deal: CellsDeal,
        *,
        level_id: str | None = None,
        clock: Clock = time.monotonic,
        store: SaveStore | None = None,
    ) -> None:
        super().__init__(deal, level_id=level_id, clock=clock, store=store)
        # The cards that go up by themselves do so before the first move (not an action).
        self._position = settled(deal)[0]
        #: The win the last hint's search found (see :meth:`hint`).
        self._hint_plan: Plan[CellsDeal, CellsMove] | None = None
        self._finish_if_won()

    # --- what the player sees ---------------------------------------------------------------

    @property
    def columns(self) -> list[list[Card]]:
        return self._position.columns

    @property
    def cells(self) -> list[Card | None]:
        return self._position.cells

    @property
    def foundations(self) -> dict[str, int]:
        return self._position.foundations

    @property
    def is_won(self) -> bool:
        return self._position.is_won

    def top_row(self) -> TopRow:
        return TopRow(
            foundations=dict(self.foundations), cards_up=self.progress, cells=len(self.cells)
        )

    def piles(self) -> list[tuple[int, list[Card]]]:
        """The columns, then the cells (each a pile of one card or none)."""
        return [(0, cards) for cards in self.columns] + [
            (0, [] if card is None else [card]) for card in self.cells
        ]

    def movable(self, column: int) -> int:
        """How many top cards of a column form a run (the most a lift may hold, free cells
        and empty columns permitting); a cell's card, or none."""
        place = self._place(column, "the")
        if place.kind == "cell":
            return len(self._cards(place))
        assert place.index is not None
        return int(self._position.core.movable(place.index))

    def next_pick(self, column: int, picked: int) -> int:
        """One card, then one more of its run each press, then one again."""
        return picked + 1 if 0 < picked < self.movable(column) else 1

    def advice(self, peek: bool = False, cancel: Canceller | None = None) -> tuple[str, Hint[Any]]:
        """The hint (it sees every card, as the player does: ``peek`` changes nothing)."""
        return HINT_LABEL, self.hint(max_seconds=played.HINT_SECONDS, cancel=cancel)

    def playing(self, move: CellsMove) -> Step:
        return Step("drop", self.pile_of(move.src), self._target_of(move.dst), 1)

    def pile_of(self, place: Place) -> int:
        """The table's number of a column or a cell (columns first, then cells)."""
        assert place.index is not None
        return place.index + (len(self.columns) if place.kind == "cell" else 0)

    def __repr__(self) -> str:
        state = "won" if self.is_won else f"{self.progress}/52 cards up"
        return (
            f"<CellsGame {level(self.level).name}: {NAMES[self.variant]}, {self.deal_name}, "
            f"{plural(self.moves, 'move')}, {state}, score {self.score}>"
        )

    # --- what may be lifted, and where it may go ------------------------------------------------

    def lift_refusal(self, src: int, count: int) -> str | None:
        """Why the top ``count`` cards of place ``src`` cannot be picked up to move as one
        (None: they can): several cards must be a run as the variant builds."""
        place = self._place(src, "source")
        cards = self._cards(place)
        if not cards:
            return f"{place} is empty"
        if count > len(cards):
            return f"{place} holds only {plural(len(cards), 'card')}"
        if count > self.movable(src):
            run = " ".join(map(str, cards[len(cards) - count :]))
            build = BUILDS[cells_rules(self.variant).build]
            return f"{run} is not a run built down {build}: it cannot move as one"
        return None

    def targets(self, src: int, count: int = 1) -> list[Target]:
        """Every place the top ``count`` cards of ``src`` may go as one action: columns and
        cells by their numbers, and ``"foundation"``; what a front end marks while the player
        holds them."""
        if self.lift_refusal(src, count) is not None:
            return []
        places: list[Target] = [*range(len(self.piles())), FOUNDATION]
        return [dst for dst in places if dst != src and self._legal(src, dst, count)]

    def fitting_count(self, src: int, dst: Target) -> int | None:
        """How many cards :meth:`drop` without a count moves from ``src`` to ``dst`` (None:
        none fit)."""
        for count in range(self.movable(src), 0, -1):
            if self._legal(src, dst, count):
                return count
        return None

    # --- actions ------------------------------------------------------------------------------

    def move(self, src: int, dst: Target, count: int = 1) -> CellsAction:
        """Move the top ``count`` cards of place ``src`` to ``dst``: a column or a cell by its
        number, or ``"foundation"``. Several cards move as a unit onto a column only, no more
        than the free cells and empty columns allow; they count as the moves they stand for."""
        self._check_playing()
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise IllegalMoveError(f"count must be a whole number of cards, not {count!r}")
        refusal = self.lift_refusal(src, count)
        if refusal is not None:
            raise IllegalMoveError(refusal)
        if dst != FOUNDATION:
            self._place(dst, "destination")
        if not self._legal(src, dst, count):
            raise IllegalMoveError(self._refusal(src, dst, count))
        singles = self._position.core.single_moves(*self._core(src, dst, count))
        return self._act(singles)

    def drop(self, src: int, dst: Target, count: int | None = None) -> CellsAction:
        """The longest run of ``src`` that can go to ``dst`` goes there (a drag that picks up
        as much as fits); with ``count``, those cards (:meth:`move`)."""
        self._check_playing()
        if count is None:
            count = self.fitting_count(src, dst) or 1  # none fit: one card's refusal
        return self.move(src, dst, count)

    def tap(self, column: int) -> CellsAction:
        """The top card of a column or a cell goes where it goes best: its foundation, else
        onto another column's card, else into an empty column (from a column of more cards,
        or a cell), else into a free cell."""
        self._check_playing()
        src = self._tapped(column)
        places = len(self.piles())
        ncols = len(self.columns)
        onto = [d for d in range(ncols) if self._cards(self._place(d, "")) and d != src]
        empty = [d for d in range(ncols) if not self._cards(self._place(d, "")) and d != src]
        lone = src < ncols and len(self._cards(self._place(src, ""))) == 1
        choices: list[Target] = [FOUNDATION, *onto, *([] if lone else empty)]
        if src < ncols:
            choices += range(ncols, places)
        for dst in choices:
            if self._legal(src, dst, 1):
                return self.move(src, dst)
        raise IllegalMoveError(f"{self._cards(self._place(src, ''))[-1]} has nowhere to go")

    def double_tap(self, column: int) -> CellsAction:
        """The top card of a column or a cell to its foundation if it fits there, else (from a
        column) into a free cell."""
        self._check_playing()
        src = self._tapped(column)
        if self._legal(src, FOUNDATION, 1):
            return self.move(src, FOUNDATION)
        card = self._cards(self._place(src, ""))[-1]
        if src >= len(self.columns):
            raise IllegalMoveError(f"{card} does not fit its foundation yet")
        for dst in range(len(self.columns), len(self.piles())):
            if self._legal(src, dst, 1):
                return self.move(src, dst)
        raise IllegalMoveError(f"{card} does not fit its foundation yet, and no cell is free")

    def take_off(self, column: int | None = None) -> CellsAction:
        raise IllegalMoveError("this game takes no runs off: cards go up one at a time")

    def _redone(self, before: CellsDeal, action: CellsAction) -> tuple[CellsDeal, int]:
        return _replay(before, action.moves), len(action.moves)

    def hint(
        self,
        *,
        max_seconds: float | None = 2.0,
        max_states: int | None = None,
        cancel: Canceller | None = None,
    ) -> Hint[CellsMove]:
        """The next move of a plan that wins from here, or why there is none.

        As :meth:`castle.Game.hint`: hints are the steps of one plan, the solver's win (in its
        short mode), searched again only off it. The plan leaves out the moves to the
        foundations that the game makes by itself. ``"unsolvable"`` is a proof."""
        if self.is_won:
            return Hint("solved", None)
        position = self._position
        if self._hint_plan is not None:
            step = self._hint_plan.step(position)
            if step is not None:
                return Hint("solved", step.move, step.left)
        limits = SolveSettings(
            max_seconds=max_seconds, max_states=max_states, short=True, cancel=cancel
        )
        solution = solve_cells(position, limits)
        if solution.status != "solved":
            return Hint(solution.status, None, searched=True)
        plan = Plan(position, players_moves(position, solution.moves), _play_settled)
        self._hint_plan = plan
        step = plan.step(position)
        if step is None:  # nothing left for the player: cannot be, the position is not won
            return Hint("unknown", None, searched=True)
        return Hint("solved", step.move, step.left, searched=True)

    # --- saving -------------------------------------------------------------------------------

    def to_save(self) -> dict[str, Any]:
        """The game as JSON-ready data: the deal, every action (each as its single moves,
        as the core writes them), the actions undone, counters and seconds played."""

        def moves_data(action: CellsAction) -> list[list[Any]]:
            return [list(m.core) for m in action.moves]

        done = [moves_data(action) for action in self.history]
        return self._save_data(done, [moves_data(action) for action in self._undone])

    @classmethod
    def from_save(
        cls, data: Any, *, clock: Clock = time.monotonic, store: SaveStore | None = None
    ) -> CellsGame:
        """The game :meth:`to_save` described, every move checked again by the core, its clock
        paused; :class:`SaveError` for anything else."""
        try:
            return cls._from_save(data, clock, store)
        except SaveError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, OverflowError) as e:
            raise SaveError(f"not a castle free-cell save: {e}") from None

    @classmethod
    def _from_save(cls, data: Any, clock: Clock, store: SaveStore | None) -> CellsGame:
        deal = cls._saved_deal(data, CellsDeal.from_text, CellsDeal.from_number)
        game = cls(deal, level_id=text_field(data["level"]), clock=clock)
        for moves in data["done"]:
            action = CellsAction(tuple(_saved_move(m) for m in _listed(moves)))
            before = game._position
            game._position = _replay(before, action.moves)
            game._done.append((action, before))
        position = game._position
        for moves in reversed(_listed(data["undone"])):
            # Checked in the order redo would play them, from the current position.
            action = CellsAction(tuple(_saved_move(m) for m in _listed(moves)))
            position = _replay(position, action.moves)
            game._undone.insert(0, action)
        game._restore(data, clock, store)
        return game

    # --- inside -------------------------------------------------------------------------------

    def _place(self, pile: object, what: str) -> Place:
        """Place number ``pile`` as a column or a cell; :class:`IllegalMoveError` else."""
        ncols, places = len(self.columns), len(self.piles())
        if isinstance(pile, bool) or not isinstance(pile, int) or not 0 <= pile < places:
            raise IllegalMoveError(
                f"{what} place must be a column 0 to {ncols - 1} or a cell {ncols} to "
                f"{places - 1}, not {pile!r}".lstrip()
            )
        return Place("column", pile) if pile < ncols else Place("cell", pile - ncols)

    def _cards(self, place: Place) -> list[Card]:
        assert place.index is not None
        if place.kind == "column":
            return self.columns[place.index]
        card = self.cells[place.index]
        return [] if card is None else [card]

    def _tapped(self, pile: int) -> int:
        place = self._place(pile, "tapped")
        if not self._cards(place):
            raise IllegalMoveError(f"{place} is empty")
        return pile

    def _target_of(self, place: Place) -> Target:
        return FOUNDATION if place.kind == "foundation" else self.pile_of(place)

    def _core(self, src: int, dst: Target, count: int) -> CoreMove:
        """The core's move for the top ``count`` cards of ``src`` going to ``dst``."""
        source = self._place(src, "source")
        target = TO_FOUNDATION if dst == FOUNDATION else self._place(dst, "destination")
        card = self._cards(source)[-count]
        return CellsMove(card, source, target).core

    def _legal(self, src: int, dst: Target, count: int) -> bool:
        if dst == src or count > len(self._cards(self._place(src, "source"))):
            return False
        return bool(self._position.core.is_legal(*self._core(src, dst, count)))

    def _refusal(self, src: int, dst: Target, count: int) -> str:
        """Why the core refused the top ``count`` cards of ``src`` at ``dst``, in the player's
        words."""
        card = self._cards(self._place(src, "source"))[-count]
        if dst == FOUNDATION:
            if count > 1:
                return "cards go to the foundations one at a time"
            return f"{card} does not fit its foundation yet"
        target = self._place(dst, "destination")
        if dst == src:
            return f"a card cannot move onto its own {target.kind}"
        if target.kind == "cell":
            return "a cell holds one card" if count > 1 else f"{target} is full"
        rules = cells_rules(self.variant)
        on = self._cards(target)
        if on and not self._legal(src, dst, 1) and count == 1:
            return f"{card} does not fit on {on[-1]} (one rank lower, {BUILDS[rules.build]})"
        if not on and rules.kings_only and card.rank != 13:
            return f"only a king may go into an empty column, not {card}"
        assert target.index is not None
        room = int(self._position.core.max_run(target.index))
        if count > room:
            return (
                f"{plural(count, 'card')} need more free cells or empty columns: at most "
                f"{room} can move there now"
            )
        if on:
            return f"{card} does not fit on {on[-1]} (one rank lower, {BUILDS[rules.build]})"
        return f"{card} cannot go to {target}"

    def _act(self, singles: Iterable[CoreMove]) -> CellsAction:
        """Play the single moves as one action, then the cards that go up by themselves."""
        before = self._position
        position = before
        moves: list[CellsMove] = []
        for m in singles:
            position = CellsDeal(position.core.play(*m))
            moves.append(public_move(*m))
        position, up = settled(position)
        action = CellsAction(tuple(moves + up))
        self._position = position
        self._done.append((action, before))
        self._undone.clear()
        self._moves += len(action.moves)
        self._acted()
        return action


#: The foundation, as a place.
TO_FOUNDATION = Place("foundation")


def settled(position: CellsDeal) -> tuple[CellsDeal, list[CellsMove]]:
    """The position after the cards that go up by themselves (the core's safe moves), and
    those moves."""
    up: list[CellsMove] = []
    for m in position.core.safe_moves():
        position = CellsDeal(position.core.play(*m))
        up.append(public_move(*m))
    return position, up


def players_moves(start: CellsDeal, moves: Sequence[CellsMove]) -> list[CellsMove]:
    """A win's moves from ``start`` as a player makes them: those that go up by themselves
    left out. It stops at a move no longer legal (a card the game put up that the win moves
    elsewhere first): a hint from there searches again."""
    kept: list[CellsMove] = []
    position = start
    for m in moves:
        if m.to_foundation and position.foundations[m.card.suit] >= m.card.rank:
            continue  # it went up by itself
        if not position.core.is_legal(*m.core):
            break
        kept.append(m)
        position = _play_settled(position, m)
    return kept


def _play_settled(position: CellsDeal, move: CellsMove) -> CellsDeal:
    return settled(CellsDeal(position.core.play(*move.core)))[0]


def _replay(position: CellsDeal, moves: Sequence[CellsMove]) -> CellsDeal:
    """The position after ``moves``, each checked by the core; :class:`SaveError` at the
    first that is not legal."""
    for m in moves:
        if not position.core.is_legal(*m.core) or m.core != _single(position, m):
            raise SaveError(f"{m} is not legal there")
        position = CellsDeal(position.core.play(*m.core))
    return position


def _single(position: CellsDeal, move: CellsMove) -> CoreMove | None:
    """``move``'s core tuple when it is one card's move (a save holds single moves only)."""
    singles = position.core.single_moves(*move.core)
    return singles[0] if len(singles) == 1 else None


def _listed(data: object) -> list[Any]:
    if not isinstance(data, list):
        raise SaveError(f"expected a list, found {data!r}")
    return data


def _saved_move(data: object) -> CellsMove:
    """A single move as a save writes it: anything else is a damaged save."""
    kinds = ("column", "cell", "foundation")
    if (
        not isinstance(data, list)
        or len(data) != 5
        or not all(isinstance(data[i], int) and not isinstance(data[i], bool) for i in (0, 2, 4))
        or data[1] not in kinds[:2]
        or data[3] not in kinds
        or not 0 <= data[0] < 52
        or not 0 <= data[2] < 16
        or not -1 <= data[4] < 16
    ):
        raise SaveError(f"not a move: {data!r}")
    return public_move(data[0], data[1], data[2], data[3], data[4])


__all__ = ["HINT_LABEL", "CellsAction", "CellsGame", "players_moves", "settled"]
