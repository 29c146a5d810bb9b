"""The benches' CSV files of results, written as each deal's rows come in, so that a run
stopped or killed resumes with the same command (the deals already in the file skipped by the
caller). Used by fair_trials.py, fair_value.py and fair_exits_value.py."""

from __future__ import annotations

import csv
import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

Row = dict[str, Any]


def append_as_done(
    path: Path,
    columns: Sequence[str],
    job: Callable[[int], list[Row]],
    todo: Sequence[int],
    jobs: int,
    describe: Callable[[list[Row]], str],
) -> None:
    """``job(deal)`` for each deal of ``todo`` on ``jobs`` processes (``job`` must pickle: a
    module's function, or a partial of one); each deal's rows appended to ``path`` as it ends
    (the header first if the file is new or empty), flushed to the disk, and a line on stderr:
    ``[i/n]`` and ``describe(rows)``. A file whose header is not ``columns`` is refused,
    untouched."""
    # A run stopped before its first deal ended may have left the file empty.
    new = not path.exists() or path.stat().st_size == 0
    if not new:
        with path.open(newline="") as f:
            header = next(csv.reader(f), [])
        if header != list(columns):
            # Rows of another shape appended under this header could not be read back.
            raise SystemExit(
                f"{path}: its columns are {','.join(header)}, not {','.join(columns)}: "
                "another bench's file, or an older one; write to a new file"
            )
    with path.open("a", newline="") as f, ProcessPoolExecutor(max_workers=jobs) as pool:
        out = csv.DictWriter(f, columns)
        if new:
            out.writeheader()
            f.flush()
        futures = [pool.submit(job, deal) for deal in todo]
        for i, future in enumerate(as_completed(futures), 1):
            rows = future.result()
            out.writerows(rows)
            f.flush()
            os.fsync(f.fileno())
            print(f"[{i}/{len(todo)}] {describe(rows)}", file=sys.stderr)
