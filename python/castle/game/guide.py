"""The players' guide: the part of docs/rules.md a player of a level reads, for every front end
(the terminal's ``?`` and the browser's). First the level's own paragraph (§3, Levels); then
at a castle table §1 (the rules) and §3 (the game as a person plays it: moves, undo, hints,
score...), at a Spider table §4 and the parts of §3 that Spider shares, at a free-cell table
§6 (less what is written for programs) and the parts of §3 it shares; then §5's tips for
that game. Left out: §2 (board text and deal numbers), each section's opening words (they
name the programs and the Python classes), and, away from the terminal, the subsections on
``castle play``'s keys (the browser says its own). The text ships in the package as
``castle/rules.md``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib import resources

from .levels import level, level_family

#: Subsections of a family's rules written for programs, not players: left out.
FOR_PROGRAMS = ("Deal numbers and board text", "The solver")
#: The section of the castle games' rules, whose game §3 describes.
CASTLE_RULES = 1
#: A subsection whose heading names this is the terminal player's alone.
TERMINAL_ONLY = "`castle play`"


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


def heading(section: str) -> str:
    """A section's heading line alone (and a blank line)."""
    return section.split("\n", 1)[0] + "\n\n"


def level_paragraph(level_id: str, markdown: str) -> str | None:
    """What §3's Levels says of ``level_id``: its bullet (``- **Name:** text``), the text
    alone; None if there is none."""
    name = level(level_id).name
    levels = subsections(numbered(markdown).get(3, ""), lambda h: h == "Levels")
    for item in re.split(r"(?m)^- ", levels)[1:]:
        told = re.match(r"\*\*(.+?):\*\*(.*)", item, re.DOTALL)
        if told and told.group(1) == name:
            text = " ".join(told.group(2).split())
            return text[:1].upper() + text[1:] + "\n"
    return None


def players_rules(level_id: str, markdown: str, *, terminal: bool) -> str:
    """The rules a player of ``level_id`` reads in the guide (markdown, its headings ``##``
    and below; the front end puts its title and its own keys first). ``terminal``: the
    terminal player's guide, which keeps the subsections on its keys."""
    family = level_family(level_id)
    sections = numbered(markdown)
    played = sections.get(3, "")

    def shown(title: str) -> bool:
        return (terminal or TERMINAL_ONLY not in title) and title not in FOR_PROGRAMS

    about = level_paragraph(level_id, markdown) or f"{level(level_id).blurb}.\n"
    parts = [f"## Your level: {level(level_id).name}\n\n{about}"]
    own = sections.get(family.rules_section, "")
    parts.append(introduction(own) + subsections(own, shown))
    if family.rules_section == CASTLE_RULES:
        # §3 is the game of §1's rules as a person plays it: all of it (but the levels).
        parts.append(heading(played) + subsections(played, lambda h: h != "Levels" and shown(h)))
    else:
        shared = subsections(played, lambda h: h in family.shared_play)
        if shared:
            parts.append("## As in the castle games (§3)\n\n" + shared)
    if 5 in sections:
        tips = subsections(sections[5], lambda h: h == family.tips_heading)
        parts.append(introduction(sections[5]) + tips)
    return "\n".join(part.rstrip("\n") + "\n" for part in parts if part.strip())


__all__ = ["TERMINAL_ONLY", "level_paragraph", "players_rules", "rules_text"]
