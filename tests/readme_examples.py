"""The example outputs and figures of README.md and of the pages of docs/ (the documentation
site's), made by the program itself.

Two kinds of things in those pages come from castle's output:

- **Output blocks.** A fenced block right after a comment ``<!-- output: COMMAND -->`` holds what
  COMMAND prints. The command runs in bash, in a fresh empty directory (so a survey file it
  makes starts empty), with ``castle`` being the castle of this Python and ``keep-moves N``
  a filter that keeps the first N moves of each JSON line (for a short JSON example).
- **Figures in prose**, listed in :data:`FIGURES`: a pattern that finds them in a page (or in
  several: each is checked) and what the program gives now.

What legitimately varies from run to run (times, rates, the seconds in JSON, dates, the
spaces that align a table's columns) is normalised before comparing.

    python tests/readme_examples.py            # check: exit 1 and a diff if anything drifted
    python tests/readme_examples.py --write    # rewrite what drifted, in every page

``--write`` leaves a block whose normalised output is unchanged as it is (no churn of times),
and touches only the blocks and figures it rewrites. tests/docs/test_readme.py runs the same checks.
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
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"

#: A marked block: the comment naming the command, then the fenced block it fills.
BLOCK = re.compile(
    r"<!-- output: (?P<command>.+?) -->\n(?P<fence>```[\w-]*\n)(?P<body>.*?)```", re.S
)

#: Seconds allowed to one command before the check calls it stuck.
COMMAND_TIMEOUT = 300


# --- output blocks ----------------------------------------------------------------------------


def pages() -> list[Path]:
    """The pages whose examples are checked: README.md and every page of docs/."""
    return [README, *sorted(DOCS.rglob("*.md"))]


def page_name(page: Path) -> str:
    """``page`` as the repository names it (``docs/guide/python.md``)."""
    return page.relative_to(ROOT).as_posix() if page.is_relative_to(ROOT) else page.name


@dataclass(frozen=True)
class Example:
    """A marked output block: the command and what ``page`` shows (``start``, ``end``: where
    that text lies in the page)."""

    command: str
    shown: str
    start: int
    end: int
    page: Path = README


def examples(text: str, page: Path = README) -> list[Example]:
    """The marked output blocks of a page's text, in order."""
    return [
        Example(
            re.sub(r"\s*\n\s*", " ", m["command"]),
            m["body"],
            m.start("body"),
            m.end("body"),
            page,
        )
        for m in BLOCK.finditer(text)
    ]


def all_examples(paths: Sequence[Path] | None = None) -> list[Example]:
    """The marked output blocks of every page (default :func:`pages`), page by page."""
    return [e for path in paths or pages() for e in examples(path.read_text(), path)]


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
    """A diff of the page's block against the command's output ("" when they agree after
    normalising)."""
    shown, made = normalise(example.shown), normalise(output)
    if shown == made:
        return ""
    return "".join(
        difflib.unified_diff(
            shown.splitlines(keepends=True),
            made.splitlines(keepends=True),
            f"{page_name(example.page)}: {example.command}",
            "the program's output",
        )
    )


# --- figures in prose -------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """Figures in the pages' prose: ``pattern`` finds them (a group each) and ``values``
    gives what the program says now, one string per group."""

    what: str
    pattern: str
    values: Callable[[], tuple[str, ...]]

    def find(self, texts: Mapping[Path, str]) -> list[tuple[Path, re.Match[str]]]:
        """Where the figure is: each page of ``texts`` that has it. Raises ``LookupError``
        when none has it (a figure no page shows is no longer checked)."""
        found = [(path, m) for path, text in texts.items() if (m := re.search(self.pattern, text))]
        if not found:
            raise LookupError(f"no page has the figure of {self.what} any longer: {self.pattern}")
        return found


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
        "the verdict and moves of deal 2 in the first solve from Python",
        r"print\(solution\.status, len\(solution\.moves\)\) +# (\w+) (\d+)\n",
        lambda: (
            _verdicts("beleaguered-castle", 2, 2)[0][0],
            str(_verdicts("beleaguered-castle", 2, 2)[0][2]),
        ),
    ),
    Figure(
        "the first move of deal 2 in the first solve from Python",
        r"print\(solution\.moves\[0\]\) +# (.+)\n",
        lambda: (_first_move("beleaguered-castle", 2),),
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
        r"all decided, (\d+) winnable / (\d+) not .*?\(162, a proof of ([\d,]+) states",
        lambda: (
            str(_count("beleaguered-castle", "solved")),
            str(_count("beleaguered-castle", "unsolvable")),
            f"{_verdicts('beleaguered-castle', 1, 200)[162 - 1][1]:,}",
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


def figure_drifts(figure: Figure, texts: Mapping[Path, str]) -> list[str]:
    """What differs between the pages' figures and the program's, a message per page."""
    made = figure.values()
    return [
        f"{figure.what}: {page_name(path)} says {', '.join(match.groups())}; "
        f"the program gives {', '.join(made)}"
        for path, match in figure.find(texts)
        if tuple(match.groups()) != tuple(made)
    ]


def figure_drift(figure: Figure, texts: Mapping[Path, str]) -> str:
    """What differs between the pages' figures and the program's ("" when they agree)."""
    return "\n".join(figure_drifts(figure, texts))


def read(paths: Sequence[Path]) -> dict[Path, str]:
    """Each page's text."""
    return {path: path.read_text() for path in paths}


# --- check and write --------------------------------------------------------------------------


def check(paths: Sequence[Path] | None = None, figures: Sequence[Figure] = FIGURES) -> list[str]:
    """Every drift between the pages (default :func:`pages`) and the program, as readable
    messages."""
    texts = read(paths or pages())
    problems = [d for e in all_examples(list(texts)) if (d := drift(e, run(e.command)))]
    problems += [d for f in figures for d in figure_drifts(f, texts)]
    return problems


def write(paths: Sequence[Path] | None = None, figures: Sequence[Figure] = FIGURES) -> list[str]:
    """Rewrite the blocks and figures that drifted, in every page (default :func:`pages`);
    what was rewritten. The commands run first; the pages are read after them, just before
    they are written (others may be editing them)."""
    paths = list(paths or pages())
    outputs = {e.command: run(e.command) for e in all_examples(paths)}
    values = {f.what: f.values() for f in figures}
    texts = read(paths)
    found = {f.what: dict(f.find(texts)) for f in figures}
    changed: list[str] = []
    for path, text in texts.items():
        edits: list[tuple[int, int, str]] = []
        for example in examples(text, path):
            output = outputs.get(example.command)
            if output is None:
                output = run(example.command)  # a block marked while the commands ran
            if drift(example, output):
                edits.append((example.start, example.end, output))
                changed.append(f"{page_name(path)}: block: {example.command}")
        for figure in figures:
            match = found[figure.what].get(path)
            if match is None:
                continue
            for group, value in enumerate(values[figure.what], start=1):
                if match.group(group) != value:
                    edits.append((match.start(group), match.end(group), value))
                    changed.append(
                        f"{page_name(path)}: figure: {figure.what}: {match.group(group)} → {value}"
                    )
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
