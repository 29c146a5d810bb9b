"""What the Dask engine costs: the same deals solved locally and through a Dask LocalCluster.

    python benches/cluster_overhead.py --variant beleaguered-castle --deals 1-3000 \\
        --max-states 3000000 --workers 2 --rounds 3

Each round solves the deals twice, in turn: with ``--workers`` local worker processes (what
``castle survey --jobs N`` does) and on a fresh LocalCluster of ``--workers`` single-threaded
worker processes (``castle survey --dask-local N``). Both go through
:func:`castle.cli.batch.solve_batch`, as the survey does, but store nothing. A state budget
(no time limit) makes the work the same both ways, deal for deal. The rate counts from the
first deal sent to the last result; the LocalCluster's start-up is printed apart (a survey
pays it once). The machine is shared and noisy: the rounds alternate the two, and the median
of the per-round ratios is the figure.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from castle.cli.batch import solve_batch
from castle.cli.cluster import connect
from castle.cli.engine import Job
from castle.cli.output import make_console
from castle.cli.progress import BatchProgress
from castle.cli.report import DealResult
from castle.solving.deal import parse_deal_range
from castle.solving.settings import SolveSettings


def rate(job: Job, numbers: Sequence[int], workers: int, *, dask: bool) -> tuple[float, float]:
    """(deals per second, seconds to start the cluster) for one pass over ``numbers``."""
    quiet = BatchProgress(make_console(stderr=True), len(numbers), "", enabled=False)
    done: list[DealResult] = []
    started = time.perf_counter()
    with connect(None, workers if dask else None) as cluster:
        startup = time.perf_counter() - started
        summary = solve_batch(
            job, numbers, "", jobs=workers, progress=quiet, on_result=done.append, cluster=cluster
        )
    if summary.failure or summary.interrupted or len(done) != len(numbers):
        raise SystemExit(f"the {'Dask' if dask else 'local'} pass did not finish: {summary}")
    return len(numbers) / summary.wall_seconds, startup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="beleaguered-castle")
    parser.add_argument("--deals", default="1-3000")
    parser.add_argument("--max-states", type=int, default=3_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    numbers = list(parse_deal_range(args.deals))
    job = Job(args.variant, SolveSettings(max_states=args.max_states))
    print(
        f"{args.variant} deals {args.deals}, {args.max_states:,} states per deal, "
        f"{args.workers} workers"
    )
    print("round  local deals/s  Dask deals/s  Dask/local  cluster start-up")
    ratios = []
    for round_ in range(1, args.rounds + 1):
        local, _ = rate(job, numbers, args.workers, dask=False)
        on_dask, startup = rate(job, numbers, args.workers, dask=True)
        ratios.append(on_dask / local)
        print(
            f"{round_:>5}  {local:>13,.1f}  {on_dask:>12,.1f}  {on_dask / local:>10.3f}  "
            f"{startup:>14.2f} s"
        )
    median = statistics.median(ratios)
    print(f"median Dask/local: {median:.3f} (the engine's overhead: {100 * (1 - median):.1f}%)")


if __name__ == "__main__":
    main()
