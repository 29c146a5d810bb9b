"""The rules of Spider (docs/rules.md §4): legal moves, making and unmaking them, and replaying a
move list (how a claimed win is checked).

A move is the API's :class:`castle.SpiderMove`, which names the cards it carries; the Rust
move names how many (a run's ``count`` is ``len(move.cards)`` here), and a move here is legal
only if its cards are the ones it would carry.

Translation of ``rust/src/spider/moves.rs``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...cards import Card
from ...errors import IllegalMoveError
from ...solving.spider import SpiderDeal, SpiderMove
from .state import COLUMNS, Col, SpiderState

RUN = 13


def run_move(state: SpiderState, src: int, dst: int, count: int) -> SpiderMove:
    """The top ``count`` cards of column ``src`` onto column ``dst``."""
    return SpiderMove("run", tuple(state.cols[src].cards[-count:]), src, dst)


def deal_move(state: SpiderState) -> SpiderMove:
    """The next ten cards of the stock, one on each column."""
    return SpiderMove("deal", tuple(state.stock[state.dealt : state.dealt + COLUMNS]))


def off_move(state: SpiderState, col: int) -> SpiderMove:
    """The K-A run on top of column ``col`` taken off."""
    return SpiderMove("off", tuple(state.cols[col].cards[-RUN:]), col)


def can_deal(state: SpiderState) -> bool:
    """Whether the stock may be dealt: cards are left in it, and no column is empty."""
    return bool(state.stock_left()) and all(c.cards for c in state.cols)


def tops_a_complete_run(col: Col) -> bool:
    """Whether ``col`` shows a complete K-A run on top: a run that may go off."""
    return col.run_len() >= RUN and col.cards[-RUN].rank == 13


def is_legal(state: SpiderState, m: SpiderMove) -> bool:
    n = len(state.cols)
    if m.kind == "run":
        src, dst, count = m.src, m.dst, len(m.cards)
        if src is None or dst is None or not (0 <= src < n and 0 <= dst < n):
            return False
        if src == dst or count < 1:
            return False
        source = state.cols[src]
        if count > source.run_len() or tuple(source.cards[-count:]) != m.cards:
            return False
        bottom = m.cards[0]
        target = state.cols[dst].top()
        return target is None or target.rank == bottom.rank + 1
    if m.kind == "deal":
        return can_deal(state) and m == deal_move(state)
    if m.kind == "off":
        if m.src is None or not 0 <= m.src < n:
            return False
        return tops_a_complete_run(state.cols[m.src]) and m == off_move(state, m.src)
    return False


def turn_up(state: SpiderState, col: int) -> bool:
    """A column left with no face-up card turns its top face-down card up."""
    c = state.cols[col]
    if c.down > 0 and c.down == len(c.cards):
        c.down -= 1
        return True
    return False


def apply(state: SpiderState, m: SpiderMove) -> bool:
    """Make a legal move; return whether a face-down card turned up (for :func:`undo`)."""
    if m.kind == "deal":
        for i in range(COLUMNS):
            state.cols[i].cards.append(state.stock[state.dealt + i])
        state.dealt += COLUMNS
        return False
    src = m.src
    assert src is not None
    source = state.cols[src].cards
    if m.kind == "run":
        assert m.dst is not None
        count = len(m.cards)
        state.cols[m.dst].cards.extend(source[-count:])
        del source[-count:]
        return turn_up(state, src)
    state.off.append(source[-RUN].suit)
    del source[-RUN:]
    return turn_up(state, src)


def undo(state: SpiderState, m: SpiderMove, turned: bool) -> None:
    """Take back ``m``, the last move made; ``turned`` is what :func:`apply` returned."""
    if m.kind == "deal":
        state.dealt -= COLUMNS
        for col in state.cols:
            col.cards.pop()
        return
    src = m.src
    assert src is not None
    if turned:
        state.cols[src].down += 1
    if m.kind == "run":
        assert m.dst is not None
        count = len(m.cards)
        target = state.cols[m.dst].cards
        state.cols[src].cards.extend(target[-count:])
        del target[-count:]
    else:
        suit = state.off.pop()
        state.cols[src].cards.extend(Card(rank, suit) for rank in range(13, 0, -1))


def generate(state: SpiderState, prune: bool, out: list[SpiderMove]) -> None:
    """Every legal move, in the Rust order: runs column by column (shorter runs first, then
    each target column), then runs off, then the deal. With ``prune``: into the first empty
    column only, and never a whole column (no face-down card under it) into an empty one."""
    n = len(state.cols)
    first_empty = next((i for i, c in enumerate(state.cols) if not c.cards), None)
    for src, source in enumerate(state.cols):
        for count in range(1, source.run_len() + 1):
            cards = tuple(source.cards[-count:])
            bottom = cards[0]
            whole_column = source.down == 0 and count == len(source.cards)
            for dst in range(n):
                if dst == src:
                    continue
                target = state.cols[dst].top()
                if target is not None:
                    fits = target.rank == bottom.rank + 1
                else:
                    fits = not prune or (dst == first_empty and not whole_column)
                if fits:
                    out.append(SpiderMove("run", cards, src, dst))
    for col in range(n):
        if tops_a_complete_run(state.cols[col]):
            out.append(off_move(state, col))
    if can_deal(state):
        out.append(deal_move(state))


def replay(deal: SpiderDeal, moves: Iterable[SpiderMove]) -> SpiderState:
    """Play ``moves`` from ``deal``, checking each; raise :class:`IllegalMoveError` (a
    ``ValueError``) at the first illegal one. Returns the final position (``.is_won()`` tells
    whether the moves won)."""
    state = SpiderState.from_deal(deal)
    for i, m in enumerate(moves):
        if not is_legal(state, m):
            raise IllegalMoveError(f"move {i + 1} ({m}) is not legal here")
        apply(state, m)
    return state
