"""``castle.SpiderGame``: a Spider deal as a person plays it (docs/rules.md §4).

The same shape as :class:`castle.Game` (undo, redo, hints, the clock, saves, statistics); the
core decides every rule (``SpiderDeal.core.is_legal`` and ``play``). The score is the classic
Spider score: 500 to start, -1 for every move (undos and deals included), +100 for every run
taken off (an undo takes its points back).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..cards import Card
from ..errors import IllegalMoveError, SaveError
from ..family.spider import SPIDER
from ..solving.outcome import Cancelled, Canceller, Status
from ..solving.settings import SolveSettings
from ..solving.solve import FOUNDATION, Target
from ..solving.spider import (
    COLUMNS,
    RUN,
    RUNS,
    SpiderColumn,
    SpiderDeal,
    SpiderMove,
    public_move,
    solve_spider,
)
from ..words import plural
from . import played
from .fair import FairEffort, fair_advice
from .levels import level
from .plan import Hint, Plan
from .playclock import Clock
from .played import Played, Step, TopRow, text_field

if TYPE_CHECKING:
    from ..saves.store import SaveStore


#: What Spider's hints are called, by what they see: the fair one what the player sees, the
#: thoughtful one peeks.
FAIR_LABEL = "fair hint"
THOUGHTFUL_LABEL = "thoughtful hint (it peeked at the face-down cards and the stock)"

#: What a fair hint says when nothing it can show leads anywhere new.
NO_MOVE_HELPS = "no move helps: nothing left to turn up or deal leads anywhere new"

START_SCORE = 500
RUN_POINTS = 100


#: A Spider hint is a :class:`castle.Hint` (its move a :class:`castle.SpiderMove`).
SpiderHint = Hint


class SpiderGame(Played[SpiderMove, SpiderDeal]):
    """A Spider deal in play. Illegal actions raise :class:`IllegalMoveError` and change
    nothing; with a ``store`` the game is saved after every action and a win is entered in
    the level's statistics."""

    SAVE_FORMAT = SPIDER.save_format
    DEAL = SpiderDeal
    VARIANTS = SPIDER.variants
    DEFAULT_LEVEL = "spider"
    KIND = SPIDER.name
    HINT_CHOICE = True

    def __init__(
        self,
        deal: SpiderDeal,
        *,
        level_id: str | None = None,
        clock: Clock = time.monotonic,
        store: SaveStore | None = None,
    ) -> None:
        super().__init__(deal, level_id=level_id, clock=clock, store=store)
        #: The win the last thoughtful hint's search found (see :meth:`hint`).
        self._hint_plan: Plan[SpiderDeal, SpiderMove] | None = None
        #: The last fair hint's plan: its moves up to the next card shown.
        self._fair_plan: Plan[SpiderDeal, SpiderMove] | None = None

    # --- what the player sees ---------------------------------------------------------------

    @property
    def columns(self) -> list[SpiderColumn]:
        return self._position.columns

    def movable(self, column: int) -> int:
        """How many top cards of ``column`` may move as one run (the core says)."""
        return int(self._position.core.movable(self._column(column, "the")))

    @property
    def stock(self) -> int:
        """Cards left in the stock."""
        return len(self._position.stock)

    @property
    def off(self) -> list[str]:
        return self._position.off

    @property
    def is_won(self) -> bool:
        return bool(self._position.core.is_won())

    @property
    def score(self) -> int:
        """The classic Spider score."""
        runs = len(self.off) - len(self.deal.off)
        return START_SCORE - self._moves + RUN_POINTS * runs

    def __repr__(self) -> str:
        state = "won" if self.is_won else f"stock {self.stock}, {len(self.off)}/{RUNS} runs off"
        return (
            f"<SpiderGame {level(self.level).name}, {self.deal_name}, "
            f"{plural(self.moves, 'move')}, {state}, score {self.score}>"
        )

    def tally(self) -> str:
        return f"stock {self.stock} · runs off {len(self.off)}/{RUNS}"

    def top_row(self) -> TopRow:
        return TopRow(stock=self.stock, off=tuple(self.off))

    def piles(self) -> list[tuple[int, list[Card]]]:
        return [(len(c.down), c.up) for c in self.columns]

    def next_pick(self, column: int, picked: int) -> int:
        """The longest run that may move, then one card fewer each press, then the run again."""
        return (picked - 1 or self.movable(column)) if picked else self.movable(column)

    def advice(self, peek: bool = False, cancel: Canceller | None = None) -> tuple[str, Hint[Any]]:
        """The fair hint, or with ``peek`` the thoughtful one (``cancel``: :meth:`hint`)."""
        if peek:
            return THOUGHTFUL_LABEL, self.hint(max_seconds=played.HINT_SECONDS, cancel=cancel)
        return FAIR_LABEL, self.hint(fair=True, cancel=cancel)

    def playing(self, move: SpiderMove) -> Step:
        if move.kind == "deal":
            return Step("deal")
        if move.kind == "off":
            return Step("off", move.src)
        assert move.src is not None and move.dst is not None
        return Step("drop", move.src, move.dst, len(move.cards))

    # --- actions ------------------------------------------------------------------------------

    def drop(self, src: int, dst: Target, count: int | None = None) -> SpiderMove:
        """:meth:`move`, for a drop anywhere (Spider has no foundations to drop on)."""
        if dst == FOUNDATION:
            raise IllegalMoveError("Spider has no foundations: a complete run goes off whole")
        return self.move(src, dst, count)

    def tap(self, column: int) -> SpiderMove:
        raise IllegalMoveError("Spider has no tap: pick a run, then the column it goes to")

    def move(self, src: int, dst: int, count: int | None = None) -> SpiderMove:
        """Move the top ``count`` cards of column ``src`` onto column ``dst`` (0-based); without
        ``count``, the longest run that fits there. Several cards move only as a run of one
        suit, onto a card one rank above the run's first card or into an empty column."""
        self._check_playing()
        src, dst = self._column(src, "source"), self._column(dst, "destination")
        column = self.columns[src]
        if not column.up:
            raise IllegalMoveError(f"column {src + 1} is empty")
        if count is None:
            count = self.fitting_count(src, dst)
            if count is None:
                raise IllegalMoveError(self._refusal(src, dst, 1))
        if isinstance(count, bool) or not isinstance(count, int) or not count >= 1:
            raise IllegalMoveError(f"count must be a whole number of cards, not {count!r}")
        if count > len(column.up):
            raise IllegalMoveError(f"column {src + 1} shows only {len(column.up)} cards face up")
        return self._act("run", src, dst, count)

    def fitting_count(self, src: int, dst: int) -> int | None:
        """How many cards :meth:`move` without a count carries from ``src`` to ``dst``."""
        core = self._position.core
        for count in range(len(self.columns[src].up), 0, -1):
            if core.is_legal("run", src, dst, count):
                return count
        return None

    def lift_refusal(self, src: int, count: int) -> str | None:
        """Why the top ``count`` cards of column ``src`` cannot be picked up to move as one
        (None: they can, wherever they may then go): what a front end says when the player
        tries to lift them."""
        src = self._column(src, "source")
        up = self.columns[src].up
        if not up:
            return f"column {src + 1} is empty"
        if count > len(up):
            return f"column {src + 1} shows only {len(up)} cards face up"
        if count > self.movable(src):
            run = " ".join(map(str, up[-count:]))
            return f"{run} is not a run of one suit: it cannot move as one"
        return None

    def targets(self, src: int, count: int) -> list[int]:
        """The columns the top ``count`` cards of column ``src`` may move onto as one run: the
        places a front end marks while the player holds them."""
        src = self._column(src, "source")
        core = self._position.core
        legal = [dst for dst in range(COLUMNS) if core.is_legal("run", src, dst, count)]
        return [dst for dst in legal if dst != src]

    def deal_row(self) -> SpiderMove:
        """Ten cards from the stock, one on each column (every column must hold a card)."""
        self._check_playing()
        if not self.stock:
            raise IllegalMoveError("the stock is empty (it is never redealt)")
        if any(not c.up for c in self.columns):
            raise IllegalMoveError("every column must hold a card before a deal")
        return self._act("deal", -1, -1, COLUMNS)

    def complete_runs(self) -> list[int]:
        """The columns with a complete K-A run of one suit on top (what :meth:`take_off`
        takes)."""
        core = self._position.core
        return [c for c in range(COLUMNS) if core.is_legal("off", c, -1, RUN)]

    def take_off(self, column: int | None = None) -> SpiderMove:
        """The complete K-A run of one suit on top of ``column`` off to the foundation (None:
        the first column that has one)."""
        self._check_playing()
        if column is None:
            runs = self.complete_runs()
            if not runs:
                raise IllegalMoveError("no complete K-A run of one suit to take off")
            column = runs[0]
        src = self._column(column, "source")
        if not self._position.core.is_legal("off", src, -1, RUN):
            raise IllegalMoveError(f"column {src + 1} has no complete K-A run of one suit on top")
        return self._act("off", src, -1, RUN)

    def redo(self) -> SpiderMove:
        self._check_playing()
        if not self._undone:
            raise IllegalMoveError("nothing to redo")
        move = self._undone.pop()
        kind, src, dst, count = _core_move(move)
        return self._act(kind, src, dst, count, keep_redo=True)

    def hint(
        self,
        *,
        max_seconds: float = 2.0,
        fair: bool = False,
        seed: int = 0,
        effort: FairEffort | None = None,
        cancel: Canceller | None = None,
    ) -> Hint[SpiderMove]:
        """The next move of a plan from here, or why there is none. As with :meth:`Game.hint`,
        hints are the steps of one plan, searched again only off it.

        By default the thoughtful solver's plan, a win: it sees the face-down cards and the
        stock. With ``fair``, the fair player's (``castle.game.fair``), from what the player can see
        only: its moves up to the next card turned up or row dealt ("unknown": a choice, not
        a known win), or, once nothing is hidden, the solver's win. It never leads back to a
        position played since a card last turned up; when nothing it can show leads anywhere
        new it says so (no move). ``seed`` and ``effort`` are the fair player's. ``cancel``
        stops either search (:func:`castle.solve`): then no move, ``"unknown"``."""
        if self.is_won:
            return Hint("solved", None)
        position = self._position
        plan = self._fair_plan if fair else self._hint_plan
        if plan is not None:
            step = plan.step(position)
            if step is not None:
                return Hint(plan.status, step.move, step.left if plan.status == "solved" else 0)
        if fair:
            return self._fair_hint(seed, effort, cancel)
        solution = solve_spider(position, SolveSettings(max_seconds=max_seconds, cancel=cancel))
        if solution.status != "solved" or not solution.moves:
            return Hint(solution.status, None, searched=True)
        self._hint_plan = Plan(position, solution.moves, _play_move)
        return Hint("solved", solution.moves[0], len(solution.moves), searched=True)

    def _fair_hint(
        self, seed: int, effort: FairEffort | None, cancel: Canceller | None
    ) -> Hint[SpiderMove]:
        # What the hint reads of the game, read once: a front end may move while it thinks.
        position, done = self._position, list(self._done)
        visited = _since_shown(position, [before for _, before in done])
        try:
            advice = fair_advice(position, visited=visited, seed=seed, effort=effort, cancel=cancel)
        except Cancelled:
            return Hint("unknown", None, searched=True)
        if advice.move is None:
            status: Status = "unsolvable" if advice.proved else "unknown"
            return Hint(status, None, searched=True, why=None if advice.proved else NO_MOVE_HELPS)
        status = "solved" if advice.exact else "unknown"
        self._fair_plan = Plan(position, advice.moves, _play_move, status)
        left = len(advice.moves) if advice.exact else 0
        return Hint(status, advice.move, left, searched=True)

    def since_shown(self) -> list[SpiderDeal]:
        """The positions played since a card last turned up or a row was dealt, this one
        first: the ones a fair hint does not lead back to."""
        return _since_shown(self._position, [before for _, before in self._done])

    # --- saving -------------------------------------------------------------------------------

    def to_save(self) -> dict[str, Any]:
        done = [list(_core_move(m)) for m in self.history]
        return self._save_data(done, [list(_core_move(m)) for m in self._undone])

    @classmethod
    def from_save(
        cls, data: Any, *, clock: Clock = time.monotonic, store: SaveStore | None = None
    ) -> SpiderGame:
        """The game :meth:`to_save` described, every move checked again by the core, its clock
        paused; :class:`SaveError` for anything else."""
        try:
            deal = cls._saved_deal(data, SpiderDeal.from_text, SpiderDeal.from_number)
            game = cls(deal, level_id=text_field(data["level"]), clock=clock)
            for kind, src, dst, count in map(_saved_move, data["done"]):
                game._act(kind, src, dst, count, saving=False)
            position = game._position
            for kind, src, dst, count in map(_saved_move, reversed(data["undone"])):
                # Checked in the order redo would play them, each from the position before it.
                if not position.core.is_legal(kind, src, dst, count):
                    raise SaveError("an undone move does not replay")
                game._undone.insert(0, public_move(position, kind, src, dst, count))
                position = SpiderDeal(position.core.play(kind, src, dst, count))
            game._restore(data, clock, store)
            return game
        except SaveError:
            raise
        except (IllegalMoveError, KeyError, TypeError, ValueError, IndexError, OverflowError) as e:
            raise SaveError(f"not a castle Spider save: {e}") from None

    # --- inside -------------------------------------------------------------------------------

    def _column(self, column: object, what: str) -> int:
        if isinstance(column, bool) or not isinstance(column, int) or not 0 <= column < COLUMNS:
            raise IllegalMoveError(f"{what} column must be 0 to {COLUMNS - 1}, not {column!r}")
        return column

    def _refusal(self, src: int, dst: int, count: int) -> str:
        up = self.columns[src].up
        card = up[-count]
        target = self.columns[dst].up
        if src == dst:
            return "a run cannot move onto its own column"
        if target:
            return f"{card} does not fit on {target[-1]} (one rank lower only)"
        return f"{card} cannot go to column {dst + 1}"

    def _act(
        self,
        kind: str,
        src: int,
        dst: int,
        count: int,
        *,
        keep_redo: bool = False,
        saving: bool = True,
    ) -> SpiderMove:
        core = self._position.core
        if not core.is_legal(kind, src, dst, count):
            if kind == "run":
                raise IllegalMoveError(
                    self.lift_refusal(src, count) or self._refusal(src, dst, count)
                )
            raise IllegalMoveError(f"not a legal {kind} here")
        move = public_move(self._position, kind, src, dst, count)
        before = self._position
        self._position = SpiderDeal(core.play(kind, src, dst, count))
        self._done.append((move, before))
        if not keep_redo:
            self._undone.clear()
        self._moves += 1
        self._acted(saving=saving)
        return move


def _saved_move(data: object) -> tuple[str, int, int, int]:
    """A move as a save writes it (:func:`_core_move`), checked for its shape and ranges:
    anything else is a damaged save, never a number the core cannot take."""
    if (
        not isinstance(data, list)
        or len(data) != 4
        or data[0] not in ("run", "deal", "off")
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in data[1:])
        or not all(-1 <= x < COLUMNS for x in data[1:3])
        or not 1 <= data[3] <= RUN
    ):
        raise SaveError(f"not a move: {data!r}")
    return data[0], data[1], data[2], data[3]


def _since_shown(position: SpiderDeal, before: list[SpiderDeal]) -> list[SpiderDeal]:
    """``position`` and those of ``before`` (the positions before each move, oldest first)
    played since a card was last shown. Each card shown leaves fewer hidden, so no position
    from before it can come again."""
    hidden = _hidden(position)
    positions = [position]
    for earlier in reversed(before):
        if _hidden(earlier) != hidden:
            break
        positions.append(earlier)
    return positions


def _hidden(position: SpiderDeal) -> int:
    """How many cards a player cannot see in ``position``."""
    return len(position.stock) + sum(len(c.down) for c in position.columns)


def _play_move(position: SpiderDeal, move: SpiderMove) -> SpiderDeal:
    return SpiderDeal(position.core.play(*_core_move(move)))


def _core_move(move: SpiderMove) -> tuple[str, int, int, int]:
    if move.kind == "deal":
        return ("deal", -1, -1, COLUMNS)
    assert move.src is not None
    if move.kind == "off":
        return ("off", move.src, -1, RUN)
    assert move.dst is not None
    return ("run", move.src, move.dst, len(move.cards))


__all__ = ["FAIR_LABEL", "NO_MOVE_HELPS", "THOUGHTFUL_LABEL", "SpiderGame", "SpiderHint"]
