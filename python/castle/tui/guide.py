"""The guide (``?``): how to play at this table (the mouse, the keys), then the rules from
docs/rules.md, shipped in the package as ``castle/rules.md``: at a castle table §1 (the rules),
§3 (the game as a person plays it: levels, moves, undo, hints, score...) and §5's castle tips;
at a Spider table §4 (the rules, the score, the hints), the parts of §3 that Spider shares, and
§5's Spider tips. The clock stops while it is open."""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib import resources
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown

from ..new_game import AnyGame
from ..spider_game import SpiderGame
from .keys import CASTLE_KEYS, SPIDER_KEYS

#: The sections of §3 that a Spider game plays as a castle game does (docs/rules.md says so).
SHARED_WITH_SPIDER = (
    "Undo and redo",
    "Saves and Continue",
    "Statistics",
    "Menu and pause",
    "The start and the end",
)

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


def rules_text() -> str | None:
    """docs/rules.md as the package ships it (None if it is missing)."""
    try:
        return (resources.files("castle") / "rules.md").read_text(encoding="utf-8")
    except OSError:
        return None


def split(markdown: str, level: int) -> list[tuple[str, str]]:
    """The text cut at its headings of ``level`` (``##``: 2): (heading, the section with its
    heading line) for each; what comes before the first is left out."""
    marker = "#" * level + " "
    parts: list[tuple[str, str]] = []
    for line in markdown.splitlines(keepends=True):
        if line.startswith(marker):
            parts.append((line[len(marker) :].strip(), line))
        elif parts:
            heading, text = parts[-1]
            parts[-1] = (heading, text + line)
    return parts


def numbered(markdown: str) -> dict[int, str]:
    """docs/rules.md's numbered sections (``## 3. ...``), by number."""
    sections = {}
    for heading, text in split(markdown, 2):
        number = re.match(r"(\d+)\.", heading)
        if number:
            sections[int(number.group(1))] = text
    return sections


def subsections(section: str, keep: Callable[[str], bool]) -> str:
    """The ``###`` subsections of ``section`` whose heading ``keep`` accepts."""
    return "".join(text for heading, text in split(section, 3) if keep(heading))


def introduction(section: str) -> str:
    """A section's heading line and what comes before its first ``###``."""
    return re.split(r"(?m)^### ", section, maxsplit=1)[0]


def rules_for(spider: bool, markdown: str) -> str:
    """The parts of the rules a castle (or a Spider) table shows."""
    sections = numbered(markdown)
    parts = []
    if spider:
        parts.append(sections.get(4, ""))
        shared = subsections(sections.get(3, ""), lambda h: h in SHARED_WITH_SPIDER)
        if shared:
            parts.append("## As in the castle games (§3)\n\n" + shared)
    else:
        parts += [sections.get(1, ""), sections.get(3, "")]
    if 5 in sections:
        tips = subsections(sections[5], lambda h: ("Spider" in h) == spider)
        parts.append(introduction(sections[5]) + tips)
    return "\n".join(part for part in parts if part)


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


def guide_markdown(spider: bool, bindings: list[BindingType]) -> str:
    """The whole guide for a castle (or Spider) table with these keys."""
    name = "Spider" if spider else "the castle games"
    out = [f"# How to play {name}\n", "## At this table\n"]
    out.append(SPIDER_MOUSE if spider else CASTLE_MOUSE)
    out.append(keys_line(bindings) + "\n")
    rules = rules_text()
    if rules is None:
        out.append("(The rules text, docs/rules.md, is missing from this installation.)\n")
    else:
        out.append(rules_for(spider, rules))
    return "\n".join(out)


class GuideScreen(Screen[None]):
    """How to play, and the rules: the clock stops while it is open (``pause``: this screen
    stops it; the menu, when it opens the guide, has stopped it already)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close", key_display="Esc/q/?"),
    ]

    def __init__(self, game: AnyGame | None, *, spider: bool | None = None, pause: bool = True):
        super().__init__()
        self.game = game
        self.spider = isinstance(game, SpiderGame) if spider is None else spider
        self.pause = pause and game is not None

    def compose(self) -> ComposeResult:
        bindings = SPIDER_KEYS if self.spider else CASTLE_KEYS
        with VerticalScroll(id="guide"):
            yield Markdown(guide_markdown(self.spider, bindings))
        yield Footer()

    def on_mount(self) -> None:
        if self.pause and self.game is not None:
            self.game.pause()
        self.query_one("#guide").focus()

    def action_close(self) -> None:
        if self.pause and self.game is not None:
            self.game.unpause()
        self.dismiss()


__all__ = ["GuideScreen", "guide_markdown", "rules_for"]
