"""Batches of numbered deals: worker processes, deal-order output, Ctrl+C, the summary."""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.context import BaseContext
from types import FrameType

from rich.console import Console

from ..deal import Deal
from ..solve import solve
from .csvfile import AtomicCsv
from .output import format_size, json_line
from .progress import BatchProgress
from .report import BatchSummary, DealResult

#: Futures in flight per worker: enough to keep each busy, few enough to stop quickly.
_IN_FLIGHT_PER_JOB = 4
#: Seconds of solving a chunk of quick deals should take: fewer round trips to the workers.
_CHUNK_SECONDS = 0.05
_MAX_CHUNK = 64


@dataclass(frozen=True)
class Job:
    """What every deal of a batch shares (sent to the workers)."""

    variant: str
    max_states: int | None
    max_seconds: float | None
    max_memory: int
    json: bool = False

    def describe_limits(self) -> str:
        parts = []
        if self.max_states is not None:
            parts.append(f"{self.max_states:,} states")
        if self.max_seconds is not None:
            parts.append(f"{self.max_seconds:g} s")
        parts.append(f"{format_size(self.max_memory)} table")
        return ", ".join(parts)


def solve_chunk(job: Job, start: int, numbers: Sequence[int]) -> list[DealResult]:
    """Solve deals ``numbers`` (positions ``start``... of the batch); runs in a worker."""
    results = []
    for offset, number in enumerate(numbers):
        deal = Deal.from_number(job.variant, number)
        solution = solve(
            deal, max_states=job.max_states, max_seconds=job.max_seconds, max_memory=job.max_memory
        )
        results.append(
            DealResult(
                position=start + offset,
                number=number,
                status=solution.status,
                states=solution.states,
                seconds=solution.seconds,
                moves=len(solution.moves),
                limit=solution.limit,
                json=json_line(deal, solution) if job.json else None,
            )
        )
    return results


class InterruptGuard:
    """Ctrl+C raises KeyboardInterrupt as usual, except inside ``held()`` sections.

    There it waits for the section's end, so a result is counted and written whole: a
    KeyboardInterrupt inside a write to a pipe can leave half a JSON line behind.
    """

    def __init__(self) -> None:
        self._depth = 0
        self._pending = False
        self._installed = False
        self._previous = signal.getsignal(signal.SIGINT)

    def __enter__(self) -> InterruptGuard:
        # Only the main thread may set handlers (and only it gets KeyboardInterrupt).
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, self._handle)
            self._installed = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self._installed:
            previous = self._previous
            signal.signal(signal.SIGINT, signal.SIG_DFL if previous is None else previous)

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self._depth:
            self._pending = True
        else:
            raise KeyboardInterrupt

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
        if not self._depth and self._pending:
            self._pending = False
            raise KeyboardInterrupt


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Hold Ctrl+C back while worker processes may start; it arrives when this ends.

    Children inherit the signal mask, so a Ctrl+C cannot hit the forkserver or a worker
    mid-import (each would print a traceback); they never unblock it, as intended.
    """
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _ignore_sigint() -> None:
    # Ctrl+C reaches the whole process group; the parent alone decides, then ends the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _context() -> BaseContext:
    # forkserver: workers fork from a clean single-threaded server, not from this process
    # (which runs rich's refresh thread); spawn where there is no forkserver (Windows).
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the workers now (a deal can run for minutes)."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
        return
    # Before 3.14 there is no public way: end the processes the pool keeps privately.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    # With the workers gone, waiting is quick; and joining the pool's manager thread now
    # keeps it from racing concurrent.futures' exit hook (an "Exception ignored" traceback).
    pool.shutdown(wait=bool(processes), cancel_futures=True)


class OrderedSink:
    """Passes results on in batch order, holding back those that finish early."""

    def __init__(self, emit: Callable[[DealResult], None]) -> None:
        self._emit = emit
        self._next = 0
        self._held: dict[int, DealResult] = {}

    def add(self, result: DealResult) -> None:
        self._held[result.position] = result
        while self._next in self._held:
            self._emit(self._held.pop(self._next))
            self._next += 1

    def flush(self) -> None:
        """Pass on the rest (an interrupted batch has gaps), still in order."""
        for index in sorted(self._held):
            self._emit(self._held.pop(index))


def _run_here(job: Job, numbers: Sequence[int], on_result: Callable[[DealResult], None]) -> None:
    for index, number in enumerate(numbers):
        for result in solve_chunk(job, index, [number]):
            on_result(result)


def _run_in_pool(
    job: Job, numbers: Sequence[int], jobs: int, on_result: Callable[[DealResult], None]
) -> None:
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=_context(), initializer=_ignore_sigint)
    try:
        pending: set[Future[list[DealResult]]] = set()
        position = 0
        solved, seconds = 0, 0.0
        while position < len(numbers) or pending:
            with _sigint_blocked():  # submit() starts the workers
                while position < len(numbers) and len(pending) < jobs * _IN_FLIGHT_PER_JOB:
                    size = _chunk_size(
                        seconds / solved if solved else None, len(numbers) - position, jobs
                    )
                    chunk = numbers[position : position + size]
                    pending.add(pool.submit(solve_chunk, job, position, chunk))
                    position += size
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                for result in future.result():
                    solved += 1
                    seconds += result.seconds
                    on_result(result)
    except BaseException:
        _stop_workers(pool)
        raise
    pool.shutdown(wait=True)


def _chunk_size(mean_seconds: float | None, remaining: int, jobs: int) -> int:
    # One deal per task until timings exist; then enough quick deals to fill _CHUNK_SECONDS,
    # but never so many that the last tasks leave workers idle.
    if mean_seconds is None:
        return 1
    size = _MAX_CHUNK if mean_seconds <= 0 else int(_CHUNK_SECONDS / mean_seconds)
    fair = math.ceil(remaining / (jobs * _IN_FLIGHT_PER_JOB))
    return max(1, min(size, _MAX_CHUNK, fair))


def run_batch(
    job: Job,
    numbers: Sequence[int],
    label: str,
    *,
    jobs: int,
    csv_path: str | None,
    progress_console: Console,
) -> BatchSummary:
    """Solve ``numbers`` on ``jobs`` processes; JSON lines (if ``job.json``) go to stdout.

    Returns the summary; Ctrl+C or a dead worker ends the batch early with what finished
    (``interrupted`` or ``failure`` set). The CSV (if any) gets the finished deals either way.
    """
    summary = BatchSummary(
        job.variant, label, planned=len(numbers), jobs=jobs, limits=job.describe_limits()
    )
    table = AtomicCsv(csv_path, job.variant) if csv_path else None
    out = sys.stdout

    def emit(result: DealResult) -> None:
        if result.json is not None:
            out.write(result.json + "\n")
        if table is not None:
            table.write(result)

    sink = OrderedSink(emit)
    guard = InterruptGuard()
    # Off a terminal, or when JSON lines share the terminal, a live bar would only garble.
    show = progress_console.is_terminal and not (job.json and out.isatty())
    started = time.perf_counter()
    try:
        title = f"deals {label}" if len(label) <= 20 else f"deals {label[:17]}..."
        with BatchProgress(progress_console, len(numbers), title, enabled=show) as progress:

            def on_result(result: DealResult) -> None:
                with guard.held():
                    summary.add(result)
                    progress.advance(result)
                    sink.add(result)

            try:
                with guard:
                    if jobs == 1:
                        _run_here(job, numbers, on_result)
                    else:
                        _run_in_pool(job, numbers, jobs, on_result)
            except KeyboardInterrupt:
                summary.interrupted = True
            except BrokenProcessPool:
                summary.failure = "a worker process died (out of memory, or killed?)"
        summary.wall_seconds = time.perf_counter() - started
        sink.flush()
        out.flush()
        if table is not None:
            table.commit()
    except BaseException:
        if table is not None:
            table.discard()
        raise
    return summary
