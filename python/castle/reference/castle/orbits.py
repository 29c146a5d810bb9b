"""The orbit pass: a proof of "no win" over positions up to relabelings of free same-rank cards.

Within a layer every move goes onto a card one rank higher or into an empty column, so suits
play no part there. A tableau card is *free* when it is above the next card of its suit's
foundation and neither lies on nor under a one-way dealt link; swapping free cards of one rank
maps positions to positions and moves to moves. The pass searches orbits (canonical form and
one member reached), joins into blocks the cards two members of one orbit show to stand for
one another, and, where a move sends a card up, makes one child for each card of the block of
that suit's next card. Every position reachable from the deal is then a relabeling within
blocks of a kept member, so finding no win is a proof; a win found proves nothing (a block may
allow a relabeling no line makes). The argument in full is in ``rust/src/castle/orbits.rs``.

Translation of ``rust/src/castle/orbits.rs``: the same orbits, blocks and expansions, in the
same order; no memory bound here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from ...cards import CARDS, Card
from ...deal import Deal
from ...solve import FOUNDATION, Move
from ..solver import Budget, Counter, Stop
from .compact import Compact, CompactKey, child_key
from .layers import LAYERS
from .moves import apply, generate, next_automatic, play, play_automatic, unwind
from .state import State

#: The complete pass's table size at which it first tries the orbit pass.
ORBITS_AFTER = 1 << 21


@dataclass
class Orbital:
    """How the orbit pass ended: ``"exhausted"`` (no win: a proof), ``"undecided"`` (perhaps a
    win, or its own bound reached) or ``"limit"`` (``stop``, a limit of the solve's)."""

    kind: Literal["exhausted", "undecided", "limit"]
    stop: Stop | None = None


class Blocks:
    """Cards shown to stand for one another, as sets (a union-find forest by card index)."""

    def __init__(self) -> None:
        self.parent = list(range(52))

    def find(self, a: int) -> int:
        while self.parent[a] != a:
            self.parent[a] = self.parent[self.parent[a]]
            a = self.parent[a]
        return a

    def join(self, a: int, b: int) -> None:
        self.parent[self.find(a)] = self.find(b)

    def whole(self, cards: set[int]) -> bool:
        """Whether the cards of ``cards`` of each rank are all in one block."""
        return all(
            len({self.find(i) for i in cards if CARDS[i].rank == rank}) <= 1
            for rank in range(1, 14)
        )


def free_cards(compact: Compact, state: State) -> set[int]:
    """The free cards of ``state`` (by index): in the tableau, above the next card of their
    suit's foundation, neither on nor under a card they were dealt on that is not one rank
    higher."""
    tableau: set[int] = set()
    pinned: set[int] = set()
    for column in state.columns:
        for j, card in enumerate(column):
            tableau.add(card.index)
            if card.rank <= state.foundations[card.suit] + 1:
                pinned.add(card.index)
            if j > 0 and compact.on_one_way(card, column[j - 1].index + 1):
                pinned |= {card.index, column[j - 1].index}
    return tableau - pinned


def canon(compact: Compact, state: State) -> tuple[CompactKey, dict[int, int]]:
    """The key of ``state``'s orbit, and the relabeling that takes ``state`` to it (each free
    card's index to the index of the card it becomes). The canonical member: each column read
    bottom up as pinned cards and ranks of free cards, the columns in that order, then the
    free cards of each rank dealt out in it, lowest index first."""
    free = free_cards(compact, state)
    # Above every index, so that a pinned card sorts first.
    tokens = [
        tuple(64 + c.rank if c.index in free else c.index for c in column)
        for column in state.columns
    ]
    order = sorted(range(len(state.columns)), key=lambda col: (tokens[col], col))
    left = sorted(free)
    relabel: dict[int, int] = {}
    columns: list[list[Card]] = []
    for col in order:
        out: list[Card] = []
        for card in state.columns[col]:
            if card.index in free:
                put = next(i for i in left if CARDS[i].rank == card.rank)
                left.remove(put)
                relabel[card.index] = put
                out.append(CARDS[put])
            else:
                out.append(card)
        columns.append(out)
    return compact.encode(State(columns, state.foundations)), relabel


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


def branch(compact: Compact, blocks: Blocks, state: State, move: Move) -> list[State]:
    """The children of ``state`` by ``move`` and the automatic moves after it, branched at each
    move up (:func:`up`)."""
    todo: list[State] = []
    if move.dst == FOUNDATION:
        up(compact, blocks, state, move, todo)
    else:
        after = state.copy()
        apply(after, move)
        todo.append(after)
    done: list[State] = []
    while todo:
        s = todo.pop()
        auto = next_automatic(s)
        if auto is None:
            done.append(s)
        else:
            up(compact, blocks, s, auto, todo)
    return done


def note(
    compact: Compact,
    blocks: Blocks,
    table: dict[CompactKey, CompactKey],
    orbit: CompactKey,
    member: CompactKey,
    free: set[int],
) -> bool:
    """Enter ``member`` as ``orbit``'s (True), or, if the orbit has another member, join the
    blocks by the relabeling between the two (``free``: the orbit's free cards; nothing to
    join if the blocks hold each rank of them whole already)."""
    old = table.get(orbit)
    if old is None:
        table[orbit] = member
        return True
    if old != member and not blocks.whole(free):
        _, to = canon(compact, compact.decode(old))
        _, source = canon(compact, compact.decode(member))
        back = {c: i for i, c in source.items()}
        for i, c in sorted(to.items()):
            blocks.join(i, back[c])
    return False


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
    most ``cap`` expansions (each orbit is expanded twice: within its layer, then out of
    it)."""
    until = counter.expanded + cap

    def spend() -> Orbital | None:
        if counter.expanded >= until:
            return Orbital("undecided")
        stop = budget.spend(counter)
        return None if stop is None else Orbital("limit", stop)

    compact = Compact(deal)
    blocks = Blocks()
    state = State.from_deal(deal)
    play_automatic(state, [])
    if state.is_won():
        return Orbital("undecided")
    layers: list[dict[CompactKey, CompactKey]] = [{} for _ in range(LAYERS)]
    root, _ = canon(compact, state)
    layers[compact.layer(root)][root] = compact.encode(state)
    for p in range(LAYERS):
        table = layers[p]
        layers[p] = {}
        # Within the layer, breadth first: each orbit's children by the moves that keep it.
        level = sorted(table)
        while level:
            following: list[CompactKey] = []
            for x in level:
                if (end := spend()) is not None:
                    return end
                member = table[x]
                for state, _, child in each_move(compact, member, compact.decode(member)):
                    if state.is_won():
                        return Orbital("undecided")
                    if compact.layer(child) == p:
                        orbit, relabel = canon(compact, state)
                        if note(compact, blocks, table, orbit, child, set(relabel)):
                            following.append(orbit)
            level = sorted(following)
        # Out of the layer, with every block the layer joined.
        for x in sorted(table):
            if (end := spend()) is not None:
                return end
            member = table[x]
            state = compact.decode(member)
            out = [m for _, m, c in each_move(compact, member, state) if compact.layer(c) != p]
            for move in out:
                for s in branch(compact, blocks, state, move):
                    if s.is_won():
                        return Orbital("undecided")
                    orbit, relabel = canon(compact, s)
                    q = compact.layer(orbit)
                    assert q > p
                    note(compact, blocks, layers[q], orbit, compact.encode(s), set(relabel))
    return Orbital("exhausted")
