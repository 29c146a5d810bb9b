"""The orbit pass: a proof of "no win" over positions up to relabelings of free same-rank cards.

Within a layer every move goes onto a card one rank higher or into an empty column, so suits
play no part there. A tableau card is *free* when it is above the next card of its suit's
foundation and neither lies on nor under a one-way dealt link; swapping free cards of one rank
maps positions to positions and moves to moves. The pass searches orbits (canonical form, one
member reached, and blocks of the cards shown to stand for one another in it: by two members
of the orbit, or by the blocks of a parent), and, where a move sends a card up, makes one child
for each card of the block of that suit's next card. Every position reachable from the deal is
then a relabeling within its orbit's blocks of the orbit's member, so finding no win is a proof;
a win found proves nothing (a block may allow a relabeling no line makes). The argument in full
is in ``rust/src/castle/orbits.rs``.

Translation of ``rust/src/castle/orbits.rs``: the same orbits, blocks and expansions, in the
same order; no memory bound here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from ...cards import CARDS
from ...solving.deal import Deal
from ...solving.solve import FOUNDATION, Move
from ..solver import Budget, Counter, Stop
from .canon import canon, free_cards
from .compact import Compact, CompactKey, child_key
from .layers import LAYERS
from .moves import apply, generate, next_automatic, play, play_automatic, unwind
from .state import State

#: The complete pass's table size at which it first makes its tries (``tries.py``): an odd
#: power of two, so that with fourfold growth the tries of 2^21, 2^23, ... stay.
ORBITS_AFTER = 1 << 17


@dataclass
class Orbital:
    """How the orbit pass ended: ``"exhausted"`` (no win: a proof), ``"undecided"`` (perhaps a
    win, or its own bound reached) or ``"limit"`` (``stop``, a limit of the solve's)."""

    kind: Literal["exhausted", "undecided", "limit"]
    stop: Stop | None = None


class Blocks:
    """Cards shown to stand for one another in an orbit's positions, as sets: each card's entry
    is the lowest index of its block."""

    def __init__(self) -> None:
        self.root = list(range(52))

    def copy(self) -> Blocks:
        out = Blocks()
        out.root = self.root.copy()
        return out

    def find(self, a: int) -> int:
        return self.root[a]

    def join(self, a: int, b: int) -> bool:
        """Join the blocks of ``a`` and ``b``: whether they were two."""
        a, b = self.root[a], self.root[b]
        if a == b:
            return False
        low, high = min(a, b), max(a, b)
        self.root = [low if r == high else r for r in self.root]
        return True

    def absorb(self, other: Blocks) -> bool:
        """Join every block of ``other``'s into these: whether any grew."""
        grew = False
        for i in range(52):
            grew |= self.join(i, other.find(i))
        return grew

    def among(self, cards: set[int]) -> Blocks:
        """These blocks among the cards of ``cards``, every other card alone."""
        out = Blocks()
        first: dict[int, int] = {}
        for i in sorted(cards):
            block = self.find(i)
            if block in first:
                out.join(first[block], i)
            else:
                first[block] = i
        return out


@dataclass
class Orbit:
    """An orbit as the pass keeps it: the member it reached first, the relabeling that takes
    the member to the orbit's key (:func:`canon`), the blocks within which every position of
    the orbit reachable from the deal is a relabeling of that member, and whether a move leaves
    the layer from it (known once it has been expanded)."""

    member: CompactKey
    relabel: dict[int, int]
    blocks: Blocks
    exits: bool = False


def swapped(state: State, a: int, b: int) -> State:
    """``state`` with cards ``a`` and ``b`` (by index) in each other's places."""
    swap = {a: CARDS[b], b: CARDS[a]}
    columns = [[swap.get(c.index, c) for c in column] for column in state.columns]
    return State(columns, state.foundations)


def up(compact: Compact, blocks: Blocks, state: State, move: Move, todo: list[State]) -> None:
    """Make ``move``, a move up, from ``state``: the position after it, once for each card of
    the block of the suit's next card (that card in its place), onto ``todo``."""
    free = free_cards(compact, state)
    after = state.copy()
    apply(after, move)
    following = move.card.index + 1
    if move.card.rank == 13 or following not in free:
        todo.append(after)
        return
    block = blocks.find(following)
    for e in sorted(free):
        if blocks.find(e) == block:
            todo.append(after.copy() if e == following else swapped(after, following, e))


def within(compact: Compact, blocks: Blocks, state: State) -> tuple[object, ...]:
    """``state`` up to relabelings within ``blocks`` among its free cards: its foundations,
    then its columns in order, each read bottom up as pinned cards and the blocks of free
    cards."""
    free = free_cards(compact, state)
    columns = sorted(
        tuple(64 + blocks.find(c.index) if c.index in free else c.index for c in column)
        for column in state.columns
    )
    return (tuple(sorted(state.foundations.items())), *columns)


def branch(compact: Compact, blocks: Blocks, state: State, move: Move) -> list[State]:
    """The children of ``state`` by ``move`` and the automatic moves after it, branched at each
    move up (:func:`up`). Once it has branched, a position equal to one made already up to
    relabelings within the blocks is passed over (its children stand for no position more)."""
    todo: list[State] = []
    if move.dst == FOUNDATION:
        up(compact, blocks, state, move, todo)
    else:
        after = state.copy()
        apply(after, move)
        todo.append(after)
    done: list[State] = []
    seen: set[tuple[object, ...]] = set()
    branched = False
    while todo:
        s = todo.pop()
        branched |= bool(todo)
        if branched:
            key = within(compact, blocks, s)
            if key in seen:
                continue
            seen.add(key)
        auto = next_automatic(s)
        if auto is None:
            done.append(s)
        else:
            up(compact, blocks, s, auto, todo)
    return done


def note(
    table: dict[CompactKey, Orbit],
    orbit: CompactKey,
    member: CompactKey,
    relabel: dict[int, int],
    blocks: Blocks,
) -> Literal["new", "grew", "same"]:
    """Enter ``member``, whose positions reachable are its relabelings within ``blocks``, in
    ``orbit`` (``relabel``: the relabeling that takes it to the orbit's key, from
    :func:`canon`). A known orbit takes the blocks in, and if its member is another position,
    the relabeling between the two."""
    known = table.get(orbit)
    if known is None:
        table[orbit] = Orbit(member, relabel, blocks.copy())
        return "new"
    # Most children share their parent's blocks, and many their orbit's.
    grew = known.blocks.root != blocks.root and known.blocks.absorb(blocks)
    if known.member != member and known.relabel != relabel:
        back = {c: i for i, c in relabel.items()}
        for i, c in sorted(known.relabel.items()):
            grew |= known.blocks.join(i, back[c])
    return "grew" if grew else "same"


def each_move(
    compact: Compact, member: CompactKey, state: State
) -> Iterator[tuple[State, Move, CompactKey]]:
    """Make each move ``generate`` gives from ``state`` (the position keyed ``member``), with
    the automatic moves after it: the position it leads to, the move and the child's key; the
    move is taken back when the next is asked for."""
    fresh: list[Move] = []
    generate(state, fresh)
    for move in fresh:
        line: list[Move] = []
        play(state, move, line)
        yield state, move, child_key(compact, member, state, line)
        unwind(state, line, 0)


def orbit_pass(deal: Deal, budget: Budget, cap: int, counter: Counter) -> Orbital:
    """Search the orbits of every position reachable from ``deal``, layer by layer, for at
    most ``cap`` expansions (each orbit within its layer, again whenever its blocks grow, and
    once more out of it if a move leaves the layer from it)."""
    until = counter.expanded + cap

    def spend() -> Orbital | None:
        if counter.expanded >= until:
            return Orbital("undecided")
        stop = budget.spend(counter)
        return None if stop is None else Orbital("limit", stop)

    compact = Compact(deal)
    state = State.from_deal(deal)
    play_automatic(state, [])
    if state.is_won():
        return Orbital("undecided")
    layers: list[dict[CompactKey, Orbit]] = [{} for _ in range(LAYERS)]
    root, relabel = canon(compact, state, free_cards(compact, state))
    layers[compact.layer(root)][root] = Orbit(compact.encode(state), relabel, Blocks())
    for p in range(LAYERS):
        table = layers[p]
        layers[p] = {}
        # Within the layer, breadth first: each orbit's children by the moves that keep it,
        # again whenever its blocks grow, until they grow no more.
        level = sorted(table)
        while level:
            following: set[CompactKey] = set()
            for x in level:
                if (end := spend()) is not None:
                    return end
                member, blocks = table[x].member, table[x].blocks.copy()
                state = compact.decode(member)
                free = free_cards(compact, state)
                exits = False
                for made, _, child in each_move(compact, member, state):
                    if made.is_won():
                        return Orbital("undecided")
                    if compact.layer(child) != p:
                        exits = True
                        continue
                    # The same free cards as the parent's: no card went up or off a link.
                    orbit, relabel = canon(compact, made, free)
                    if note(table, orbit, child, relabel, blocks) != "same":
                        following.add(orbit)
                table[x].exits = exits
            level = sorted(following)
        # Out of the layer, with each orbit's blocks as the layer left them.
        for x in sorted(table):
            member, blocks, exits = table[x].member, table[x].blocks, table[x].exits
            if not exits:
                continue
            if (end := spend()) is not None:
                return end
            state = compact.decode(member)
            out = [m for _, m, c in each_move(compact, member, state) if compact.layer(c) != p]
            for move in out:
                for s in branch(compact, blocks, state, move):
                    if s.is_won():
                        return Orbital("undecided")
                    free = free_cards(compact, s)
                    orbit, relabel = canon(compact, s, free)
                    q = compact.layer(orbit)
                    assert q > p
                    note(layers[q], orbit, compact.encode(s), relabel, blocks.among(free))
    return Orbital("exhausted")
