"""The rules of play (docs/rules.md §1): legal single-card moves, making and unmaking them, the
safe automatic foundation moves, and replaying a move list (how a claimed win is checked).

Translation of ``rust/src/castle/moves.rs``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...cards import Card
from ...errors import IllegalMoveError
from ...solving.deal import Deal
from ...solving.solve import FOUNDATION, Move
from .state import State


def fits_foundation(state: State, card: Card) -> bool:
    """``card`` is the next rank of its suit's foundation."""
    return state.foundations[card.suit] + 1 == card.rank


def fits_on(card: Card, target: Card) -> bool:
    """``card`` may go onto ``target``: exactly one rank lower, suit ignored."""
    return card.rank + 1 == target.rank


def is_legal(state: State, move: Move) -> bool:
    if not 0 <= move.src < len(state.columns) or state.top(move.src) != move.card:
        return False
    if move.dst == FOUNDATION:
        return fits_foundation(state, move.card)
    if not isinstance(move.dst, int) or not 0 <= move.dst < len(state.columns):
        return False
    if move.dst == move.src:
        return False
    target = state.top(move.dst)
    return target is None or fits_on(move.card, target)  # an empty column takes any card


def apply(state: State, move: Move) -> None:
    """Make a legal move."""
    card = state.pop(move.src)
    if move.dst == FOUNDATION:
        state.foundations[card.suit] = card.rank
    else:
        state.push(move.dst, card)


def undo(state: State, move: Move) -> None:
    """Take back ``move``, the last move made."""
    if move.dst == FOUNDATION:
        state.foundations[move.card.suit] = move.card.rank - 1
    else:
        state.pop(move.dst)
    state.push(move.src, move.card)


def generate(state: State, out: list[Move]) -> None:
    """Append every legal move worth searching, in the agreed order: column by column, the top
    card to its foundation, then onto each other column in order. Left out, because they can
    only lead to a position with the same key: a column's only card into an empty column, and
    a card into any empty column but the first."""
    enumerate_moves(state, True, out)


def all_legal(state: State, out: list[Move]) -> None:
    """Append every legal move, in the same order as :func:`generate`, every empty column
    included."""
    enumerate_moves(state, False, out)


def enumerate_moves(state: State, prune: bool, out: list[Move]) -> None:
    n = len(state.columns)
    first_empty = next((c for c in range(n) if not state.columns[c]), None)
    for src in range(n):
        card = state.top(src)
        if card is None:
            continue
        if fits_foundation(state, card):
            out.append(Move(card, src, FOUNDATION))
        for dst in range(n):
            if dst == src:
                continue
            target = state.top(dst)
            if target is not None:
                ok = fits_on(card, target)
            else:
                ok = not prune or (dst == first_empty and len(state.columns[src]) > 1)
            if ok:
                out.append(Move(card, src, dst))


def is_safe_to_foundation(state: State, card: Card) -> bool:
    """Sending ``card`` up now can never lose a win: it fits its foundation, and every card two
    ranks lower is already on the foundations. (A card serves in the tableau only as a target
    for the cards one rank lower; each of those can then go up whenever it could go onto
    ``card``, and nothing can go onto it. The full argument is in ``moves.rs``.)"""
    lowest = min(state.foundations.values())
    return fits_foundation(state, card) and card.rank <= lowest + 2


def next_automatic(state: State) -> Move | None:
    """The first column, left to right, whose top card is safe to send up."""
    for src in range(len(state.columns)):
        card = state.top(src)
        if card is not None and is_safe_to_foundation(state, card):
            return Move(card, src, FOUNDATION)
    return None


def play(state: State, move: Move, line: list[Move]) -> None:
    """Make ``move``, then the automatic moves after it, appending them all to ``line``: one
    step of every search."""
    apply(state, move)
    line.append(move)
    play_automatic(state, line)


def unwind(state: State, path: list[Move], length: int) -> None:
    """Take back moves until the path is ``length`` long."""
    while len(path) > length:
        undo(state, path.pop())


def play_automatic(state: State, played: list[Move]) -> None:
    """Play automatic moves until none is left, appending them to ``played``."""
    while (move := next_automatic(state)) is not None:
        apply(state, move)
        played.append(move)


def replay(deal: Deal, moves: Iterable[Move]) -> State:
    """Play ``moves`` from ``deal``, checking each; raise :class:`IllegalMoveError` at the first
    illegal one. Returns the final position (``.is_won()`` tells whether the moves won)."""
    state = State.from_deal(deal)
    for i, move in enumerate(moves):
        if not is_legal(state, move):
            raise IllegalMoveError(f"move {i + 1} ({move}) is not legal here")
        apply(state, move)
    return state
