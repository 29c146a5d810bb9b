"""The depth-first walk of the castle passes: each new position entered in the pass's table and
expanded once, its moves in order (``order.py``); where it stopped when its table was full,
for the layers to go on from (``hand_off.py``).

Translation of ``rust/src/castle/walk.rs`` (its plain walk too), and of the keys it asks
(``keys.rs``: rank keys in the quick pass, compact keys kept frame by frame in the complete
pass). What the Rust walk
does for time and memory alone is not translated: its table in two stages (a hash set, then
``solver/packed.rs``), its children keyed at once and prefetched, and its stack of two-byte
frames and moves change no position and no order (a Rust test runs every combination against
the others).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Literal, Protocol

from ...solving.deal import Deal
from ...solving.solve import FOUNDATION, Move
from ..solver import Budget, Counter, End, Stop
from .compact import Compact, CompactKey, child_key
from .moves import generate, play, play_automatic, unwind
from .order import Order, order_moves, plain_order
from .state import State


@dataclass
class Frame:
    """A position on the search stack: its moves are ``moves[start:end]``, ``next`` is the one
    to try next, and ``path_len`` is the length of the move path that reached it."""

    start: int
    end: int
    next: int
    path_len: int
    #: The move back to the parent position, when one move (and no automatic move) led here.
    back: Move | None
    #: The position's compact key (the complete pass; 0 in the quick pass).
    key: CompactKey


@dataclass
class Stopped:
    """Where a depth-first walk stopped when its table was full: its table, its stack (the
    path, the moves, the frames), and the position it had reached but not entered."""

    table: set[Hashable]
    path: list[Move]
    moves: list[Move]
    frames: list[Frame]
    pending: CompactKey


#: The plain walk (:func:`plain_walk`): from the deal, within the budget, its expansions counted.
PlainWalk = Callable[[Deal, Budget, Counter], End[Move]]


class MakesTries(Protocol):
    """The complete pass's tries as the walk makes them (``tries.py``'s ``Tries``, which the
    complete pass gives it, as the Rust pass's keys hold them)."""

    def due(self, positions: int) -> bool: ...

    def make(
        self, positions: int, deal: Deal, budget: Budget, counter: Counter, plain_walk: PlainWalk
    ) -> End[Move] | None: ...


def reverse(move: Move) -> Move | None:
    """The move that takes back ``move`` (none for a move to a foundation)."""
    if move.dst == FOUNDATION:
        return None
    return Move(move.card, move.dst, move.src)


def walk(
    deal: Deal,
    compact: Compact | None,
    budget: Budget,
    counter: Counter,
    most: int | None = None,
    toward: CompactKey | None = None,
    stopped: list[Stopped] | None = None,
    tries: MakesTries | None = None,
    order: Order = "castle",
) -> End[Move]:
    """The depth-first walk: keyed by rank keys (the quick pass) or by compact keys kept frame
    by frame (``compact``), each position's moves tried in ``order`` (``order.py``). The table
    is full at ``most`` positions; the walk then leaves in ``stopped`` (if given) where it
    stopped. A walk ``toward`` a position ends there as at a win, and enters only the positions
    that can lead there. The walk makes its ``tries`` (if given) when they are due, as its
    table grows."""
    state = State.from_deal(deal)
    table: set[Hashable] = set()
    path: list[Move] = []
    moves: list[Move] = []
    frames: list[Frame] = []
    goal_facts = 0 if compact is None or toward is None else compact.facts(toward)

    def key(parent: CompactKey, moved: list[Move]) -> CompactKey:
        """The compact key of ``state``, where only the cards of ``moved`` lie otherwise than in
        the position keyed ``parent`` (0 in the quick pass, which keys a position by its shape
        as it enters it)."""
        return 0 if compact is None else child_key(compact, parent, state, moved)

    def enter(k: CompactKey) -> Literal["new", "seen", "full"]:
        """Enters ``state`` (keyed ``k``) in the table: its shape in the quick pass, its compact
        key in the complete pass."""
        # Something done here that the goal has not: it cannot lead there.
        if compact is not None and toward is not None and compact.facts(k) & ~goal_facts:
            return "seen"
        entry: Hashable = state.rank_key() if compact is None else k
        if entry in table:
            return "seen"
        if most is not None and len(table) >= most:
            return "full"
        table.add(entry)
        return "new"

    play_automatic(state, path)
    # The deal's key, kept through the automatic moves.
    kept = key(0 if compact is None else compact.dealt_key(), path)
    if state.is_won() or (toward is not None and kept == toward):
        return End("won", path)

    def full(pending: CompactKey) -> End[Move]:
        if stopped is not None:
            stopped.append(Stopped(table, path, moves, frames, pending))
        return End("limit", [], Stop.MEMORY)

    if enter(kept) == "full":
        return full(kept)
    while True:
        # `state` is a new position, just entered in the table (and not won): expand it.
        stop = budget.spend(counter)
        if stop is not None:
            return End("limit", [], stop)
        if tries is not None and tries.due(len(table)):
            tried = tries.make(len(table), deal, budget, counter, plain_walk)
            if tried is not None:
                return tried
        start = len(moves)
        generate(state, moves)
        (order_moves if order == "castle" else plain_order)(state, moves, start)
        # Reached by one move and no automatic ones: that move's reverse leads back to the
        # parent, which is in the table, so it is known to be seen without a lookup.
        by_one_move = bool(frames) and frames[-1].path_len + 1 == len(path)
        back = reverse(path[-1]) if by_one_move else None
        frames.append(Frame(start, len(moves), start, len(path), back, kept))

        # Find the next new position: try the next move of the deepest frame, backtracking
        # from frames whose moves are all tried.
        while True:
            if not frames:
                return End("exhausted", [])
            frame = frames[-1]
            if frame.next == frame.end:
                del moves[frame.start :]
                frames.pop()
                if frames:
                    unwind(state, path, frames[-1].path_len)
                continue
            move = moves[frame.next]
            frame.next += 1
            if move == frame.back:
                continue
            # The child: its move made, keyed, entered unless it is won.
            play(state, move, path)
            child = key(frame.key, path[frame.path_len :])
            won = state.is_won() or (toward is not None and child == toward)
            entered = "new" if won else enter(child)
            if entered == "full":
                return full(child)
            if entered == "seen":
                unwind(state, path, frame.path_len)
                continue
            if won:
                return End("won", path)
            kept = child
            break


def plain_walk(deal: Deal, budget: Budget, counter: Counter) -> End[Move]:
    """The plain walk: the walk again, from the deal, with its own table, its moves tried in the
    plain order (``order.py``'s ``plain_order``: by kind of move, then by column), fc-solve's
    default search. The complete pass makes it among its tries and takes only its win. Its
    expansions are counted in ``counter``; it ends in a win, out of moves, or at a limit."""
    return walk(deal, Compact(deal), budget, counter, order="plain")
