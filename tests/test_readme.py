"""The README: its Python examples run as written, and its example outputs and figures are
what the program gives (tests/readme_examples.py makes and checks them)."""

from __future__ import annotations

import re
from pathlib import Path

import castle
import pytest
import readme_examples

README = Path(__file__).resolve().parents[1] / "README.md"


def test_python_examples_run(capsys: object) -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_the_first_paragraph_and_the_package_description_name_every_game() -> None:
    # They left Spider out.
    first = README.read_text().split("\n\n")[1]
    pyproject = (README.parent / "pyproject.toml").read_text()
    description = re.search(r'^description = "(.*)"$', pyproject, re.M)
    assert description is not None
    summary = (castle.__doc__ or "").split("\n\n")[0]
    for game in ("Beleaguered Castle", "Streets and Alleys", "Citadel", "Spider"):
        for text in (first, description[1], summary):
            assert game in " ".join(text.replace("*", "").split()), (game, text)


def test_setup_commands_are_the_two_the_ci_runs() -> None:
    text = README.read_text()
    assert "pip install . && castle solve --deal 1" in text
    assert "pip install '.[test]' && pytest" in text


# --- the example outputs and figures: made by the program (tests/readme_examples.py) ---------

EXAMPLES = readme_examples.examples(README.read_text())
REGENERATE = "README.md drifted from the program: run `python tests/readme_examples.py --write`"


def test_a_win_is_shown_first() -> None:
    # The set-up's castle solve --deal 1 answers "unsolvable"; the first output the README
    # shows, right under it, is a win.
    first = EXAMPLES[0]
    assert first.command.startswith("castle solve --deal ")
    assert first.shown.split("\n")[0].endswith(": solved")
    text = README.read_text()
    assert text.index("## Set-up") < first.start < text.index("## Python")


def test_the_example_outputs_are_marked() -> None:
    commands = " ".join(e.command for e in EXAMPLES)
    for command in (
        "castle solve --deal 2 |",
        "castle solve --deal 2 --json",
        "castle solve --deals 1-200",
        "castle survey report",
    ):
        assert command in commands


@pytest.mark.slow
@pytest.mark.parametrize("example", EXAMPLES, ids=[e.command[:50] for e in EXAMPLES])
def test_example_output_is_the_programs(example: readme_examples.Example) -> None:
    diff = readme_examples.drift(example, readme_examples.run(example.command))
    assert not diff, f"{REGENERATE}\n{diff}"


@pytest.mark.slow
@pytest.mark.parametrize(
    "figure", readme_examples.FIGURES, ids=[f.what for f in readme_examples.FIGURES]
)
def test_figure_is_the_programs(figure: readme_examples.Figure) -> None:
    problem = readme_examples.figure_drift(figure, README.read_text())
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
    assert len(readme_examples.check(readme, figures)) == 2
    changed = readme_examples.write(readme, figures)
    assert len(changed) == 2
    assert readme.read_text() == kept + stale.replace("A\n", "a\nb\n") + "Seven is 7.\n"
    assert readme_examples.check(readme, figures) == []


def test_keep_moves_shortens_each_json_line() -> None:
    line = '{"deal": 2, "moves": [{"card": "TH"}, {"card": "7D"}, {"card": "9H"}], "states": 71}'
    assert list(readme_examples.keep_moves(1, iter([line, "\n"]))) == [
        '{"deal": 2, "moves": [{"card": "TH"}], "states": 71}'
    ]
