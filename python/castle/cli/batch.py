"""Batches of numbered deals: on this machine's worker processes (or on an :class:`Engine`
elsewhere), with Ctrl+C (:func:`run_batch`); solved, with progress and the summary
(:func:`solve_batch`); the CPUs a batch may use.

``castle solve --deals`` and ``castle survey`` both solve through :func:`solve_batch`;
``castle autoplay`` plays its deals through :func:`run_batch`.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import time
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.context import BaseContext

from rich.console import Console

from .engine import (
    CLAIM_POLL_SECONDS,
    BatchFailure,
    ChunkFeed,
    Chunking,
    Claims,
    Engine,
    Job,
    R,
    Work,
)
from .progress import BatchProgress
from .report import BatchSummary, DealResult
from .signals import InterruptGuard, ignore_ctrl_c, signals_blocked

#: Local worker processes: a round trip is cheap, and small chunks stop quickly.
LOCAL_CHUNKS = Chunking(seconds=0.05, most=64)

#: How long the pool's manager thread gets to end after the workers are stopped, and the
#: bytes written at a time to complete a result a stopped worker left half written.
MANAGER_GRACE_SECONDS = 0.5
PIPE_FILL = 1 << 16


def usable_cpus() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def cap_jobs(jobs: int, deals: int, errors: Console) -> int:
    """``--jobs`` lowered to the CPUs available (with a note on ``errors``) and the deals."""
    cpus = usable_cpus()
    if jobs > cpus:
        errors.print(f"castle: note: --jobs {jobs} lowered to {cpus}, the CPUs available")
    return max(1, min(jobs, cpus, deals))


def _init_worker() -> None:
    ignore_ctrl_c()  # the parent alone decides, then ends the workers
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
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() forgets them
    queue = getattr(pool, "_result_queue", None)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join()
    pool.shutdown(wait=False, cancel_futures=True)
    # Joining the pool's manager thread now keeps it from racing concurrent.futures' exit hook
    # (an "Exception ignored" traceback). But a worker ended while it wrote a result leaves
    # the thread reading the rest of that message forever (this process holds the pipe's write
    # end, so no end of file comes): fill the message up, and the thread reads a broken result
    # and ends as for a broken pool.
    if manager is None or not processes:
        return
    manager.join(MANAGER_GRACE_SECONDS)
    writer = getattr(queue, "_writer", None)
    if manager.is_alive() and writer is not None and not writer.closed:
        os.set_blocking(writer.fileno(), False)
        deadline = time.monotonic() + MANAGER_GRACE_SECONDS * 20
        while manager.is_alive() and time.monotonic() < deadline:
            try:
                os.write(writer.fileno(), bytes(PIPE_FILL))
            except BlockingIOError:  # the pipe is full until the thread reads on
                pass
            except OSError:  # the read end is gone: so is the thread's wait
                break
            manager.join(0.01)
    manager.join(MANAGER_GRACE_SECONDS)


def _run_here(
    work: Work[R],
    numbers: Sequence[int],
    on_result: Callable[[R], None],
    claims: Claims | None = None,
) -> None:
    feed = ChunkFeed(numbers, LOCAL_CHUNKS, claims)
    while not feed.all_sent:
        sent = False
        for start, chunk in feed.more(0, 1):
            sent = True
            for offset, number in enumerate(chunk):  # each result as soon as it is found
                for result in work.run_chunk(start + offset, [number]):
                    feed.timed(result)
                    on_result(result)
        if not sent:  # only deals other runs hold are left: look again soon
            time.sleep(CLAIM_POLL_SECONDS)


def _run_in_pool(
    work: Work[R],
    numbers: Sequence[int],
    jobs: int,
    on_result: Callable[[R], None],
    claims: Claims | None = None,
) -> None:
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=_context(), initializer=_init_worker)
    try:
        pending: set[Future[list[R]]] = set()
        feed = ChunkFeed(numbers, LOCAL_CHUNKS, claims)
        while not feed.all_sent or pending:
            with signals_blocked():  # submit() starts the workers
                for start, chunk in feed.more(len(pending), jobs):
                    pending.add(pool.submit(work.run_chunk, start, chunk))
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


@dataclass
class BatchEnd:
    """How a batch ended: cut short by a signal, or by a failure; and where it ran."""

    #: The worker processes, or on a cluster the worker threads seen at the end.
    jobs: int
    wall_seconds: float = 0.0
    interrupted: bool = False
    #: The signal that interrupted the batch (SIGINT for Ctrl+C).
    stop_signal: int = signal.SIGINT
    failure: str | None = None
    #: Where the deals went when not to local processes (``Dask tcp://...``).
    engine: str | None = None


def run_batch(
    work: Work[R],
    numbers: Sequence[int],
    *,
    jobs: int,
    on_result: Callable[[R], None],
    signals: Collection[int] = (signal.SIGINT,),
    cluster: Engine | None = None,
    claims: Claims | None = None,
) -> BatchEnd:
    """Run ``work`` on ``numbers`` on ``jobs`` processes (1: in this one), or on the workers
    of ``cluster`` (an :class:`Engine` the command connected to), passing each result to
    ``on_result`` as results arrive in any order. With ``claims``, only the deals this run
    claims are run (see :class:`ChunkFeed`); the others are the claims' business.

    Each result is handled whole: ``signals`` (Ctrl+C by default) wait for the end of its
    handling, then end the batch early with what finished (``interrupted`` set); so does a
    dead worker (``failure`` set). Any other exception, from ``on_result`` say, stops the
    workers and propagates.
    """
    end = BatchEnd(jobs, engine=None if cluster is None else cluster.description)
    guard = InterruptGuard(signals)
    started = time.perf_counter()

    def handle(result: R) -> None:
        with guard.held():
            on_result(result)

    try:
        with guard:
            if cluster is not None:
                end.failure = cluster.run(work, numbers, handle, guard.held, claims)
            elif jobs == 1:
                _run_here(work, numbers, handle, claims)
            else:
                _run_in_pool(work, numbers, jobs, handle, claims)
    except KeyboardInterrupt:
        end.interrupted = True
        end.stop_signal = guard.received or signal.SIGINT
    except BrokenProcessPool:
        end.failure = "a worker process died (out of memory, or killed?)"
    except BatchFailure as e:
        end.failure = str(e)
    end.wall_seconds = time.perf_counter() - started
    if cluster is not None:
        end.jobs = cluster.threads_seen  # known once workers have joined
    return end


def solve_batch(
    job: Job,
    numbers: Sequence[int],
    label: str,
    *,
    jobs: int,
    progress: BatchProgress,
    on_result: Callable[[DealResult], None],
    signals: Collection[int] = (signal.SIGINT,),
    cluster: Engine | None = None,
    claims: Claims | None = None,
) -> BatchSummary:
    """Solve ``numbers`` as :func:`run_batch` runs them: count each result in the summary,
    advance ``progress`` and pass it to ``on_result``."""
    summary = BatchSummary(
        job.variant, label, planned=len(numbers), jobs=jobs, limits=job.describe_limits()
    )

    def handle(result: DealResult) -> None:
        summary.add(result)
        progress.advance(result)
        on_result(result)

    with progress:
        end = run_batch(
            job,
            numbers,
            jobs=jobs,
            on_result=handle,
            signals=signals,
            cluster=cluster,
            claims=claims,
        )
    summary.jobs, summary.engine, summary.wall_seconds = end.jobs, end.engine, end.wall_seconds
    summary.interrupted, summary.stop_signal = end.interrupted, end.stop_signal
    summary.failure = end.failure
    return summary


def batch_title(label: str) -> str:
    """The progress bar's title for deals ``label``, cut to fit."""
    return f"deals {label}" if len(label) <= 20 else f"deals {label[:17]}..."


__all__ = [
    "LOCAL_CHUNKS",
    "BatchEnd",
    "batch_title",
    "cap_jobs",
    "run_batch",
    "solve_batch",
    "usable_cpus",
]
