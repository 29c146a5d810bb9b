"""The search, in three passes; the first two look for a win only.

The quick pass gives up completeness for speed: its table treats positions that differ only in
suits as one, so it never looks at a second position of the same shape. A win it finds is a
real win (its moves are legal moves from the deal); running out of moves there proves nothing.
It may expand ``QUICK_STATES`` positions, the beam pass (``beam.py``) ``BEAM_STATES`` more. The
complete pass then searches with exact keys (``compact.py``'s, kept frame by frame), going on
in layers (``layers.py``) once its table is full: every position reachable from the deal is
expanded at most once, so running out of moves proves there is no win. Each pass ends at a
fixed count of the solve's expansions or at ``max_states``, whichever comes first: a solve
under ``max_states`` is the unlimited solve cut short.

Translation of ``rust/src/castle/search.rs``. What the Rust walk does for time and memory alone
is not translated: its table in two stages (a hash set, then ``solver/packed.rs``), its
children keyed at once and prefetched, and its stack of two-byte frames and moves change no
position and no order (a Rust test runs every combination against the others).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Literal, cast

from ...deal import Deal
from ...outcome import check_limits
from ...solve import FOUNDATION, Move, Solution
from ..solver import Budget, Counter, Deadline, End, Start, Stop, finish
from .beam import beam_pass, shortest_beam
from .compact import Compact, CompactKey, child_key
from .layers import Layered, by_layer, layered
from .moves import apply, generate, play, play_automatic, replay, unwind
from .orbits import ORBITS_AFTER, orbit_pass
from .order import order_moves
from .shorten import shorten
from .state import State

Pass = Literal["quick", "complete"]

#: Expansions the quick pass may use (fewer if ``max_states`` ends the solve first).
QUICK_STATES = 1_000_000
#: Expansions the beam pass may use after the quick pass (the same proviso).
BEAM_STATES = QUICK_STATES // 10
#: The orbit pass may expand a position for every this many in the complete pass's table.
ORBIT_SHARE = 4


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


def reverse(move: Move) -> Move | None:
    """The move that takes back ``move`` (none for a move to a foundation)."""
    if move.dst == FOUNDATION:
        return None
    return Move(move.card, move.dst, move.src)


def solve(
    deal: Deal,
    *,
    max_states: int | None = None,
    max_seconds: float | None = None,
    max_cpu_seconds: float | None = None,
    short: bool = False,
    layers_after: int | None = None,
    orbits_after: int = ORBITS_AFTER,
) -> Solution:
    """Decide ``deal`` exactly as :func:`castle.solve` does: the quick pass, the beam pass,
    then (unless one won) the complete pass; with ``short``, then beam searches for a shorter
    win while the limits allow. No memory bound: the tables here are plain sets, and the
    complete pass goes on in layers only once its table holds ``layers_after`` positions (as
    ``castle._core.solve``'s does then, or at its memory bound), and first tries the orbit
    pass at ``orbits_after``."""
    check_limits(max_states, max_seconds, max_cpu_seconds=max_cpu_seconds)
    start = Start.now()

    def deadline(fraction: float) -> Deadline:
        return Deadline.after(max_seconds, max_cpu_seconds, start, fraction)

    def until(states: int) -> int:
        # A pass ends when the solve has expanded ``states``, or at the caller's state limit.
        return states if max_states is None else min(states, max_states)

    counter = Counter()
    end = search(deal, "quick", Budget(until(QUICK_STATES), deadline(0.1)), counter)
    # The beam pass (and its time up to a fifth of the limit). Enough for the deals it wins;
    # on the deals it cannot win, small beside the proof (a quarter of the quick pass's states
    # doubled the 99th percentile of Beleaguered Castle 1-2000).
    if not (end.kind == "won" or end.stop == Stop.INTERRUPTED):
        budget = Budget(until(counter.expanded + BEAM_STATES), deadline(0.2))
        end = beam_pass(deal, budget, counter)
    # The whole budget: the complete pass's, and the short mode's after it.
    budget = Budget(max_states, deadline(1.0))
    if not (end.kind == "won" or end.stop == Stop.INTERRUPTED):
        end = search(deal, "complete", budget, counter, layers_after, orbits_after)
    if end.kind == "won":
        moves = shorten(deal, end.path)
        if short:
            moves = shortest_beam(deal, moves, budget, counter)
        end = End("won", moves)

    def wins(moves: Sequence[Move]) -> bool:
        return replay(deal, moves).is_won()

    return finish(end, counter, start.wall, Solution, wins)


def search(
    deal: Deal,
    pass_: Pass,
    budget: Budget,
    counter: Counter,
    layers_after: int | None = None,
    orbits_after: int = ORBITS_AFTER,
) -> End[Move]:
    """One depth-first pass. Every new position reached is entered in the table and expanded
    once; ``counter`` counts expansions over all passes.

    The complete pass tries the orbit pass (``orbits.py``) when its table holds
    ``orbits_after`` positions, and again at each fourfold growth; its "no" ends the pass.
    It goes on in layers (``layers.py``) when its table is full (here: at
    ``layers_after`` positions), from where the walk stopped (:func:`go_on_in_layers`; the Rust
    pass does so when it has room for the table's positions, on disk or in a quarter of its
    bound, as in every test that compares the two). A win found there is a position next to a
    win; the line to it is :func:`rebuild`'s."""
    if pass_ == "quick":
        return walk(deal, None, budget, counter)
    stopped: list[Stopped] = []
    end = walk(
        deal,
        Compact(deal),
        budget,
        counter,
        most=layers_after,
        stopped=stopped,
        orbits_at=orbits_after,
    )
    if end.stop != Stop.MEMORY:
        return end
    found = go_on_in_layers(deal, stopped[0], budget, counter)
    if found.kind == "won":
        return rebuild(deal, found.key, budget, counter)
    return End(found.kind, [], found.stop)


def go_on_in_layers(deal: Deal, stopped: Stopped, budget: Budget, counter: Counter) -> Layered:
    """The layered pass from where the depth-first walk stopped: the positions of its table are
    expanded already, and the positions its untried moves lead to (and the one it stopped at)
    are the seeds, each frame's untried moves in the order it would have tried them (one that
    wins ends it there, as in the layers)."""
    compact = Compact(deal)
    # The complete pass's table holds compact keys.
    keys = cast("set[CompactKey]", stopped.table)
    visited = by_layer(compact, (k for k in keys if k != stopped.pending))
    seeds: list[CompactKey] = []
    state = State.from_deal(deal)
    applied = 0
    for frame in stopped.frames:
        for move in stopped.path[applied : frame.path_len]:
            apply(state, move)
        applied = frame.path_len
        for move in stopped.moves[frame.next : frame.end]:
            if move == frame.back:
                continue
            line: list[Move] = []
            play(state, move, line)
            if state.is_won():
                return Layered("won", frame.key)
            seeds.append(child_key(compact, frame.key, state, line))
            unwind(state, line, 0)
    seeds.append(stopped.pending)
    return layered(deal, budget, counter, by_layer(compact, seeds), visited)


def rebuild(deal: Deal, next_to_win: CompactKey, budget: Budget, counter: Counter) -> End[Move]:
    """The line to a win through ``next_to_win``, a position one move (and the automatic
    moves after it) from a win: a depth-first pass towards it that enters only the positions
    whose facts are among its own, then the winning move; or a win that pass comes upon
    first."""
    end = walk(deal, Compact(deal), budget, counter, toward=next_to_win)
    if end.kind != "won":
        assert end.kind == "limit", "the layered pass reached a position the deal cannot"
        return end
    state = replay(deal, end.path)
    if state.is_won():
        return end
    fresh: list[Move] = []
    generate(state, fresh)
    for move in fresh:
        line: list[Move] = []
        play(state, move, line)
        if state.is_won():
            return End("won", end.path + line)
        unwind(state, line, 0)
    raise AssertionError("the layered pass's position next to a win has no winning move")


def walk(
    deal: Deal,
    compact: Compact | None,
    budget: Budget,
    counter: Counter,
    most: int | None = None,
    toward: CompactKey | None = None,
    stopped: list[Stopped] | None = None,
    orbits_at: int | None = None,
) -> End[Move]:
    """The depth-first walk: keyed by rank keys (the quick pass) or by compact keys kept frame
    by frame (``compact``). The table is full at ``most`` positions; the walk then leaves in
    ``stopped`` (if given) where it stopped. A walk ``toward`` a position ends there as at a
    win, and enters only the positions that can lead there. Once the table holds
    ``orbits_at`` positions, and at each fourfold growth after, the orbit pass is tried."""
    state = State.from_deal(deal)
    table: set[Hashable] = set()
    path: list[Move] = []
    moves: list[Move] = []
    frames: list[Frame] = []
    goal_facts = 0 if compact is None or toward is None else compact.facts(toward)

    def enter(k: Hashable) -> Literal["new", "seen", "full"]:
        if k in table:
            return "seen"
        if most is not None and len(table) >= most:
            return "full"
        table.add(k)
        return "new"

    play_automatic(state, path)
    # The deal's key, kept through the automatic moves.
    kept = 0 if compact is None else child_key(compact, compact.dealt_key(), state, path)
    if state.is_won() or (toward is not None and kept == toward):
        return End("won", path)

    def full(pending: CompactKey) -> End[Move]:
        if stopped is not None:
            stopped.append(Stopped(table, path, moves, frames, pending))
        return End("limit", [], Stop.MEMORY)

    if enter(state.rank_key() if compact is None else kept) == "full":
        return full(kept)
    while True:
        # `state` is a new position, just entered in the table (and not won): expand it.
        stop = budget.spend(counter)
        if stop is not None:
            return End("limit", [], stop)
        if orbits_at is not None and len(table) >= orbits_at:
            orbits_at *= 4
            tried = orbit_pass(deal, budget, len(table) // ORBIT_SHARE, counter)
            if tried.kind == "exhausted":
                return End("exhausted", [])
            if tried.kind == "limit":
                return End("limit", [], tried.stop)
        start = len(moves)
        generate(state, moves)
        order_moves(state, moves, start)
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
            play(state, move, path)
            if state.is_won():
                return End("won", path)
            k: Hashable
            if compact is None:
                k = state.rank_key()
            else:
                k = kept = child_key(compact, frame.key, state, path[frame.path_len :])
                if k == toward:
                    return End("won", path)
            # Something done here that the goal has not: it cannot lead there.
            cannot_lead = (
                compact is not None and toward is not None and compact.facts(kept) & ~goal_facts
            )
            entered = "seen" if cannot_lead else enter(k)
            if entered == "full":
                return full(kept)
            if entered == "seen":
                unwind(state, path, frame.path_len)
                continue
            break
