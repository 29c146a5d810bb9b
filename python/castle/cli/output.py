"""Text for people: consoles, the verdict of one deal, its moves, numbers and times."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from typing import IO

from rich.console import Console
from rich.text import Text

from ..family import AnyDeal, AnyMove, AnySolution, Family, family_of
from ..variants import NAMES

STATUS_STYLES = {"solved": "bold green", "unsolvable": "bold red", "unknown": "bold yellow"}
#: How to go further past each limit an ``unknown`` can report.
LIMIT_ADVICE = {
    "states": "raise --max-states",
    "seconds": "raise --max-seconds",
    "cpu-seconds": "raise --max-cpu-seconds",
    "memory": "raise --max-memory or give --spill-dir",
    "disk": "raise --max-disk or free space in --spill-dir",
}
#: A limit's word in a sentence, where it is not the answer's ``limit`` itself.
LIMIT_NAMES = {"cpu-seconds": "CPU time"}
#: The verdict's words for a complete search (a win's are the family's).
UNSOLVABLE_WORDS = "the search was complete: no sequence of moves wins"
#: Moves written per ``write`` call: one call per line is slow for long solutions.
_CHUNK = 4096


class _Console(Console):
    def on_broken_pipe(self) -> None:
        # rich would exit(1) here; let main treat it like any other closed stdout.
        self.quiet = True
        raise BrokenPipeError


def make_console(stderr: bool = False) -> Console:
    """A console on stdout or stderr; rich drops colour off a terminal or under NO_COLOR."""
    return _Console(
        file=sys.stderr if stderr else sys.stdout,
        highlight=False,
        markup=False,
        soft_wrap=True,
        emoji=False,
    )


def arrow_for(stream: IO[str]) -> str:
    """``→`` if the stream can encode it, else ``->``."""
    try:
        "→".encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return "->"
    return "→"


def status_text(status: str) -> Text:
    return Text(status, style=STATUS_STYLES.get(status, ""))


def deal_title(deal: AnyDeal, source: str | None = None) -> str:
    """``Citadel deal 17`` or ``Beleaguered Castle board from board.txt``."""
    name = NAMES.get(deal.variant, deal.variant)
    if deal.number is not None:
        return f"{name} deal {deal.number}"
    return f"{name} board from {source or 'text'}"


def format_seconds(seconds: float) -> str:
    """A duration at a readable scale: ``0.42 ms``, ``18.3 ms``, ``2.41 s``, ``3 min 05 s``."""
    # Rounded first, so that 0.9996 s reads ``1 s``, not ``1e+03 ms``.
    if (ms := float(f"{seconds * 1000:.3g}")) < 1000:
        return f"{three_figures(ms)} ms"
    if (whole := float(f"{seconds:.3g}")) < 60:
        return f"{three_figures(whole)} s"
    minutes, secs = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def three_figures(value: float) -> str:
    """Three significant figures, never in exponent form: ``0.00042``, ``18.3``, ``1000``."""
    text = f"{value:.3g}"
    return plain_number(float(text)) if "e" in text else text


def plain_number(value: float) -> str:
    """A number as a person writes it, never in exponent form, no figure added or dropped that
    matters: ``1800``, ``0.5``, ``1000000`` (a limit as it was given)."""
    text = f"{value:.15g}"
    if "e" in text:
        text = f"{value:.15f}".rstrip("0").rstrip(".")
    return text


def bytes_text(size: int) -> str:
    """An amount of bytes to read at a glance: ``820 MiB``, ``7.91 GiB``."""
    if size < 2**30:
        return f"{size / 2**20:,.0f} MiB"
    return f"{size / 2**30:,.2f} GiB"


def format_size(size: int) -> str:
    """Bytes in the largest binary unit that keeps a whole number: ``4 GiB``, ``1536 MiB``."""
    for unit, scale in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if size >= scale and size % scale == 0:
            return f"{size // scale:,} {unit}"
    return f"{size:,} bytes"


def format_percent(fraction: float) -> str:
    """``51.2%``; with as many more digits as it takes not to show a rate that is not whole as
    0% or 100% (eight deals lost in a million: ``99.999%``, not ``100.0%``)."""
    for digits in range(1, 7):
        text = f"{100 * fraction:.{digits}f}"
        if not 0 < fraction < 1 or float(text) not in (0.0, 100.0):
            return f"{text}%"
    return f"{100 * fraction:.6f}%"


def format_rate(per_second: float) -> str:
    """``12.3 deals/s``, or ``41.5 s/deal`` below one a second (Spider's fair games)."""
    if per_second >= 1:
        return f"{per_second:,.1f} deals/s"
    return f"{1 / per_second:,.1f} s/deal" if per_second > 0 else "no deal yet"


def move_lines(family: Family, moves: Sequence[AnyMove], arrow: str = "→") -> Iterator[str]:
    """``  1. 7H  column 4 → column 6``: numbered from 1, columns 1-based, each move as its
    family writes it."""
    width = len(str(len(moves)))
    for number, move in enumerate(moves, 1):
        yield f"  {number:>{width}}. {family.move_text(move, arrow)}"


def write_lines(stream: IO[str], lines: Iterator[str]) -> None:
    """Write ``lines`` in large chunks."""
    chunk: list[str] = []
    for line in lines:
        chunk.append(line)
        if len(chunk) == _CHUNK:
            stream.write("\n".join(chunk) + "\n")
            chunk.clear()
    if chunk:
        stream.write("\n".join(chunk) + "\n")


def print_solution(
    console: Console,
    deal: AnyDeal,
    solution: AnySolution,
    source: str | None,
) -> None:
    """The verdict (coloured), states and time, then every move, numbered."""
    family = family_of(deal.variant)
    status = solution.status
    if status == "unknown":
        limit = solution.limit
        name = LIMIT_NAMES.get(limit, limit) if limit else None
        verdict = f"the search stopped at the {name} limit" if name else "a limit stopped it"
        if limit in LIMIT_ADVICE:
            verdict += f"; {LIMIT_ADVICE[limit]} to search further"
    elif status == "solved":
        verdict = family.solved_words
    else:
        verdict = UNSOLVABLE_WORDS
    console.print(Text.assemble((deal_title(deal, source), "bold"), ": ", status_text(status)))
    console.print(Text(verdict, style="dim"))
    stats = f"{solution.states:,} states in {format_seconds(solution.seconds)}"
    if status == "solved":
        stats += f"; {len(solution.moves):,} moves:"
    console.print(stats)
    if solution.moves:
        console.file.flush()
        write_lines(console.file, move_lines(family, solution.moves, arrow_for(console.file)))


def json_line(deal: AnyDeal, solution: AnySolution) -> str:
    """The solution as one line of JSON: ``Solution.to_json(deal)``, 0-based columns."""
    return json.dumps(family_of(deal.variant).solution_json(deal, solution))
