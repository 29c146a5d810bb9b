"""The rules of Spider (``spider/moves.rs``): legal moves, making and unmaking them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...cards import Card
from ...spider import SpiderDeal
from .state import COLUMNS, SpiderState

RUN = 13


@dataclass(frozen=True)
class SpiderMove:
    """``kind`` "run" (the top ``count`` cards of ``src`` onto ``dst``), "deal" (ten cards
    from the stock) or "off" (the K-A run on top of ``src`` taken off)."""

    kind: str
    src: int = -1
    dst: int = -1
    count: int = 0


DEAL = SpiderMove("deal")


def is_legal(state: SpiderState, m: SpiderMove) -> bool:
    if m.kind == "run":
        n = len(state.cols)
        if not (0 <= m.src < n and 0 <= m.dst < n) or m.src == m.dst or m.count < 1:
            return False
        source = state.cols[m.src]
        if m.count > source.run_len():
            return False
        bottom = source.cards[-m.count]
        target = state.cols[m.dst].top()
        return target is None or target.rank == bottom.rank + 1
    if m.kind == "deal":
        return bool(state.stock_left()) and all(c.cards for c in state.cols)
    if m.kind == "off":
        if not 0 <= m.src < len(state.cols):
            return False
        col = state.cols[m.src]
        return col.run_len() >= RUN and col.cards[-RUN].rank == 13
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
    if m.kind == "run":
        source = state.cols[m.src].cards
        state.cols[m.dst].cards.extend(source[-m.count :])
        del source[-m.count :]
        return turn_up(state, m.src)
    if m.kind == "deal":
        for i in range(COLUMNS):
            state.cols[i].cards.append(state.stock[state.dealt + i])
        state.dealt += COLUMNS
        return False
    cards = state.cols[m.src].cards
    state.off.append(cards[-RUN].suit)
    del cards[-RUN:]
    return turn_up(state, m.src)


def undo(state: SpiderState, m: SpiderMove, turned: bool) -> None:
    if m.kind == "run":
        if turned:
            state.cols[m.src].down += 1
        target = state.cols[m.dst].cards
        state.cols[m.src].cards.extend(target[-m.count :])
        del target[-m.count :]
    elif m.kind == "deal":
        state.dealt -= COLUMNS
        for col in state.cols:
            col.cards.pop()
    else:
        if turned:
            state.cols[m.src].down += 1
        suit = state.off.pop()
        state.cols[m.src].cards.extend(Card(rank, suit) for rank in range(13, 0, -1))


def generate(state: SpiderState, prune: bool, out: list[SpiderMove]) -> None:
    """Every legal move, in the Rust order: runs column by column (shorter runs first, then
    each target column), then runs off, then the deal. With ``prune``: into the first empty
    column only, and never a whole column (no face-down card under it) into an empty one."""
    n = len(state.cols)
    first_empty = next((i for i, c in enumerate(state.cols) if not c.cards), None)
    for src, source in enumerate(state.cols):
        for count in range(1, source.run_len() + 1):
            bottom = source.cards[-count]
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
                    out.append(SpiderMove("run", src, dst, count))
    for col in range(n):
        m = SpiderMove("off", col)
        if is_legal(state, m):
            out.append(m)
    if is_legal(state, DEAL):
        out.append(DEAL)


def replay(deal: SpiderDeal, moves: Sequence[SpiderMove]) -> SpiderState:
    """The position after ``moves`` from ``deal``; ``ValueError`` at the first illegal one."""
    state = SpiderState.from_deal(deal)
    for i, m in enumerate(moves):
        if not is_legal(state, m):
            raise ValueError(f"move {i + 1} ({m}) is not legal there")
        apply(state, m)
    return state
