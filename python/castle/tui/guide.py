"""The guide (``?``): how to play at this table (the mouse, the keys), then the rules of the
level as every front end's guide tells them (:func:`castle.game.guide.players_rules`). The clock
stops while it is open."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown

from ..game.guide import players_rules, rules_text
from ..game.levels import level, level_family
from ..game.new_game import AnyGame
from .keys import FAMILY_KEYS

CASTLE_MOUSE = """\
- **Click** a column: its top card goes to its best place (a tap, §3).
- **Double click** a column: its top card goes to its foundation, if it fits there.
- **Drag**: press on a card and move: it goes with the cards above it. The places they may go
  are marked green while you hold them (the foundations row too, for one card that fits).
  Let go over a marked place to move them there; anywhere else they shake and go back, and
  nothing changes. Cards that are not a descending run do not lift at all: the message says
  why.
"""

SPIDER_MOUSE = """\
- **Click** a face-up card: the run from it up is selected; click another column to move it
  there. A click on the stock deals.
- **Drag**: press on a face-up card and move: the run from it up goes with it (a run of one
  suit only). The columns it may go to are marked green while you hold it; let go over one to
  move it there. Anywhere else it shakes and goes back, and nothing changes.
- **Hints** are fair unless the menu says otherwise: they see only what you see (§4).
"""

CELLS_MOUSE = """\
- **Click** a column or a cell: its top card goes to its best place: its foundation, else onto
  another column's card, else an empty column, else a free cell.
- **Double click**: the card goes to its foundation if it fits there, else into a free cell.
- **Drag**: press on a card and move: it goes with the cards above it, onto a column, into a
  cell (one card) or onto the foundations (one card). The places they may go are marked green
  while you hold them. A run goes as a unit only as far as the free cells and empty columns
  let it (§6); cards that are not a run do not lift at all: the message says why.
- **c** puts the selected card into a free cell; with nothing selected it selects a cell's card
  (again: the next cell's).
"""

#: What every table shares: hints played by their key, and tall columns folded.
TABLE_NOTES = """\
- **h** asks for a hint and marks its move; **h** again plays that move, so a game can be
  played hint by hint. When the hint has no move left to give, it offers a new deal (the game
  counts as lost); you may still undo and try another way.
- A column taller than the terminal is **folded**: its face-down cards as one line with their
  count (`▒ 5`), then each long run as its two ends with the count of the cards between
  (`⋮7`). The top card, the cards selected and those the hint moves are always shown. A click
  on a fold picks up the run from the first card it hides.
"""


def keys_line(bindings: list[BindingType]) -> str:
    """The keys of a table screen, in the order it declares them, as the footer names them
    (with the ones it leaves out for room)."""
    shown = []
    for binding in bindings:
        if isinstance(binding, Binding) and binding.description:
            keys = binding.key_display or "/".join(
                KEY_NAMES.get(k, k) for k in binding.key.split(",")
            )
            if binding.show or binding.key in NAMED_HIDDEN:
                shown.append(f"`{keys}` {binding.description.lower()}")
    return "The keys: " + " · ".join(shown) + "."


#: Keys the footer leaves out that the guide names.
NAMED_HIDDEN = {"r,ctrl+y", "enter,space", "escape"}
KEY_NAMES = {
    "ctrl+z": "Ctrl+Z",
    "ctrl+y": "Ctrl+Y",
    "enter": "Enter",
    "space": "space",
    "escape": "Esc",
}


#: The mouse at each family's table, by the family's name (``Played.KIND``).
FAMILY_MOUSE = {"castle": CASTLE_MOUSE, "spider": SPIDER_MOUSE, "cells": CELLS_MOUSE}


def guide_markdown(level_id: str, bindings: list[BindingType]) -> str:
    """The whole guide for a table of ``level_id`` with these keys."""
    out = [f"# How to play {level(level_id).name}\n", "## At this table\n"]
    out.append(FAMILY_MOUSE[level_family(level_id).name])
    out.append(TABLE_NOTES)
    out.append(keys_line(bindings) + "\n")
    rules = rules_text()
    if rules is None:
        out.append("(The rules text, docs/rules.md, is missing from this installation.)\n")
    else:
        out.append(players_rules(level_id, rules, terminal=True))
    return "\n".join(out)


class GuideScreen(Screen[None]):
    """How to play, and the rules: the clock stops while it is open (``pause``: this screen
    stops it; the menu, when it opens the guide, has stopped it already)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close", key_display="Esc/q/?"),
    ]

    def __init__(self, game: AnyGame | None, *, level_id: str | None = None, pause: bool = True):
        """The guide of ``game``'s level (the clock stops, unless not ``pause``), or, with no
        game (the level picker), of ``level_id``'s."""
        super().__init__()
        self.game = game
        chosen = game.level if game is not None else level_id
        if chosen is None:
            raise ValueError("a guide is of a game or of a level")
        self.level_id = chosen
        self.pause = pause and game is not None

    def compose(self) -> ComposeResult:
        bindings = FAMILY_KEYS[level_family(self.level_id).name]
        with VerticalScroll(id="guide"):
            yield Markdown(guide_markdown(self.level_id, bindings))
        yield Footer()

    def on_mount(self) -> None:
        if self.pause and self.game is not None:
            self.game.pause()
        self.query_one("#guide").focus()

    def action_close(self) -> None:
        if self.pause and self.game is not None:
            self.game.unpause()
        self.dismiss()


__all__ = ["GuideScreen", "guide_markdown"]
