"""The README's example outputs and figures, made by the program itself.

Two kinds of things in README.md come from castle's output:

- **Output blocks.** A fenced block right after a comment ``<!-- output: COMMAND -->`` holds what
  COMMAND prints. The command runs in bash, in a fresh empty directory (so a survey file it
  makes starts empty), with ``castle`` being the castle of this Python and ``keep-moves N``
  a filter that keeps the first N moves of each JSON line (for a short JSON example).
- **Figures in prose**, listed in :data:`FIGURES`: a pattern that finds them in the README and
  what the program gives now.

What legitimately varies from run to run (times, rates, the seconds in JSON, dates, the
spaces that align a table's columns) is normalised before comparing.

    python tests/readme_examples.py            # check: exit 1 and a diff if anything drifted
    python tests/readme_examples.py --write    # rewrite what drifted in README.md

``--write`` leaves a block whose normalised output is unchanged as it is (no churn of times),
and touches only the blocks and figures it rewrites. tests/test_readme.py runs the same checks.
"""

from __future__ import annotations

import argparse
import difflib
import functools
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

#: A marked block: the comment naming the command, then the fenced block it fills.
BLOCK = re.compile(
    r"<!-- output: (?P<command>.+?) -->\n(?P<fence>```[\w-]*\n)(?P<body>.*?)```", re.S
)

#: Seconds allowed to one command before the check calls it stuck.
COMMAND_TIMEOUT = 300


# --- output blocks ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Example:
    """A marked output block: the command and what the README shows (``start``, ``end``: where
    that text lies in the README)."""

    command: str
    shown: str
    start: int
    end: int


def examples(text: str) -> list[Example]:
    """The marked output blocks of README text, in order."""
    return [
        Example(re.sub(r"\s*\n\s*", " ", m["command"]), m["body"], m.start("body"), m.end("body"))
        for m in BLOCK.finditer(text)
    ]


def run(command: str) -> str:
    """What ``command`` prints (stdout), run as the README's reader would run it. Raises
    ``RuntimeError`` when it fails."""
    with tempfile.TemporaryDirectory(prefix="castle-readme-") as tmp:
        bin_dir = Path(tmp, "bin")
        bin_dir.mkdir()
        work = Path(tmp, "work")
        work.mkdir()
        shims = {
            "castle": f'exec "{sys.executable}" -m castle "$@"',
            "python": f'exec "{sys.executable}" "$@"',
            "keep-moves": f'exec "{sys.executable}" "{Path(__file__).resolve()}" keep-moves "$@"',
        }
        for name, line in shims.items():
            shim = bin_dir / name
            shim.write_text(f"#!/bin/sh\n{line}\n")
            shim.chmod(0o755)
        env = {
            **os.environ,
            "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
            "CASTLE_DATA_DIR": str(Path(tmp, "data")),
            "COLUMNS": "100",
            "NO_COLOR": "1",
            "TERM": "dumb",
        }
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT,
            check=False,
        )
    if done.returncode != 0:
        raise RuntimeError(f"{command!r} exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout


_NORMALISE: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?"), "<date>"),
    (re.compile(r"\d[\d,.]* deals/s"), "<rate>"),
    (re.compile(r"\b\d[\d,]*(?:\.\d+)?(?:e-?\d+)? ?(?:ns|µs|us|ms|s|min|h)\b"), "<time>"),
    # A duration of two units ("1 min 05 s", on a loaded machine) is one time.
    (re.compile(r"<time>(?: <time>)+"), "<time>"),
    (re.compile(r'"seconds": [\d.e-]+'), '"seconds": <time>'),
    (re.compile(r"\btime \d+:\d\d\b"), "time <clock>"),  # the player's clock
    (re.compile(r"[ \t]+"), " "),
    (re.compile(r" +$", re.M), ""),
]


def normalise(text: str) -> str:
    """``text`` with what varies between runs replaced: times, rates, seconds, dates, and the
    spaces that align columns."""
    for pattern, replacement in _NORMALISE:
        text = pattern.sub(replacement, text)
    return text


def drift(example: Example, output: str) -> str:
    """A diff of the README's block against the command's output ("" when they agree after
    normalising)."""
    shown, made = normalise(example.shown), normalise(output)
    if shown == made:
        return ""
    return "".join(
        difflib.unified_diff(
            shown.splitlines(keepends=True),
            made.splitlines(keepends=True),
            f"README.md: {example.command}",
            "the program's output",
        )
    )


# --- figures in prose -------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """Figures in the README's prose: ``pattern`` finds them (a group each) and ``values``
    gives what the program says now, one string per group."""

    what: str
    pattern: str
    values: Callable[[], tuple[str, ...]]

    def find(self, text: str) -> re.Match[str]:
        match = re.search(self.pattern, text)
        if match is None:
            raise LookupError(f"README.md no longer has the figure of {self.what}: {self.pattern}")
        return match


def _castle_moves(variant: str, number: int, *, short: bool = False) -> int:
    import castle

    return len(castle.solve(castle.Deal.from_number(variant, number), short=short).moves)


def _spider_moves(variant: str, number: int) -> int:
    import castle

    return len(castle.solve(castle.SpiderDeal.from_number(variant, number)).moves)


@functools.cache
def _verdicts(variant: str, first: int, last: int) -> tuple[tuple[str, int, int], ...]:
    """(status, states, moves) of each deal in ``first``-``last``, no limits."""
    import castle

    out = []
    for number in range(first, last + 1):
        solution = castle.solve(castle.Deal.from_number(variant, number))
        out.append((solution.status, solution.states, len(solution.moves)))
    return tuple(out)


def _count(variant: str, status: str) -> int:
    return sum(1 for s, _, _ in _verdicts(variant, 1, 200) if s == status)


def _median_moves() -> str:
    wins = [moves for s, _, moves in _verdicts("beleaguered-castle", 1, 200) if s == "solved"]
    return f"{statistics.median(wins):g}"


def _first_move(variant: str, number: int) -> str:
    import castle

    return str(castle.solve(castle.Deal.from_number(variant, number)).moves[0])


def _spider_json_moves() -> tuple[str, str]:
    """The first run taken off and the first move of several cards of spider-2 deal 3, as
    ``castle solve --json`` writes them."""
    moves = json.loads(run("castle solve --variant spider-2 --deal 3 --json"))["moves"]
    off = next(m for m in moves if "off" in m)
    several = next(m for m in moves if len(m.get("cards", ())) > 1)
    return json.dumps(off), json.dumps(several)


FIGURES: list[Figure] = [
    Figure(
        "the verdict of deal 1, the set-up's",
        r"Deal 1 of Beleaguered Castle is \*\*(\w+)\*\*",
        lambda: (_verdicts("beleaguered-castle", 1, 1)[0][0],),
    ),
    Figure(
        "--short on deal 2 (moves with --short, moves without)",
        r"castle solve --deal 2 --short +# more search for a shorter win"
        r" \((\d+) moves, not (\d+)\)",
        lambda: (
            str(_castle_moves("beleaguered-castle", 2, short=True)),
            str(_castle_moves("beleaguered-castle", 2)),
        ),
    ),
    Figure(
        "the first move of deal 67 in the Python example",
        r'print\(move\) +# "(.+?)"',
        lambda: (_first_move("beleaguered-castle", 67),),
    ),
    Figure(
        "the length of castle.solve's win of deal 67",
        r"castle.solve wins deal 67 in its beam pass, below,\s+in (\d+);",
        lambda: (str(_castle_moves("beleaguered-castle", 67)),),
    ),
    Figure(
        "the median win of Beleaguered Castle 1-200",
        r";\s+median\s+on\s+Beleaguered\s+Castle\s+1[-\u2013]200:\s+(\d+)\)",
        lambda: (_median_moves(),),
    ),
    Figure(
        "the median win of Beleaguered Castle 1-200, before --short",
        r"Beleaguered\s+Castle\s+1[-\u2013]200:\s+\d+\s+moves\s+instead\s+of\s+(\d+),",
        lambda: (_median_moves(),),
    ),
    Figure(
        "the verdicts of Beleaguered Castle 1-200 and deal 162's proof",
        r"all decided, (\d+) winnable / (\d+) not .*?\(162, a ([\d.]+)M-state proof\)",
        lambda: (
            str(_count("beleaguered-castle", "solved")),
            str(_count("beleaguered-castle", "unsolvable")),
            f"{_verdicts('beleaguered-castle', 1, 200)[162 - 1][1] / 1e6:.1f}",
        ),
    ),
    Figure(
        "the verdicts of Citadel 1-200",
        r"\| Citadel 1[-\u2013]200 \| all decided, (\d+) / (\d+),",
        lambda: (str(_count("citadel", "solved")), str(_count("citadel", "unsolvable"))),
    ),
    Figure(
        "the moves of Spider-1 deal 1",
        r"castle solve --variant spider-1 --deal 1 +# (\d+) moves",
        lambda: (str(_spider_moves("spider-1", 1)),),
    ),
    Figure(
        "moves of Spider-2 deal 3 in JSON",
        r'--deal 3 --json +# moves such as \{"deal": true\}, (\{"off": \d+\}),\n +# (\{.*?\})\n',
        _spider_json_moves,
    ),
]


def figure_drift(figure: Figure, text: str) -> str:
    """What differs between the README's figures and the program's ("" when they agree)."""
    shown, made = figure.find(text).groups(), figure.values()
    if tuple(shown) == tuple(made):
        return ""
    return f"{figure.what}: README.md says {', '.join(shown)}; the program gives {', '.join(made)}"


# --- check and write --------------------------------------------------------------------------


def check(path: Path = README, figures: Sequence[Figure] = FIGURES) -> list[str]:
    """Every drift between the README and the program, as readable messages."""
    text = path.read_text()
    problems = [d for e in examples(text) if (d := drift(e, run(e.command)))]
    problems += [d for f in figures if (d := figure_drift(f, text))]
    return problems


def write(path: Path = README, figures: Sequence[Figure] = FIGURES) -> list[str]:
    """Rewrite the blocks and figures that drifted; what was rewritten. The commands run
    first; the README is read again just before it is written (others may be editing it)."""
    outputs = {e.command: run(e.command) for e in examples(path.read_text())}
    values = {f.what: f.values() for f in figures}
    text = path.read_text()
    edits: list[tuple[int, int, str]] = []
    changed: list[str] = []
    for example in examples(text):
        output = outputs.get(example.command)
        if output is None:
            output = run(example.command)  # a block marked while the commands ran
        if drift(example, output):
            edits.append((example.start, example.end, output))
            changed.append(f"block: {example.command}")
    for figure in figures:
        match = figure.find(text)
        made = values[figure.what]
        for group, value in enumerate(made, start=1):
            if match.group(group) != value:
                edits.append((match.start(group), match.end(group), value))
                changed.append(f"figure: {figure.what}: {match.group(group)} → {value}")
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    if edits:
        path.write_text(text)
    return changed


def keep_moves(count: int, lines: Iterator[str]) -> Iterator[str]:
    """Each JSON line with only its first ``count`` moves."""
    for line in lines:
        if line.strip():
            data = json.loads(line)
            data["moves"] = data["moves"][:count]
            yield json.dumps(data, ensure_ascii=False)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["keep-moves"]:
        for line in keep_moves(int(args[1]), iter(sys.stdin)):
            print(line)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="rewrite what drifted")
    options = parser.parse_args(args)
    if options.write:
        for change in write():
            print(change)
        return 0
    problems = check()
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
