"""Batches of numbered deals: worker processes, Ctrl+C, progress, the summary; and
``castle solve --deals`` on top: JSON lines and CSV rows in deal order.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.context import BaseContext
from types import FrameType
from typing import TYPE_CHECKING, Any, Protocol

from rich.console import Console

from ..deal import Deal
from ..solve import Solution, solve
from ..spider import SPIDER_VARIANTS, SpiderDeal, SpiderSolution
from .csvfile import AtomicCsv, deal_row
from .errors import Terminated
from .output import format_size, json_line
from .progress import BatchProgress
from .report import BatchSummary, DealResult

if TYPE_CHECKING:
    from .cluster import DaskCluster

#: Signals that end a batch cleanly, with what finished kept: Ctrl+C and SIGTERM.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@dataclass(frozen=True)
class Chunking:
    """How a batch is cut into tasks for workers: quick deals travel together, to save round
    trips, in chunks of about ``seconds`` of solving at the mean time so far (one deal each
    until timings exist) and at most ``most`` deals; ``in_flight`` chunks per worker keep
    each busy, and near the end chunks shrink so that no worker idles."""

    seconds: float
    most: int
    in_flight: int = 4

    def size(self, mean_seconds: float | None, remaining: int, workers: int) -> int:
        """Deals in the next chunk, with ``remaining`` deals left for ``workers``."""
        if mean_seconds is None:
            return 1
        size = self.most if mean_seconds <= 0 else int(self.seconds / mean_seconds)
        fair = math.ceil(remaining / (workers * self.in_flight))
        return max(1, min(size, self.most, fair))


#: Local worker processes: a round trip is cheap, and small chunks stop quickly.
LOCAL_CHUNKS = Chunking(seconds=0.05, most=64)
#: Seconds between looks at the deals other runs hold, once only those are left.
CLAIM_POLL_SECONDS = 0.25


class Claims(Protocol):
    """Deals shared with other runs at the same time (a survey's claims on its file)."""

    def claim(self, deals: Sequence[int]) -> tuple[list[int], list[int]]:
        """Of ``deals``: those this run is to solve now, and those another run is solving;
        the rest are done already."""
        ...


class ChunkFeed:
    """The deals of a batch, handed out in chunks as workers have room: every runner's
    bookkeeping (where the batch is, the mean time so far), so each only sends and receives.

    With ``claims``, each chunk is claimed before it goes and shrinks to the deals this run
    got; those another run holds are offered again every :data:`CLAIM_POLL_SECONDS` once
    the rest is sent, until they are done or this run gets them (their run died). The
    positions of such chunks are not the deals' places in the batch.
    """

    def __init__(
        self, numbers: Sequence[int], chunking: Chunking, claims: Claims | None = None
    ) -> None:
        self._numbers = numbers if claims is None else list(numbers)
        self._chunking = chunking
        self._claims = claims
        self._held: list[int] = []
        self._held_at = 0.0
        self._position = 0
        self._solved = 0
        self._seconds = 0.0

    @property
    def all_sent(self) -> bool:
        return self._position >= len(self._numbers) and not self._held

    @property
    def waiting(self) -> bool:
        """Only deals that other runs hold are left to send."""
        return self._position >= len(self._numbers) and bool(self._held)

    def more(self, in_flight: int, workers: int) -> Iterator[tuple[int, Sequence[int]]]:
        """``(start, deals)`` chunks to send now, with ``in_flight`` chunks out on
        ``workers``: until each worker has its share in flight or the batch is all sent
        (or, with claims, what is left is held elsewhere)."""
        numbers = self._numbers
        while in_flight < workers * self._chunking.in_flight:
            if self._position >= len(numbers) and not self._offer_held_again():
                return
            mean = self._seconds / self._solved if self._solved else None
            size = self._chunking.size(mean, len(numbers) - self._position, workers)
            start = self._position
            self._position += size
            chunk = numbers[start : start + size]
            if self._claims is not None:
                chunk, held = self._claims.claim(chunk)
                if held:
                    self._held.extend(held)
                    self._held_at = time.monotonic()
                if not chunk:
                    continue
            in_flight += 1
            yield start, chunk

    def _offer_held_again(self) -> bool:
        if not self._held or time.monotonic() - self._held_at < CLAIM_POLL_SECONDS:
            return False
        assert isinstance(self._numbers, list)
        self._numbers.extend(self._held)
        self._held.clear()
        return True

    def timed(self, result: DealResult) -> None:
        """Count a solved deal's time toward the mean."""
        self._solved += 1
        self._seconds += result.seconds


class BatchFailure(Exception):
    """The workers of a batch are gone (a cluster's scheduler lost, say): the batch ends
    with what finished, and the message as its ``failure``."""


@dataclass(frozen=True)
class Job:
    """What every deal of a batch shares (sent to the workers)."""

    variant: str
    max_states: int | None
    max_seconds: float | None
    max_memory: int
    short: bool = False
    json: bool = False

    def solve(self, deal: Deal | SpiderDeal) -> Solution | SpiderSolution:
        if isinstance(deal, SpiderDeal):
            return solve(
                deal,
                max_states=self.max_states,
                max_seconds=self.max_seconds,
                max_memory=self.max_memory,
            )
        return solve(
            deal,
            max_states=self.max_states,
            max_seconds=self.max_seconds,
            max_memory=self.max_memory,
            short=self.short,
        )

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
        deal = numbered_deal(job.variant, number)
        solution = job.solve(deal)
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


def numbered_deal(variant: str, number: int) -> Deal | SpiderDeal:
    """Deal ``number`` of any variant, castle or Spider."""
    if variant in SPIDER_VARIANTS:
        return SpiderDeal.from_number(variant, number)
    return Deal.from_number(variant, number)


class InterruptGuard:
    """Ctrl+C (or another of ``signals``) raises KeyboardInterrupt as usual (SIGTERM:
    :class:`Terminated`, a KeyboardInterrupt too), except inside ``held()`` sections.

    There it waits for the section's end, so a result is counted and written whole: a
    KeyboardInterrupt inside a write to a pipe can leave half a JSON line behind.
    """

    def __init__(self, signals: Collection[int] = (signal.SIGINT,)) -> None:
        self._signals = tuple(signals)
        self._depth = 0
        self._pending = False
        self._previous: dict[int, Callable[[int, FrameType | None], Any] | int | None] = {}
        #: The last of ``signals`` that arrived (SIGTERM too raises KeyboardInterrupt here).
        self.received: int | None = None

    def __enter__(self) -> InterruptGuard:
        # Only the main thread may set handlers (and only it gets KeyboardInterrupt).
        if threading.current_thread() is threading.main_thread():
            for signum in self._signals:
                self._previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, previous in self._previous.items():
            signal.signal(signum, signal.SIG_DFL if previous is None else previous)
        self._previous.clear()

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.received = signum
        if self._depth:
            self._pending = True
        else:
            self._raise()

    def _raise(self) -> None:
        raise Terminated if self.received == signal.SIGTERM else KeyboardInterrupt

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
        if not self._depth and self._pending:
            self._pending = False
            self._raise()


@contextlib.contextmanager
def signals_blocked(signals: Collection[int] = (signal.SIGINT,)) -> Iterator[None]:
    """Hold ``signals`` (Ctrl+C) back for a moment; they arrive when this ends.

    While worker processes may start: children inherit the signal mask, so a Ctrl+C cannot
    hit the forkserver or a worker mid-import (each would print a traceback); they never
    unblock it, as intended. (Never block SIGTERM there: it is how workers are stopped.)
    """
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, set(signals))
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _init_worker() -> None:
    # Ctrl+C reaches the whole process group; the parent alone decides, then ends the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A parent that is killed (SIGKILL, out of memory) cannot end its workers: they would
    # finish their deals and then wait for work forever. Each watches its parent instead.
    parent = multiprocessing.parent_process()
    if parent is not None and parent.sentinel is not None:
        threading.Thread(target=_exit_with, args=(parent.sentinel,), daemon=True).start()


def _exit_with(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])  # readable when the parent is gone
    os._exit(1)


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


def _run_here(
    job: Job,
    numbers: Sequence[int],
    on_result: Callable[[DealResult], None],
    claims: Claims | None = None,
) -> None:
    feed = ChunkFeed(numbers, LOCAL_CHUNKS, claims)
    while not feed.all_sent:
        sent = False
        for start, chunk in feed.more(0, 1):
            sent = True
            for offset, number in enumerate(chunk):  # each result as soon as it is found
                for result in solve_chunk(job, start + offset, [number]):
                    feed.timed(result)
                    on_result(result)
        if not sent:  # only deals other runs hold are left: look again soon
            time.sleep(CLAIM_POLL_SECONDS)


def _run_in_pool(
    job: Job,
    numbers: Sequence[int],
    jobs: int,
    on_result: Callable[[DealResult], None],
    claims: Claims | None = None,
) -> None:
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=_context(), initializer=_init_worker)
    try:
        pending: set[Future[list[DealResult]]] = set()
        feed = ChunkFeed(numbers, LOCAL_CHUNKS, claims)
        while not feed.all_sent or pending:
            with signals_blocked():  # submit() starts the workers
                for start, chunk in feed.more(len(pending), jobs):
                    pending.add(pool.submit(solve_chunk, job, start, chunk))
            if not pending:  # only deals other runs hold are left: look again soon
                time.sleep(CLAIM_POLL_SECONDS)
                continue
            timeout = CLAIM_POLL_SECONDS if feed.waiting else None
            done, pending = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
            for future in done:
                for result in future.result():
                    feed.timed(result)
                    on_result(result)
    except BaseException:
        _stop_workers(pool)
        raise
    pool.shutdown(wait=True)


def solve_batch(
    job: Job,
    numbers: Sequence[int],
    label: str,
    *,
    jobs: int,
    progress: BatchProgress,
    on_result: Callable[[DealResult], None],
    signals: Collection[int] = (signal.SIGINT,),
    cluster: DaskCluster | None = None,
    claims: Claims | None = None,
) -> BatchSummary:
    """Solve ``numbers`` on ``jobs`` processes (1: in this one), or on ``cluster``'s workers,
    as results arrive in any order: count each in the summary, advance ``progress`` and pass
    it to ``on_result``. With ``claims``, only the deals this run claims are solved (see
    :class:`ChunkFeed`); the others are the claims' business.

    Each result is handled whole: ``signals`` (Ctrl+C by default) wait for the end of its
    handling, then end the batch early with what finished (``interrupted`` set); so does a
    dead worker (``failure`` set). Any other exception, from ``on_result`` say, stops the
    workers and propagates.
    """
    summary = BatchSummary(
        job.variant, label, planned=len(numbers), jobs=jobs, limits=job.describe_limits()
    )
    if cluster is not None:
        summary.engine = cluster.description
    guard = InterruptGuard(signals)
    started = time.perf_counter()
    with progress:

        def handle(result: DealResult) -> None:
            with guard.held():
                summary.add(result)
                progress.advance(result)
                on_result(result)

        try:
            with guard:
                if cluster is not None:
                    summary.failure = cluster.run(job, numbers, handle, guard.held, claims)
                elif jobs == 1:
                    _run_here(job, numbers, handle, claims)
                else:
                    _run_in_pool(job, numbers, jobs, handle, claims)
        except KeyboardInterrupt:
            summary.interrupted = True
            summary.stop_signal = guard.received or signal.SIGINT
        except BrokenProcessPool:
            summary.failure = "a worker process died (out of memory, or killed?)"
        except BatchFailure as e:
            summary.failure = str(e)
    summary.wall_seconds = time.perf_counter() - started
    if cluster is not None:
        summary.jobs = cluster.threads_seen  # known once workers have joined
    return summary


def batch_title(label: str) -> str:
    """The progress bar's title for deals ``label``, cut to fit."""
    return f"deals {label}" if len(label) <= 20 else f"deals {label[:17]}..."


def run_batch(
    job: Job,
    numbers: Sequence[int],
    label: str,
    *,
    jobs: int,
    csv_path: str | None,
    progress_console: Console,
) -> BatchSummary:
    """``castle solve --deals``: JSON lines (if ``job.json``) to stdout and CSV rows (if
    ``csv_path``), both in batch order, as :func:`solve_batch` solves ``numbers``.

    The CSV gets the finished deals whether the batch ends, is interrupted (Ctrl+C or
    SIGTERM) or fails; a signal outside the solving (while the file is set up, say) leaves no
    temporary file behind either.
    """
    out = sys.stdout
    # Off a terminal, or when JSON lines share the terminal, a live bar would only garble.
    show = progress_console.is_terminal and not (job.json and out.isatty())
    progress = BatchProgress(progress_console, len(numbers), batch_title(label), enabled=show)
    with InterruptGuard(STOP_SIGNALS) as guard:
        table = AtomicCsv(csv_path) if csv_path else None

        def emit(result: DealResult) -> None:
            if result.json is not None:
                out.write(result.json + "\n")
            if table is not None:
                table.write(deal_row(job.variant, result))

        sink = OrderedSink(emit)
        try:
            summary = solve_batch(
                job,
                numbers,
                label,
                jobs=jobs,
                progress=progress,
                on_result=sink.add,
                signals=STOP_SIGNALS,
            )
            with guard.held():  # a signal now waits for the file to be in place
                sink.flush()
                out.flush()
                if table is not None:
                    table.commit()
        except BaseException:
            if table is not None:
                table.discard()
            raise
    return summary
