"""The README and the pages of docs/ (the documentation site's): their Python examples run as
written, and their example outputs and figures are what the program gives
(tests/readme_examples.py makes and checks them)."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import castle
import pytest
import readme_examples

README = readme_examples.README
PAGES = readme_examples.pages()


def python_blocks(page: Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(), re.S)


def test_the_pages_are_the_readme_and_the_sites() -> None:
    names = [readme_examples.page_name(page) for page in PAGES]
    assert names[0] == "README.md"
    for page in ("docs/getting-started.md", "docs/guide/python.md", "docs/guide/playing.md"):
        assert page in names


@pytest.mark.parametrize(
    "page",
    [page for page in PAGES if python_blocks(page)],
    ids=readme_examples.page_name,
)
def test_python_examples_run(page: Path, capsys: object) -> None:
    for block in python_blocks(page):
        exec(compile(block, readme_examples.page_name(page), "exec"), {})


def test_the_python_examples_are_where_they_were() -> None:
    # The README's examples moved to the guides; each must still be run by the test above.
    counts = {readme_examples.page_name(page): len(python_blocks(page)) for page in PAGES}
    assert counts["README.md"] >= 1
    assert counts["docs/getting-started.md"] >= 1
    assert counts["docs/guide/python.md"] >= 1
    assert counts["docs/guide/playing.md"] >= 2


def test_the_first_paragraph_and_the_package_description_name_every_game() -> None:
    # They left Spider out.
    first = README.read_text().split("\n\n")[1]
    pyproject = (README.parent / "pyproject.toml").read_text()
    description = re.search(r'^description = "(.*)"$', pyproject, re.M)
    assert description is not None
    summary = (castle.__doc__ or "").split("\n\n")[0]
    for game in ("Beleaguered Castle", "Streets and Alleys", "Citadel", "Spider", "FreeCell"):
        for text in (first, description[1], summary):
            assert game in " ".join(text.replace("*", "").split()), (game, text)


def test_setup_commands_are_the_two_the_ci_runs() -> None:
    text = README.read_text()
    assert "pip install . && castle solve --deal 1" in text
    assert "pip install '.[test]' && pytest" in text


# --- the example outputs and figures: made by the program (tests/readme_examples.py) ---------

EXAMPLES = readme_examples.all_examples()
REGENERATE = "a page drifted from the program: run `python tests/readme_examples.py --write`"


def test_a_win_is_shown_first() -> None:
    # The set-up's castle solve --deal 1 answers "unsolvable"; the first output the README
    # shows, right under it, is a win.
    text = README.read_text()
    first = readme_examples.examples(text)[0]
    assert first.command.startswith("castle solve --deal ")
    assert first.shown.split("\n")[0].endswith(": solved")
    setup = text.index("## Set-up")
    assert setup < first.start < text.index("\n## ", setup + 1)


def test_the_example_outputs_are_marked() -> None:
    every = " ".join(e.command for e in EXAMPLES)
    for command in (
        "castle solve --deal 2 |",
        "castle solve --deal 2 --json",
        "castle solve --deals 1-200",
        "castle survey report",
        "castle play --plain",
        "castle autoplay",
    ):
        assert command in every
    # Each page that shows outputs of the program has them marked, so they stay checked.
    marked = {readme_examples.page_name(e.page) for e in EXAMPLES}
    for page in ("README.md", "docs/getting-started.md", "docs/guide/command-line.md"):
        assert page in marked


@pytest.mark.slow
@pytest.mark.parametrize(
    "example",
    EXAMPLES,
    ids=[f"{readme_examples.page_name(e.page)}: {e.command[:50]}" for e in EXAMPLES],
)
def test_example_output_is_the_programs(example: readme_examples.Example) -> None:
    diff = readme_examples.drift(example, readme_examples.run(example.command))
    assert not diff, f"{REGENERATE}\n{diff}"


@pytest.mark.slow
@pytest.mark.parametrize(
    "figure", readme_examples.FIGURES, ids=[f.what for f in readme_examples.FIGURES]
)
def test_figure_is_the_programs(figure: readme_examples.Figure) -> None:
    problem = readme_examples.figure_drift(figure, readme_examples.read(PAGES))
    assert not problem, f"{REGENERATE}\n{problem}"


def test_what_varies_is_normalised_and_nothing_else() -> None:
    normalise = readme_examples.normalise
    assert normalise("200 deals in 1.53 s, 2 jobs (131.1 deals/s)") == normalise(
        "200 deals in 689 ms, 2 jobs (98 deals/s)"
    )
    assert normalise('"states": 71, "seconds": 0.000117}') == normalise(
        '"states": 71, "seconds": 2.5e-05}'
    )
    assert normalise("median 0.598 ms, p99 95.2 ms, max 1.07 s") == normalise(
        "median 0.6 µs, p99 1 min, max 12 s"
    )
    assert normalise("solved     134   67.0%") == normalise("solved 134 67.0%")
    # A loaded machine's batch can take more than a minute: two units, still one time.
    assert normalise("200 deals in 1 min 05 s, 2 jobs (3.1 deals/s)") == normalise(
        "200 deals in 41.2 s, 2 jobs (4.9 deals/s)"
    )
    for different in (
        ("71 states in 0.2 ms", "75 states in 0.2 ms"),
        ("limits per deal: 100,000 states", "limits per deal: 5,000,000 states"),
        ("2 jobs", "1 job"),
        ("solved 134 67.0%", "solved 133 66.5%"),
    ):
        assert normalise(different[0]) != normalise(different[1])


def test_write_rewrites_only_what_drifted(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    kept = "<!-- output: echo took 1.5 s -->\n```\ntook 12 ms\n```\n"
    stale = "<!-- output: printf 'a\\nb\\n' -->\n```\nA\n```\n"
    figure = "Seven is 6.\n"
    readme.write_text(kept + stale + figure)
    figures = [readme_examples.Figure("seven", r"Seven is (\d+)\.", lambda: ("7",))]
    page = tmp_path / "page.md"
    page.write_text(stale + "Seven is 5.\n")
    assert len(readme_examples.check([readme, page], figures)) == 4
    changed = readme_examples.write([readme, page], figures)
    assert len(changed) == 4
    assert readme.read_text() == kept + stale.replace("A\n", "a\nb\n") + "Seven is 7.\n"
    assert page.read_text() == stale.replace("A\n", "a\nb\n") + "Seven is 7.\n"
    assert readme_examples.check([readme, page], figures) == []


def test_a_figure_no_page_shows_is_an_error(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("Eight is 8.\n")
    figures = [readme_examples.Figure("seven", r"Seven is (\d+)\.", lambda: ("7",))]
    with pytest.raises(LookupError, match="seven"):
        readme_examples.check([page], figures)


def test_keep_moves_shortens_each_json_line() -> None:
    line = '{"deal": 2, "moves": [{"card": "TH"}, {"card": "7D"}, {"card": "9H"}], "states": 71}'
    assert list(readme_examples.keep_moves(1, iter([line, "\n"]))) == [
        '{"deal": 2, "moves": [{"card": "TH"}], "states": 71}'
    ]


#: Each deck's figure in the README's "How far the fair Spider hint gets", and the games of
#: docs/spider-fair-games.csv it counts: (variant, player).
FAIR_FIGURES = {
    "one suit": ("spider-1", "fair-7"),
    "two suits": ("spider-2", "fair-7"),
    "four suits": ("spider", "fair-7"),
    "`fair-6` won": ("spider-2", "fair-6"),
    "`fair-5`": ("spider", "fair-5"),
}

#: The Spider guide's paragraph on the fair hint gives the current player's three figures.
GUIDE = README.parent / "docs" / "guide" / "spider.md"
GUIDE_FIGURES = {words: FAIR_FIGURES[words] for words in ("one suit", "two suits", "four suits")}


def check_fair_figures(section: str, figures: dict[str, tuple[str, str]]) -> None:
    """Each figure "WORDS N of [deals ]A-B" of ``section`` is the count of won games of
    docs/spider-fair-games.csv by its variant and player on deals A-B, every one of them played."""
    with (README.parent / "docs" / "spider-fair-games.csv").open(newline="") as f:
        games = list(csv.DictReader(f))
    for words, (variant, player) in figures.items():
        match = re.search(re.escape(words) + r" (\d+) of (?:deals )?(\d+)-(\d+)", section)
        assert match, words
        won, first, last = match.groups()
        rows = [
            g
            for g in games
            if (g["variant"], g["player"]) == (variant, player)
            and int(first) <= int(g["deal"]) <= int(last)
        ]
        assert len(rows) == int(last) - int(first) + 1, words
        assert sum(int(g["won"]) for g in rows) == int(won), words


def test_the_readmes_fair_win_counts_are_the_csvs_games() -> None:
    text = " ".join(README.read_text().split())
    section = text.split("## How far the fair Spider hint gets", 1)[1].split("##", 1)[0]
    check_fair_figures(section, FAIR_FIGURES)


def test_the_spider_guides_fair_win_counts_are_the_csvs_games() -> None:
    text = " ".join(GUIDE.read_text().split())
    section = text.split("Playing alone by the fair hint", 1)[1].split("targets", 1)[0]
    check_fair_figures(section, GUIDE_FIGURES)
