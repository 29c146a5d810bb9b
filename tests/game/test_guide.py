"""The players' guide (castle.game.guide): what of docs/rules.md a player of each level reads, in
the terminal and in the browser."""

from __future__ import annotations

import re

import pytest
from castle.family import CELLS, SPIDER
from castle.game.guide import level_paragraph, players_rules, rules_text
from castle.game.levels import LEVELS, level_family


def rules() -> str:
    text = rules_text()
    assert text is not None, "docs/rules.md ships in the package as castle/rules.md"
    return text


def headings(markdown: str) -> list[str]:
    return re.findall(r"(?m)^#+ .*$", markdown)


@pytest.mark.parametrize("level_id", list(LEVELS))
@pytest.mark.parametrize("terminal", [True, False])
def test_a_level_s_guide_is_its_rules_for_a_player(level_id: str, terminal: bool) -> None:
    text = players_rules(level_id, rules(), terminal=terminal)
    name = LEVELS[level_id].name
    paragraph = level_paragraph(level_id, rules())
    assert paragraph is not None, f"docs/rules.md §3 Levels has no bullet for {name}"
    assert text.startswith(f"## Your level: {name}\n\n{paragraph}")
    # Nothing for programs or developers: no board text, no deal numbers, no Python names.
    for developers in ("## 2.", "Board text", "PySolFC", "Deal numbers", "castle.Game"):
        assert developers not in text, (level_id, developers)
    if not terminal:
        assert "--plain" not in text  # the terminal's line mode
    shown = headings(text)
    family = level_family(level_id)
    if family is SPIDER:
        assert "## 4. Spider" in shown and "### Spider" in shown and "### Undo and redo" in shown
        assert "## 1. The castle family" not in shown and "### Castle games" not in shown
    elif family is CELLS:
        assert "## 6. The free-cell games" in shown and "### Free-cell games" in shown
        assert "### Playing them" in shown and "### Hints" in shown and "### The score" in shown
        assert "### The solver" not in shown and "## 1. The castle family" not in shown
    else:
        assert "## 1. The castle family" in shown and "### Supermove" in shown
        assert "### Castle games" in shown and "## 4. Spider" not in shown
        assert "### Levels" not in shown  # the level's own paragraph comes first instead
    # The terminal's keys are the terminal's: the browser's guide says its own.
    terminal_keys = [h for h in shown if "`castle play`" in h]
    assert bool(terminal_keys) == terminal, shown


def test_the_levels_are_told_apart() -> None:
    paragraphs = {level_paragraph(level_id, rules()) for level_id in LEVELS}
    assert len(paragraphs) == len(LEVELS)
    assert "Streets and Alleys" in str(level_paragraph("hard", rules()))
    assert "spades only" in str(level_paragraph("spider-1", rules()))
    assert "Microsoft" in str(level_paragraph("freecell", rules()))
