"""The keys of each table: the tables bind them, the guide lists them (one list, so the guide
never tells of a key the table does not have)."""

from __future__ import annotations

from textual.binding import Binding, BindingType

#: The keys every table shares.
PLAY_KEYS: list[BindingType] = [
    Binding("escape", "cancel", "Cancel", show=False),
    Binding("u,ctrl+z", "undo", "Undo"),
    Binding("r,ctrl+y", "redo", "Redo", show=False),
    Binding("h", "hint", "Hint"),
    Binding("n", "new", "New deal"),
    Binding("m", "menu", "Menu"),
    Binding("question_mark", "guide", "Guide", key_display="?"),
    Binding("q", "quit", "Quit"),
]

#: The castle table: 1-8 select and move, f sends up, Enter taps.
CASTLE_KEYS: list[BindingType] = [
    Binding("1", "column(0)", "Select/move", key_display="1-8"),
    *(Binding(str(n), f"column({n - 1})", show=False) for n in range(2, 9)),
    Binding("f", "foundation", "Foundation"),
    Binding("enter,space", "tap", "Tap", show=False),
    *PLAY_KEYS,
]

#: The Spider table: 1-9 and 0 select and move, d deals, o takes a run off.
SPIDER_KEYS: list[BindingType] = [
    Binding("1", "column(0)", "Select/move", key_display="0-9"),
    *(Binding(str(n % 10), f"column({n - 1})", show=False) for n in range(2, 11)),
    Binding("d", "deal", "Deal"),
    Binding("o", "off", "Run off"),
    *PLAY_KEYS,
]

#: The free-cell table: 1-9 and 0 select and move, c the cells, f sends up, Enter taps.
CELLS_KEYS: list[BindingType] = [
    # "Select" alone: the footer holds one more key than the castle table's in 80 columns.
    Binding("1", "column(0)", "Select", key_display="0-9"),
    *(Binding(str(n % 10), f"column({n - 1})", show=False) for n in range(2, 11)),
    Binding("c", "cell", "Cell"),
    Binding("f", "foundation", "Foundation"),
    Binding("enter,space", "tap", "Tap", show=False),
    *PLAY_KEYS,
]

#: Each family's table keys, by the family's name (``Played.KIND``).
FAMILY_KEYS: dict[str, list[BindingType]] = {
    "castle": CASTLE_KEYS,
    "spider": SPIDER_KEYS,
    "cells": CELLS_KEYS,
}

__all__ = ["CASTLE_KEYS", "CELLS_KEYS", "FAMILY_KEYS", "PLAY_KEYS", "SPIDER_KEYS"]
