"""Spider move ordering: which move the search tries first.

Translation of ``rust/src/spider/order.rs``.
"""

from __future__ import annotations

from ...solving.spider import SpiderMove
from .estimate import estimate
from .moves import apply, undo
from .state import SpiderState


def priority(state: SpiderState, m: SpiderMove) -> int:
    """Lower is tried first; the classes of ``spider/order.rs``, longer runs first within."""
    if m.kind == "off":
        return 0
    if m.kind == "deal":
        return 7 << 8
    assert m.src is not None and m.dst is not None
    count = len(m.cards)
    source = state.cols[m.src]
    rest = len(source.cards) - count
    bottom = source.cards[rest]
    under = source.cards[rest - 1] if rest > 0 else None
    target = state.cols[m.dst].top()
    if under is not None and rest == source.down:
        cls = 1
    elif (
        under is not None
        and rest > source.down
        and under.suit == bottom.suit
        and under.rank == bottom.rank + 1
    ):
        cls = 6
    elif target is not None and target.suit == bottom.suit:
        cls = 2
    elif target is not None and under is None:
        cls = 3
    elif target is not None:
        cls = 4
    else:
        cls = 5
    return (cls << 8) + (64 - count)


def order_moves(state: SpiderState, moves: list[SpiderMove], start: int) -> None:
    """Sort ``moves[start:]`` into search order (stable): by how near a win the position
    after each move looks (the beams' estimate), then by class."""

    def key(m: SpiderMove) -> tuple[int, int]:
        # Made and taken back in place, as in spider/order.rs.
        cls = priority(state, m)
        turned = apply(state, m)
        near = estimate(state)
        undo(state, m, turned)
        return (near, cls)

    moves[start:] = sorted(moves[start:], key=key)
