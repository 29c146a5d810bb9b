"""``castle.Game``: one deal as a person plays it (docs/rules.md §3).

The game keeps the history and the clock; the core decides every rule: each single-card move
is checked and made by it (``Deal.core.play``), and it says which foundation moves are safe and
when lifting alone finishes the game. A supermove is planned here as the single-card moves it
stands for, and each of them goes through the core.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from ..cards import Card
from ..errors import IllegalMoveError, SaveError
from ..family.castle import CASTLE
from ..solving.deal import COLUMNS, Deal
from ..solving.outcome import Canceller
from ..solving.solve import FOUNDATION, Move, Target, make_move, solve
from ..variants import NAMES
from ..words import plural
from . import played

# Game.resume reads a save of any kind: each kind enters itself in Played.KINDS as its class
# is defined, so a process that imported only Game still reads a Spider or free-cell save.
from .cells_game import CellsGame
from .levels import DEFAULT_LEVEL, level
from .one_deck import OneDeck
from .plan import Hint, Plan
from .playclock import Clock
from .played import Step, TopRow, resume, text_field
from .spider_game import SpiderGame

if TYPE_CHECKING:
    from ..saves.store import SaveStore


#: What the castle games' hint is called: it sees every card, as the player does.
HINT_LABEL = "hint"


@dataclass(frozen=True)
class Action:
    """One player action as the single-card moves it made, in order: a supermove stands for
    several, and an auto-finish's lifts join the action that made it possible. Undo takes
    back a whole action."""

    moves: tuple[Move, ...]


def supermove_capacity(empty_columns: int, into_empty: bool) -> int:
    """Most cards one supermove may carry (docs/rules.md §3): with k empty columns, 2^k onto a card,
    2^(k-1) into an empty column (k counts it); with none, one card."""
    if into_empty:
        return 1 << (empty_columns - 1) if empty_columns >= 1 else 0
    return 1 << empty_columns


def plan_supermove(count: int, src: int, dst: int, free: Sequence[int]) -> list[tuple[int, int]]:
    """Single-card moves (from, to) that carry ``count`` cards from ``src`` to ``dst`` through
    the empty columns ``free``: half the run to a free column, the rest to ``dst``, then the
    half onto it, each part using the other free columns the same way. Carries up to
    2^len(free) cards."""
    if count == 1:
        return [(src, dst)]
    if not free:
        raise ValueError("a run of several cards needs an empty column")
    spare, others = free[0], free[1:]
    top = count // 2
    return (
        plan_supermove(top, src, spare, others)
        + plan_supermove(count - top, src, dst, others)
        + plan_supermove(top, spare, dst, others)
    )


class Game(OneDeck[Action, Deal]):
    """A deal in play: moves, undo and redo, hints, the clock and both scores.

    ``clock`` returns seconds (``time.monotonic`` by default; tests inject their own). With a
    ``store``, the game is saved after every action and a win is entered in the level's
    statistics. Illegal actions raise :class:`IllegalMoveError` and change nothing.
    """

    SAVE_FORMAT = CASTLE.save_format
    DEAL = Deal
    VARIANTS = CASTLE.variants
    DEFAULT_LEVEL = DEFAULT_LEVEL
    KIND = CASTLE.name

    def __init__(
        self,
        deal: Deal,
        *,
        level_id: str | None = None,
        clock: Clock = time.monotonic,
        store: SaveStore | None = None,
    ) -> None:
        super().__init__(deal, level_id=level_id, clock=clock, store=store)
        #: The win the last hint's search found (see :meth:`hint`).
        self._hint_plan: Plan[Deal, Move] | None = None
        self._finish_if_won()

    @classmethod
    def resume(
        cls, store: SaveStore, *, clock: Clock = time.monotonic, paused: bool = False
    ) -> Game | SpiderGame | CellsGame | None:
        """The saved game, castle, Spider or free-cell, exactly as it was left (None if there
        is none, or if the file was unusable: then it is set aside and ``store.notices`` says
        why). Its clock runs on from the seconds saved, unless ``paused`` (then
        :meth:`unpause` starts it)."""
        return cast(
            "Game | SpiderGame | CellsGame | None", resume(store, clock=clock, paused=paused)
        )

    # --- what the player sees ---------------------------------------------------------------

    @property
    def columns(self) -> list[list[Card]]:
        return self._position.columns

    @property
    def foundations(self) -> dict[str, int]:
        return self._position.foundations

    @property
    def is_won(self) -> bool:
        return bool(self._position.core.is_won())

    def top_row(self) -> TopRow:
        return TopRow(foundations=dict(self.foundations), cards_up=self.progress)

    def piles(self) -> list[tuple[int, list[Card]]]:
        return [(0, cards) for cards in self.columns]

    def movable(self, column: int) -> int:
        return self.run_length(column)

    def next_pick(self, column: int, picked: int) -> int:
        """One card, then one more of its run each press, then one again."""
        return picked + 1 if 0 < picked < self.movable(column) else 1

    def advice(self, peek: bool = False, cancel: Canceller | None = None) -> tuple[str, Hint[Any]]:
        """The hint (it sees every card, as the player does: ``peek`` changes nothing)."""
        return HINT_LABEL, self.hint(max_seconds=played.HINT_SECONDS, cancel=cancel)

    def playing(self, move: Move) -> Step:
        return Step("drop", move.src, move.dst, 1)

    def take_off(self, column: int | None = None) -> Action:
        raise IllegalMoveError("this game takes no runs off: cards go up one at a time")

    def run_length(self, column: int) -> int:
        """How many top cards of ``column`` form a descending run (by rank, any suits): the
        most a supermove may carry from it (docs/rules.md §3), empty columns permitting."""
        cards = self.columns[self._column(column, "the")]
        n = 1 if cards else 0
        while n < len(cards) and cards[-n - 1].rank == cards[-n].rank + 1:
            n += 1
        return n

    def __repr__(self) -> str:
        state = "won" if self.is_won else f"{self.progress}/52 cards up"
        return (
            f"<Game {level(self.level).name}: {NAMES[self.variant]}, {self.deal_name}, "
            f"{plural(self.moves, 'move')}, {state}, score {self.score}>"
        )

    # --- actions ------------------------------------------------------------------------------

    def move(self, src: int, dst: Target, count: int = 1) -> Action:
        """Move the top ``count`` cards of column ``src`` (0-based) onto column ``dst`` or, one
        card, to its foundation (``"foundation"``): the drag. Several cards must form a
        descending run and fit the supermove limit of the empty columns."""
        self._check_playing()
        return self._act(self._plan(src, dst, count))

    def drop(self, src: int, dst: Target, count: int | None = None) -> Action:
        """The longest run of column ``src`` that can go to ``dst`` goes there (a drag that
        picks up as much as fits); with ``count``, those cards (:meth:`move`)."""
        self._check_playing()
        if count is not None:
            return self.move(src, dst, count)
        count = self.fitting_count(src, dst)
        if count is None:
            return self.move(src, dst)  # refused, with the reason
        return self.move(src, dst, count)

    def fitting_count(self, src: int, dst: Target) -> int | None:
        """How many cards :meth:`drop` would move from ``src`` to ``dst`` (None: none fit)."""
        column = self.columns[self._column(src, "source")]
        for count in range(len(column), 0, -1):
            try:
                self._play(self._plan(src, dst, count))
            except IllegalMoveError:
                continue
            return count
        return None

    def lift_refusal(self, src: int, count: int) -> str | None:
        """Why the top ``count`` cards of column ``src`` cannot be picked up to move as one
        (None: they can, wherever they may then go): what a front end says when the player
        tries to lift them. Several cards must form a descending run (docs/rules.md §3)."""
        column = self.columns[self._column(src, "source")]
        if not column:
            return f"column {src + 1} is empty"
        if count > len(column):
            return f"column {src + 1} holds only {len(column)} cards"
        if count > self.run_length(src):
            run = " ".join(map(str, column[len(column) - count :]))
            return f"{run} is not a descending run: it cannot move as one"
        return None

    def targets(self, src: int, count: int = 1) -> list[Target]:
        """Where the top ``count`` cards of column ``src`` may go as one action: each column a
        drag of them may drop on, and ``"foundation"`` for one card that fits there. The
        places a front end marks while the player holds the cards."""
        self._column(src, "source")
        places: list[Target] = [*range(len(self.columns)), FOUNDATION]
        fitting: list[Target] = []
        for dst in places:
            if dst == src:
                continue
            try:
                self._play(self._plan(src, dst, count))
            except IllegalMoveError:
                continue
            fitting.append(dst)
        return fitting

    def tap(self, column: int) -> Action:
        """The top card of ``column`` goes to its best place (docs/rules.md §3): its foundation if
        that is safe; else onto a card one rank higher, of its own suit if there is one; else
        into an empty column. (If none of those, to its foundation when it fits there.)"""
        self._check_playing()
        src = self._column(column, "tapped")
        cards = self.columns[src]
        if not cards:
            raise IllegalMoveError(f"column {src + 1} is empty")
        card = cards[-1]
        core = self._position.core
        if core.is_safe_to_foundation(card.index):
            return self._act([(src, -1)])
        # Where the core lets the card go, by kind of place.
        legal = [dst for _, move_src, dst in core.legal_moves() if move_src == src]
        onto = [dst for dst in legal if dst >= 0 and self.columns[dst]]
        if onto:
            same_suit = [dst for dst in onto if self.columns[dst][-1].suit == card.suit]
            return self._act([(src, (same_suit or onto)[0])])
        empty = [dst for dst in legal if dst >= 0 and not self.columns[dst]]
        if empty and len(cards) > 1:  # a lone card gains nothing from another empty column
            return self._act([(src, empty[0])])
        if -1 in legal:
            return self._act([(src, -1)])
        raise IllegalMoveError(f"{card} has nowhere to go")

    def double_tap(self, column: int) -> Action:
        """The top card of ``column`` straight to its foundation, if it fits there."""
        self._check_playing()
        src = self._column(column, "tapped")
        if not self.columns[src]:
            raise IllegalMoveError(f"column {src + 1} is empty")
        return self._act([(src, -1)])

    def _redone(self, before: Deal, action: Action) -> tuple[Deal, int]:
        return self._replay(before, action.moves), len(action.moves)

    def hint(
        self,
        *,
        max_seconds: float | None = 2.0,
        max_states: int | None = None,
        cancel: Canceller | None = None,
    ) -> Hint[Move]:
        """The next move of a plan that wins from here, or why there is none.

        Hints are the steps of one plan (:mod:`castle.game.plan`): while the position lies on the
        win the last search found, the hint is its next move and nothing is searched. Off it,
        the solver searches from here within the limits, in its short mode (a plan that reads
        like a person's), and its win becomes the plan. ``"unsolvable"`` is a proof.
        ``cancel`` stops the search (:func:`castle.solve`): then no move, ``"unknown"``."""
        if self.is_won:
            return Hint("solved", None)
        position = self._position
        if self._hint_plan is not None:
            step = self._hint_plan.step(position)
            if step is not None:
                return Hint("solved", step.move, step.left)
        solution = solve(
            position, max_seconds=max_seconds, max_states=max_states, short=True, cancel=cancel
        )
        if solution.status != "solved":
            return Hint(solution.status, None, searched=True)
        plan = Plan(position, solution.moves, _play_move)
        self._hint_plan = plan
        step = plan.step(position)
        assert step is not None  # a win from a position not yet won has a first move
        return Hint("solved", step.move, step.left, searched=True)

    # --- saving -------------------------------------------------------------------------------

    def to_save(self) -> dict[str, Any]:
        """The game as JSON-ready data: the deal, every action (undo history included), the
        actions undone, counters and seconds played."""

        def moves_data(action: Action) -> list[list[int]]:
            return [[m.card.index, m.src, _core_target(m.dst)] for m in action.moves]

        done = [moves_data(action) for action in self.history]
        return self._save_data(done, [moves_data(action) for action in self._undone])

    @classmethod
    def from_save(
        cls, data: Any, *, clock: Clock = time.monotonic, store: SaveStore | None = None
    ) -> Game:
        """The game :meth:`to_save` described, every move checked again by the core, its clock
        paused; raises :class:`SaveError` for anything else."""
        try:
            return cls._from_save(data, clock, store)
        except SaveError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, OverflowError) as e:
            raise SaveError(f"not a castle save: {e}") from None

    @classmethod
    def _from_save(cls, data: Any, clock: Clock, store: SaveStore | None) -> Game:
        deal = cls._saved_deal(data, Deal.from_text, Deal.from_number)
        game = cls(deal, level_id=text_field(data["level"]), clock=clock)
        for moves in data["done"]:
            action = Action(tuple(_move(m) for m in moves))
            before = game._position
            game._position = game._replay(before, action.moves)
            game._done.append((action, before))
        position = game._position
        for moves in reversed(data["undone"]):
            # Checked in the order redo would play them, from the current position.
            action = Action(tuple(_move(m) for m in moves))
            position = game._replay(position, action.moves)
            game._undone.insert(0, action)
        game._restore(data, clock, store)
        return game

    # --- inside -------------------------------------------------------------------------------

    def _column(self, column: object, what: str) -> int:
        ncols = len(self.columns)
        if isinstance(column, bool) or not isinstance(column, int) or not 0 <= column < ncols:
            raise IllegalMoveError(f"{what} column must be 0 to {ncols - 1}, not {column!r}")
        return column

    def _plan(self, src: int, dst: Target, count: int) -> list[tuple[int, int]]:
        """The single-card steps (from, to; -1 the foundation) of a move of ``count`` cards,
        after the checks of docs/rules.md §3 on runs and supermoves (the core checks each step)."""
        src = self._column(src, "source")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise IllegalMoveError(f"count must be a whole number of cards, not {count!r}")
        refusal = self.lift_refusal(src, count)
        if refusal is not None:
            raise IllegalMoveError(refusal)
        if dst == FOUNDATION:
            if count != 1:
                raise IllegalMoveError("cards go to the foundations one at a time")
            return [(src, -1)]
        dst = self._column(dst, "destination")
        if dst == src:
            raise IllegalMoveError("a card cannot move onto its own column")
        into_empty = not self.columns[dst]
        free = [c for c, cards in enumerate(self.columns) if not cards and c != dst]
        capacity = supermove_capacity(len(free) + into_empty, into_empty)
        if count > capacity:
            raise IllegalMoveError(
                f"{count} cards need more empty columns: with {len(free)} spare, "
                f"at most {capacity} can move there"
            )
        return plan_supermove(count, src, dst, free)

    def _play(self, steps: list[tuple[int, int]]) -> tuple[Deal, list[Move]]:
        """The position after the steps, each checked and made by the core, and their moves;
        :class:`IllegalMoveError` (and nothing changed) at the first illegal one."""
        position = self._position
        moves: list[Move] = []
        for src, dst in steps:
            cards = position.columns[src]
            if not cards:
                raise IllegalMoveError(f"column {src + 1} is empty")
            card = cards[-1]
            if not position.core.is_legal(card.index, src, dst):
                raise IllegalMoveError(_refusal(position, card, dst))
            position = Deal(position.core.play(card.index, src, dst))
            moves.append(make_move(card.index, src, dst))
        return position, moves

    def _act(self, steps: list[tuple[int, int]]) -> Action:
        """Play the steps as one action, then the auto-finish if it applies."""
        before = self._position
        position, moves = self._play(steps)
        lifts = position.core.lift_to_win()
        if lifts:
            # Auto-finish: every card left can simply be lifted up.
            for card_index, lift_src, lift_dst in lifts:
                position = Deal(position.core.play(card_index, lift_src, lift_dst))
                moves.append(make_move(card_index, lift_src, lift_dst))
        action = Action(tuple(moves))
        self._position = position
        self._done.append((action, before))
        self._undone.clear()
        self._moves += len(moves)
        self._acted()
        return action

    @staticmethod
    def _replay(position: Deal, moves: Sequence[Move]) -> Deal:
        for m in moves:
            dst = _core_target(m.dst)
            if not position.core.is_legal(m.card.index, m.src, dst):
                raise SaveError(f"{m} is not legal there")
            position = Deal(position.core.play(m.card.index, m.src, dst))
        return position


def _play_move(position: Deal, move: Move) -> Deal:
    return Deal(position.core.play(move.card.index, move.src, _core_target(move.dst)))


def _refusal(position: Deal, card: Card, dst: int) -> str:
    """Why the core refused ``card`` at ``dst``, in the player's words."""
    if dst < 0:
        return f"{card} does not fit its foundation yet"
    target = position.columns[dst]
    if target:
        return f"{card} does not fit on {target[-1]} (one rank lower only)"
    return f"{card} cannot go to column {dst + 1}"


def _core_target(dst: Target) -> int:
    """The core's column number for a destination (-1: the foundation)."""
    return -1 if dst == FOUNDATION else int(dst)


def _move(data: object) -> Move:
    if (
        not isinstance(data, list)
        or len(data) != 3
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in data)
        or not 0 <= data[0] < 52
        or not 0 <= data[1] < COLUMNS
        or not -1 <= data[2] < COLUMNS
    ):
        raise SaveError(f"not a move: {data!r}")
    return make_move(data[0], data[1], data[2])


__all__ = ["HINT_LABEL", "Action", "Game", "plan_supermove", "supermove_capacity"]
