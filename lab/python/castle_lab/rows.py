"""What the lab's runs over many deals share: a win checked by replaying it through
``castle.reference`` (the pure-Python rules, which share no code with the Rust searches),
and a CSV file of rows appended as each deal ends, so that a run stopped or killed resumes
with the same command."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from castle import Deal, IllegalMoveError, reference
from castle.solving.solve import make_move


def replays(deal: Deal, moves: Sequence[tuple[int, int, int]]) -> bool:
    """Whether ``moves`` (as ``castle._core`` gives them) are legal from the deal and win it."""
    try:
        return reference.replay(deal, [make_move(*m) for m in moves]).is_won()
    except IllegalMoveError:
        return False


def read(path: Path) -> list[dict[str, str]]:
    """The rows the file holds (none if there is no file yet)."""
    if not path.exists():
        return []
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


@contextmanager
def appended(
    path: Path, columns: Sequence[str]
) -> Iterator[Callable[[Mapping[str, object]], None]]:
    """A function that appends a row to the file and flushes it (the header first in a new
    file)."""
    new_file = not path.exists()
    with path.open("a", newline="") as f:
        out = csv.DictWriter(f, fieldnames=columns)
        if new_file:
            out.writeheader()

        def write(row: Mapping[str, object]) -> None:
            out.writerow(row)
            f.flush()

        yield write
