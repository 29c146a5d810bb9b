"""Beam searches: the search's beam pass, and the short mode. A beam search goes
breadth-first, one move at a time, and keeps only the ``width`` positions that look closest to a
win at each depth, so the first win it meets is short. It is not complete: a beam that runs dry
proves nothing. So the beam pass only looks for a win before the complete search, and the short
mode only improves a win the search already has.

Translation of ``rust/src/castle/beam.rs``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...solving.deal import Deal
from ...solving.solve import Move
from ..solver.budget import Budget, Counter, End
from .moves import generate, play, play_automatic, undo
from .shorten import shorten
from .state import State

#: The widths the short mode tries, in turn, while the budget lasts.
BEAM_WIDTHS = (100, 1_000, 10_000)
#: The widths the beam pass tries, in turn, while its budget lasts.
BEAM_PASS_WIDTHS = (1_000, 10_000)


def estimate(state: State) -> int:
    """How far ``state`` looks from a win (lower is closer), the beam's only guide: each card
    in the tableau still has to go up, and a card lying above a lower card of its own suit in
    its column has to move within the tableau first, so it counts twice."""
    total = 0
    for column in state.columns:
        lowest: dict[str, int] = {}  # the lowest rank of each suit met so far, bottom up
        for card in column:
            total += 2 if lowest.get(card.suit, 99) < card.rank else 1
            lowest[card.suit] = min(lowest.get(card.suit, 99), card.rank)
    return total


@dataclass
class Node:
    """A position kept in the beam: ``line`` reached it from its ``parent`` (the chosen move
    and the automatic moves after it); ``length`` counts the moves from the deal."""

    parent: int | None
    line: list[Move]
    length: int


def beam_search(
    deal: Deal, width: int, bound: float, budget: Budget, counter: Counter
) -> End[Move]:
    """One beam search of ``width`` for a win of fewer than ``bound`` moves. ``"exhausted"``
    means only that the beam ran dry."""
    state = State.from_deal(deal)
    played: list[Move] = []
    play_automatic(state, played)
    if state.is_won():
        return End("won", played)
    nodes = [Node(None, played, len(played))]
    # Positions already kept at some depth: a later depth can only reach them by a longer line.
    kept = {state.key()}
    beam: list[tuple[State, int]] = [(state, 0)]
    while beam:
        candidates: list[tuple[int, int, Move]] = []  # (estimate, index in the beam, move)
        this_depth: set[bytes] = set()
        for index, (position, node) in enumerate(beam):
            stop = budget.spend(counter)
            if stop is not None:
                return End("limit", [], stop)
            legal: list[Move] = []
            generate(position, legal)
            for move in legal:
                # The move and the automatic moves after it, made and taken back in place.
                line: list[Move] = []
                play(position, move, line)
                if position.is_won():
                    return End("won", line_to(nodes, node) + line)
                key = position.key()
                length = nodes[node].length + len(line)
                if length + 1 < bound and key not in kept and key not in this_depth:
                    this_depth.add(key)
                    candidates.append((estimate(position), index, move))
                for back in reversed(line):
                    undo(position, back)
        # The best `width`, ties in the order they were met (a stable sort).
        candidates.sort(key=lambda c: c[0])
        next_beam: list[tuple[State, int]] = []
        for _, index, move in candidates[:width]:
            parent, node = beam[index]
            child = parent.copy()
            line = []
            play(child, move, line)
            kept.add(child.key())
            nodes.append(Node(node, line, nodes[node].length + len(line)))
            next_beam.append((child, len(nodes) - 1))
        beam = next_beam
    return End("exhausted", [])


def shortest_beam(deal: Deal, moves: list[Move], budget: Budget, counter: Counter) -> list[Move]:
    """The shortest of ``moves`` and the wins of beam searches of growing width, each shortened
    like the depth-first win; the first limit reached ends the hunt (the win in hand stands)."""
    for width in BEAM_WIDTHS:
        end = beam_search(deal, width, len(moves), budget, counter)
        if end.kind == "won":
            line = shorten(deal, end.path)
            if len(line) < len(moves):
                moves = line
        elif end.kind == "limit":
            break
    return moves


def beam_pass(deal: Deal, budget: Budget, counter: Counter) -> End[Move]:
    """The beam pass of the search: beam searches of ``BEAM_PASS_WIDTHS`` with no length bound,
    until one wins or the budget runs out. ``"exhausted"`` proves nothing."""
    for width in BEAM_PASS_WIDTHS:
        end = beam_search(deal, width, math.inf, budget, counter)
        if end.kind != "exhausted":
            return end
    return End("exhausted", [])


def line_to(nodes: list[Node], node: int | None) -> list[Move]:
    """The moves from the deal to the position of ``node``."""
    pieces: list[list[Move]] = []
    while node is not None:
        pieces.append(nodes[node].line)
        node = nodes[node].parent
    return [move for piece in reversed(pieces) for move in piece]
