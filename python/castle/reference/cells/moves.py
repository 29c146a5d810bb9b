"""The rules of the free-cell games (docs/rules.md §6): which single-card moves are legal,
making and taking them back, the moves the safe rule makes by itself, and the replay that
checks a win by these rules alone.

Translation of ``rust/src/cells/moves.rs`` (its single-card rules; a run moved as a unit is in
``runs``). Moves are the API's :class:`castle.CellsMove`.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...cards import Card
from ...errors import IllegalMoveError
from ...solving.cells import TO_FOUNDATION, CellsDeal, CellsMove, Place
from .state import CellsState

#: The places moves name, built once (the search makes many moves).
COLUMN = tuple(Place("column", i) for i in range(10))
CELL = tuple(Place("cell", i) for i in range(8))


def red(card: Card) -> bool:
    return card.suit in "DH"


def fits(state: CellsState, card: Card, target: Card) -> bool:
    """Whether ``card`` may go onto ``target`` in a column of ``state``'s variant."""
    if target.rank != card.rank + 1:
        return False
    build = state.rules.build
    if build == "alternate-colours":
        return red(card) != red(target)
    return build == "rank" or card.suit == target.suit


def fits_column(state: CellsState, card: Card, to: int) -> bool:
    """Whether ``card`` may go onto column ``to`` (empty or not)."""
    col = state.cols[to]
    if col:
        return fits(state, card, col[-1])
    return not state.rules.kings_only or card.rank == 13


def goes_up(state: CellsState, card: Card) -> bool:
    """Whether ``card`` is next on its foundation."""
    return state.foundations[card.suit] + 1 == card.rank


def card_at(state: CellsState, place: Place) -> Card | None:
    """The card at ``place``, if one may be taken from there (a column's top, a cell's)."""
    i = place.index
    if place.kind == "column" and i is not None and 0 <= i < len(state.cols):
        col = state.cols[i]
        return col[-1] if col else None
    if place.kind == "cell" and i is not None and 0 <= i < len(state.cells):
        return state.cells[i]
    return None


def is_legal(state: CellsState, m: CellsMove) -> bool:
    """Whether ``m`` is legal: its card on top at its source, its destination taking it."""
    if m.src == m.dst or card_at(state, m.src) != m.card:
        return False
    i = m.dst.index
    if m.dst.kind == "foundation":
        return goes_up(state, m.card)
    if i is None or i < 0:
        return False
    if m.dst.kind == "cell":
        return i < len(state.cells) and state.cells[i] is None
    if m.dst.kind == "column":
        return i < len(state.cols) and fits_column(state, m.card, i)
    return False


def apply(state: CellsState, m: CellsMove) -> None:
    """Make a legal move."""
    take(state, m.src)
    put(state, m.dst, m.card)


def undo(state: CellsState, m: CellsMove) -> None:
    """Take back ``m``, the last move made."""
    take(state, m.dst)
    put(state, m.src, m.card)


def take(state: CellsState, place: Place) -> None:
    if place.kind == "column":
        state.cols[place.index or 0].pop()
    elif place.kind == "cell":
        state.cells[place.index or 0] = None


def put(state: CellsState, place: Place, card: Card) -> None:
    if place.kind == "column":
        state.cols[place.index or 0].append(card)
    elif place.kind == "cell":
        state.cells[place.index or 0] = card
    # Putting a card up raises its foundation; taking it back down lowers it.
    if place.kind == "foundation":
        state.foundations[card.suit] = card.rank
    elif state.foundations[card.suit] >= card.rank:
        state.foundations[card.suit] = card.rank - 1


#: Each suit's suits of the other colour.
OTHER_COLOUR = {"C": "DH", "S": "DH", "D": "CS", "H": "CS"}


def is_safe(state: CellsState, card: Card) -> bool:
    """Whether ``card``, next on its foundation, can never be wanted in a column again: no
    card that could go onto it is still out (building by suit, always: only the card below it
    in its suit could, and that one is up)."""
    below = card.rank - 1
    build = state.rules.build
    if build == "suit":
        return True
    if build == "rank":
        return all(top >= below for top in state.foundations.values())
    return all(state.foundations[suit] >= below for suit in OTHER_COLOUR[card.suit])


def auto_moves(state: CellsState, out: list[CellsMove]) -> int:
    """Play every safe foundation move there is, again and again until none is left, each
    appended to ``out``: the moves the solver makes by itself. How many it made."""
    before = len(out)
    moved = True
    while moved:
        moved = False
        for c, col in enumerate(state.cols):
            while col and goes_up(state, col[-1]) and is_safe(state, col[-1]):
                m = CellsMove(col[-1], COLUMN[c], TO_FOUNDATION)
                apply(state, m)
                out.append(m)
                moved = True
        for c, card in enumerate(state.cells):
            if card is not None and goes_up(state, card) and is_safe(state, card):
                m = CellsMove(card, CELL[c], TO_FOUNDATION)
                apply(state, m)
                out.append(m)
                moved = True
    return len(out) - before


def all_legal(state: CellsState, out: list[CellsMove]) -> None:
    """Append every legal single-card move, in a fixed order: from each column's top, then
    from each cell; to the foundation, then to each column, then to each empty cell."""
    froms = COLUMN[: len(state.cols)] + CELL[: len(state.cells)]
    tos = (TO_FOUNDATION, *froms)
    for src in froms:
        card = card_at(state, src)
        if card is None:
            continue
        for dst in tos:
            m = CellsMove(card, src, dst)
            if is_legal(state, m):
                out.append(m)


def replay(deal: CellsDeal, moves: Iterable[CellsMove]) -> CellsState:
    """Play single-card ``moves`` from ``deal``, checking each by these rules; raise
    :class:`castle.IllegalMoveError` at the first illegal one. Returns the final position
    (``.is_won()`` tells whether the moves won)."""
    state = CellsState.from_deal(deal)
    for i, m in enumerate(moves):
        if not isinstance(m, CellsMove) or not is_legal(state, m):
            raise IllegalMoveError(f"move {i + 1} ({m}) is not legal here")
        apply(state, m)
    return state


def replays_to_win(deal: CellsDeal, moves: Iterable[CellsMove]) -> bool:
    """Whether ``moves`` are legal one after another from ``deal`` and win it."""
    try:
        return replay(deal, moves).is_won()
    except IllegalMoveError:
        return False
