"""The command line's words: help that names Spider and every default,
variant names in any case, errors that name the flags, overlapping deal ranges, the summaries'
limits, the progress display within 80 columns."""

from __future__ import annotations

import argparse
import io
import json
import re
import time
from collections import Counter
from pathlib import Path

import pytest
from castle.cli import build_parser, main
from castle.cli.output import format_seconds
from castle.cli.progress import BatchProgress
from castle.cli.report import BatchSummary, DealResult
from castle.solving.deal import parse_deal_range
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console, Group


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Every subcommand's parser by its path (``solve``, ``survey run``...), nested ones too."""
    found: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                path = f"{parser.prog.removeprefix('castle').strip()} {name}".strip()
                found[path] = sub
                found.update(subparsers(sub))
    return found


# --- help ------------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [["--help"], ["solve", "--help"]])
def test_help_names_spider(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert "Spider" in out
    for deck in ("spider", "spider-2", "spider-1"):
        assert deck in out


COMMANDS = ["solve", "survey", "play", "serve", "autoplay", "bench"]


def help_section(text: str, title: str) -> list[str]:
    """The lines of the help's section ``title`` (up to the next blank line)."""
    lines = text.split("\n")
    start = lines.index(title) + 1
    end = lines.index("", start) if "" in lines[start:] else len(lines)
    return lines[start:end]


def test_the_main_help_shows_every_command_with_an_example(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # It showed castle solve's exit statuses and examples, and those alone.
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert set(subparsers(build_parser())) >= set(COMMANDS)
    examples = [line.strip() for line in out.split("\n") if line.startswith("  castle ")]
    assert [example.split()[1] for example in examples] == COMMANDS
    for example in examples:
        command = example.split()[1]
        _, own, _ = run(capsys, command, "--help")
        assert f"  {example}" in help_section(own, "examples:")
    assert "castle solve board.txt" not in out and "130" not in out
    assert "Every command plays Beleaguered Castle unless --variant says otherwise" in " ".join(
        out.split()
    )


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_gives_its_own_exit_statuses_and_examples(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    # castle play, serve and bench gave none.
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    statuses = help_section(out, "exit status:")
    assert statuses[0].startswith("  0 ") and any(line.startswith("  2 ") for line in statuses)
    examples = help_section(out, "examples:")
    assert examples and all(f"castle {command}" in line for line in examples)


@pytest.mark.parametrize("command", ["autoplay", "bench"])
def test_every_option_says_what_it_does_and_its_default(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    parser = subparsers(build_parser())[command]
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        flag = action.option_strings[0]
        assert action.help, f"{command} {flag} has no help"
        # Every option but a required one says what it is when not given.
        assert action.required or "default" in action.help, f"{command} {flag}"
    code, out, _ = run(capsys, command, "--help")
    flat = " ".join(out.split())
    assert code == 0 and "%(default)s" not in flat
    if command == "autoplay":
        assert "(default beleaguered-castle, as for every command)" in flat
        assert "(default: the deck" in flat and "default 0" in flat
    else:
        assert "(default beleaguered-castle;" in flat and "(default 1-20)" in flat
        assert "(default 2000)" in flat and "(default 3)" in flat


def test_every_command_plays_beleaguered_castle_unless_told(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # castle autoplay played Spider by default, where every other command plays Beleaguered
    # Castle.
    db = str(tmp_path / "s.db")
    for argv in (
        ["solve", "--deal", "1", "--max-states", "100", "--json"],
        ["autoplay", "--deals", "1", "--max-states", "100", "--json"],
        ["survey", "--deals", "1", "--max-states", "100", "--db", db],
        ["bench", "--deals", "1", "--max-states", "100", "--repeat", "1", "--json"],
    ):
        code, out, _ = run(capsys, *argv)
        assert code == 0, argv
        if "--json" in argv:
            assert json.loads(out.splitlines()[0])["variant"] == "beleaguered-castle", argv
        else:
            assert out.startswith("Beleaguered Castle survey of deals 1 into"), out
    code, _, err = run(capsys, "autoplay", "--deals", "1", "--fair")
    assert code == 2 and "--fair is for Spider (--variant spider, spider-2, spider-1)" in err


def test_autoplay_variant_help_takes_any_variant(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "autoplay", "--help")
    flat = " ".join(out.split())
    assert code == 0
    assert "any variant" in flat and "citadel" in flat and "spider-1" in flat
    assert "--fair by the fair hint" in flat


# --- variant names ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "variant"),
    [
        (["solve", "--variant", "Citadel", "--deal", "3"], "citadel"),
        (["solve", "--variant", "SPIDER-2", "--deal", "3"], "spider-2"),
        (["solve", "--variant", "Streets and Alleys", "--deal", "3"], "streets-and-alleys"),
        (["survey", "run", "--variant", "Citadel", "--deals", "1", "--db", "x.db"], "citadel"),
        (["survey", "retry", "--variant", "CITADEL", "--db", "x.db"], "citadel"),
        (
            ["survey", "report", "--variant", "Beleaguered_Castle", "--db", "x"],
            "beleaguered-castle",
        ),
        (["bench", "--variant", "Citadel"], "citadel"),
        (["play", "--variant", "Spider-1"], "spider-1"),
        (["autoplay", "--variant", "Citadel", "--deals", "1"], "citadel"),
    ],
)
def test_variant_names_in_any_case(argv: list[str], variant: str) -> None:
    assert build_parser().parse_args(argv).variant == variant


def test_a_variant_in_capitals_is_solved(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", "--variant", "Citadel", "--deal", "17", "--json")
    assert (code, err) == (0, "")
    assert json.loads(out)["variant"] == "citadel"


def test_level_names_in_any_case() -> None:
    assert build_parser().parse_args(["play", "--level", "Hard"]).level == "hard"


# --- errors name the flags -------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["solve", "--deal", "3", "--max-states", "0"], "--max-states"),
        (["solve", "--deal", "3", "--max-seconds", "1e300"], "--max-seconds"),
        (["solve", "--deal", "3", "--max-memory", "100"], "--max-memory"),
        (["survey", "--deals", "1-3", "--db", "x.db", "--max-states", "-1"], "--max-states"),
        (["bench", "--max-states", "0"], "--max-states"),
        (["autoplay", "--deals", "1", "--max-seconds", "0"], "--max-seconds"),
    ],
)
def test_limit_errors_name_the_flag(
    capsys: pytest.CaptureFixture[str], argv: list[str], flag: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith(f"castle: error: {flag}: must be ")
    assert "max_" not in err  # no Python parameter names


@pytest.mark.parametrize(
    ("argv", "helps"),
    [
        (["solve", "--deals", "5-1"], "castle solve"),
        (["survey", "--deals", "5-1", "--db", "x.db"], "castle survey"),
        (["survey", "run", "--deals", "5-1", "--db", "x.db"], "castle survey run"),
        (["survey", "--deals", "1-10"], "castle survey"),  # no --db
        (["survey", "run", "--deals", "1-10"], "castle survey run"),
        (["autoplay", "--deals", "x"], "castle autoplay"),
        (["bench", "--deals", "3-1"], "castle bench"),
    ],
)
def test_bad_input_points_to_the_help_of_the_command_typed(
    capsys: pytest.CaptureFixture[str], argv: list[str], helps: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("castle: error: ")
    assert err.endswith(f" (see {helps} --help)\n"), err


# --- deal ranges -----------------------------------------------------------------------


def test_overlapping_ranges_count_each_deal_once(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", "--deals", "1-3,2-4", "--json")
    assert code == 0
    assert [json.loads(line)["deal"] for line in out.splitlines()] == [1, 2, 3, 4]
    assert "deals 1-3,2-4: 4 deals in" in err


@given(st.lists(st.tuples(st.integers(1, 60), st.integers(0, 25)), min_size=1, max_size=8))
def test_deal_ranges_are_the_union_in_the_order_given(parts: list[tuple[int, int]]) -> None:
    text = ",".join(f"{low}-{low + span}" if span else str(low) for low, span in parts)
    every = [n for low, span in parts for n in range(low, low + span + 1)]
    assert list(parse_deal_range(text)) == list(dict.fromkeys(every))


# --- summaries -------------------------------------------------------------------------


def test_the_summary_says_which_limit_the_unknowns_hit() -> None:
    summary = BatchSummary("citadel", "1-6", planned=6, jobs=1, wall_seconds=1.0)
    limits = [None, None, "seconds", "seconds", "states", "memory"]
    for i, limit in enumerate(limits):
        status = "solved" if limit is None else "unknown"
        summary.add(DealResult(i, i + 1, status, 10, 0.1, 5, limit))
    text = "\n".join(line.plain for line in summary.lines())
    assert "(2 hit the time limit, 1 hit the states limit, 1 hit the memory limit)" in text
    assert "limit:" not in text


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--max-seconds", "1000000"], "limits per deal: 1000000 s, 4 GiB of memory"),
        (["--max-cpu-seconds", "1e6"], "limits per deal: 1000000 s of CPU, 4 GiB of memory"),
        (["--max-seconds", "0.5"], "limits per deal: 0.5 s, 4 GiB of memory"),
    ],
)
def test_a_batch_says_its_time_limits_as_they_were_given(
    capsys: pytest.CaptureFixture[str], flags: list[str], said: str
) -> None:
    # Never in exponent form ("1e+06 s"), however large.
    code, out, err = run(capsys, "solve", "--deals", "1-2", *flags)
    assert code == 0, err
    assert said in out + err, out + err


# --- the progress display --------------------------------------------------------------


@pytest.mark.parametrize(
    "title", ["deals 1-100000", "Streets and Alleys unknown", "deals 1-10,48,100-12..."]
)
def test_the_progress_display_fits_80_columns(title: str) -> None:
    # The widest it gets: a long title, six-figure counts, a rate and an estimate.
    counts = Counter(solved=99_000, unsolvable=100_000, unknown=100_000)
    terminal = Console(file=io.StringIO(), width=80, force_terminal=True, color_system=None)
    progress = BatchProgress(terminal, 400_000, title, enabled=True, done=299_000, counts=counts)
    for i in range(3):
        progress.advance(DealResult(i, i + 1, "solved", 10, 0.1, 5, None))
        time.sleep(0.02)  # rich's rate and estimate need time between the steps
    screen = Console(file=io.StringIO(), width=80, color_system=None)
    with screen.capture() as capture:
        screen.print(Group(*progress.renderables()))
    lines = capture.get().rstrip("\n").split("\n")
    assert len(lines) == 2, lines  # the bar's line and the verdicts' line, none wrapped
    assert all(len(line.rstrip()) <= 80 for line in lines), lines
    assert lines[0].startswith(title + " ") and "eta" in lines[0]
    assert "299,003/400,000" in lines[0] or "299003/400000" in lines[0]
    assert "99,003 solved  100,000 unsolvable  100,000 unknown" in lines[1]
    assert "deals/s" in lines[1]


DURATION = re.compile(r"(?:\d+(?:\.\d+)? (?:ms|s)|\d+ min \d\d s|\d+ h \d\d min)")


@given(st.floats(min_value=0, max_value=1e6, allow_nan=False))
def test_a_duration_reads_as_digits_and_a_unit(seconds: float) -> None:
    # CI printed "1e+03 ms" for a survey that took 0.9996 s.
    text = format_seconds(seconds)
    assert DURATION.fullmatch(text), text
    number = float(text.split()[0])
    if text.endswith(" ms"):
        assert number < 1000
    elif text.endswith(" s") and "min" not in text:
        assert 1 <= number < 60


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0.00042, "0.42 ms"),
        (0.9994, "999 ms"),
        (0.9996, "1 s"),
        (2.41, "2.41 s"),
        (59.97, "1 min 00 s"),
        (185, "3 min 05 s"),
    ],
)
def test_durations_at_the_edges_of_their_units(seconds: float, text: str) -> None:
    assert format_seconds(seconds) == text
