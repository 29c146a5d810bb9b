"""What every front end shows of a game, as plain data: :class:`View` (the position, the bar,
what is selected and where it may go, the message) built by :class:`castle.Table`. The terminal
player, the line mode and the browser draw these; none of them decides a rule.

A view never holds a face-down card: a Spider column says how many it hides, not which.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..solving.solve import Target
from ..words import clock_text


@dataclass(frozen=True)
class ColumnView:
    """One column: ``down`` face-down cards (Spider; 0 in the castle games) under the face-up
    ``cards``, bottom first. ``movable``: how many top cards may be lifted as one (the game
    says); ``picked``: how many are selected (0: none); ``target``: the selection may go here;
    ``hinted``: the hint shown moves from or to here."""

    down: int
    cards: tuple[Card, ...]
    movable: int
    picked: int = 0
    target: bool = False
    hinted: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "down": self.down,
            "cards": [str(c) for c in self.cards],
            "movable": self.movable,
            "picked": self.picked,
            "target": self.target,
            "hinted": self.hinted,
        }


@dataclass(frozen=True)
class Lift:
    """What picking up the top ``count`` cards of column ``src`` would hold: the ``cards``,
    the places they may go (``targets``), or why they cannot move as one (``refusal``)."""

    src: int
    count: int
    cards: tuple[Card, ...]
    targets: tuple[Target, ...]
    refusal: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "src": self.src,
            "count": self.count,
            "cards": [str(c) for c in self.cards],
            "targets": list(self.targets),
            "refusal": self.refusal,
        }


@dataclass(frozen=True)
class View:
    """The table as a front end draws it.

    ``game`` is the kind of game (``"castle"``, ``"spider"`` or ``"cells"``: ``Played.KIND``).
    Castle games have ``foundations`` (each suit's top rank, 0 when empty) and ``cards_up``;
    Spider has ``stock`` (cards left) and ``off`` (the suit of each run taken off); the
    free-cell games have foundations, cards up and ``cells``, each a pile of one card or none
    (None in the others). An action names a cell as it names a column, by its number among
    the places: cell ``i`` is place ``len(columns) + i``. ``selection`` is the
    held or selected cards with their targets (``foundation_target``: the foundations are one of
    them); ``message`` the last word of the game to the player; ``record`` the level's
    statistics once the game is won, as a line, and ``statistics`` as numbers (wins, losses,
    streak, best_streak, win_percentage); ``hint`` the hint shown as the action that plays it
    (``action_to_json``'s JSON); ``can_hint`` whether a hint has a move to give (not once the
    game is won)."""

    game: str
    level: str
    level_name: str
    variant: str
    deal: int | None
    deal_name: str
    status: str
    moves: int
    seconds: float
    score: int
    columns: tuple[ColumnView, ...]
    foundations: dict[str, int] | None
    foundation_target: bool
    cards_up: int | None
    stock: int | None
    off: tuple[str, ...] | None
    selection: Lift | None
    message: str
    won: bool
    paused: bool
    can_undo: bool
    can_redo: bool
    can_hint: bool
    record: str | None
    statistics: dict[str, Any] | None = None
    hint: dict[str, Any] | None = None
    cells: tuple[ColumnView, ...] | None = None

    @property
    def clock(self) -> str:
        """The time played as the bar shows it (``1:05``)."""
        return clock_text(self.seconds)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "level": self.level,
            "level_name": self.level_name,
            "variant": self.variant,
            "deal": self.deal,
            "deal_name": self.deal_name,
            "status": self.status,
            "moves": self.moves,
            "seconds": self.seconds,
            "clock": self.clock,
            "score": self.score,
            "columns": [c.to_json() for c in self.columns],
            "foundations": self.foundations,
            "foundation_target": self.foundation_target,
            "cards_up": self.cards_up,
            "stock": self.stock,
            "off": None if self.off is None else list(self.off),
            "selection": None if self.selection is None else self.selection.to_json(),
            "message": self.message,
            "won": self.won,
            "paused": self.paused,
            "can_undo": self.can_undo,
            "can_redo": self.can_redo,
            "can_hint": self.can_hint,
            "record": self.record,
            "statistics": self.statistics,
            "hint": self.hint,
            "cells": None if self.cells is None else [c.to_json() for c in self.cells],
        }


__all__ = ["ColumnView", "Lift", "View"]
