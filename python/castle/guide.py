"""The part of docs/rules.md a table shows in its guide, for every front end: at a castle
table §1 (the rules), §3 (the game as a person plays it: levels, moves, undo, hints, score...)
and §5's castle tips; at a Spider table §4 (the rules, the score, the hints), the parts of §3
that Spider shares, and §5's Spider tips. The text ships in the package as ``castle/rules.md``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib import resources

#: The sections of §3 that a Spider game plays as a castle game does (docs/rules.md says so).
SHARED_WITH_SPIDER = (
    "Undo and redo",
    "Saves and Continue",
    "Statistics",
    "Menu and pause",
    "The start and the end",
)


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


__all__ = ["SHARED_WITH_SPIDER", "rules_for", "rules_text"]
