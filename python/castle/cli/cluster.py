"""Batches on a Dask cluster: ``castle survey --scheduler ADDRESS`` or ``--dask-local N``.

The engine is Dask distributed, an optional extra (``pip install 'castle-solitaire[cluster]'``);
nothing here is imported until one of the two flags asks for it. The client sends chunks of
deal numbers to the workers, each worker thread runs the batch's work on its chunk
(:meth:`castle.cli.engine.Work.run_chunk`: the Rust solver releases the GIL, so a worker's
threads use all its cores) and sends back compact rows, which the client hands on as they
arrive: a survey (or an autoplay) stores them, so resuming works the same whichever way the
deals were solved.

Faults are Dask's to handle. A worker that dies loses the chunks it held; the scheduler
runs them again elsewhere (a nanny restarts the worker). Only a chunk that has killed
``distributed.scheduler.allowed-failures`` workers in turn (3 by default: a deal that runs
a worker out of memory, say) is given up: its deals are reported and left unstored, so the
next run tries them again, and the rest of the batch goes on.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

import castle

from .engine import BatchFailure, ChunkFeed, Chunking, Claims, R, Work
from .errors import UsageError
from .signals import ignore_ctrl_c, signals_blocked

#: What to install for the two flags.
INSTALL_HINT = "pip install 'castle-solitaire[cluster]'"
#: Each Dask task costs the scheduler about a millisecond and a round trip: chunks carry
#: half a second of solving, and four per worker thread keep a slow deal from idling others.
DASK_CHUNKS = Chunking(seconds=0.5, most=1000)
#: Seconds between looks for finished chunks.
_POLL_SECONDS = 0.01
#: Seconds between asking the scheduler how many worker threads there are.
_THREADS_SECONDS = 1.0
#: Seconds to wait for a scheduler to answer.
_CONNECT_SECONDS = 20
#: Times to try starting a client whose IO loop did not start (below).
_CLIENT_TRIES = 3


def _castle_version() -> str:
    # Runs on each worker: a worker with another castle could give other verdicts. Read
    # from the package when called (a test stands in another version).
    return castle.__version__


@dataclass
class DaskCluster:
    """A connected Dask client, and the batches run on it: an
    :class:`castle.cli.engine.Engine`."""

    client: Any
    #: Where the work goes, for the summary: ``Dask tcp://...`` or ``Dask LocalCluster``.
    description: str
    _threads: int = 0
    _threads_seen: float = float("-inf")

    def threads(self) -> int:
        """Worker threads the scheduler knows of (0: none yet), asked at most once a second:
        workers can join or leave a cluster at any time."""
        now = time.monotonic()
        if now - self._threads_seen >= _THREADS_SECONDS:
            self._threads = sum(self.client.nthreads().values())
            self._threads_seen = now
        return self._threads

    @property
    def threads_seen(self) -> int:
        """Worker threads when last asked (no call to a scheduler that may be gone)."""
        return self._threads

    def run(
        self,
        work: Work[R],
        numbers: Sequence[int],
        on_result: Callable[[R], None],
        held: Callable[[], AbstractContextManager[None]],
        claims: Claims | None = None,
    ) -> str | None:
        """Run ``work`` on ``numbers`` on the cluster, passing each result to ``on_result`` as
        its chunk comes back (with ``claims``, only the deals this run claims, as
        :class:`castle.cli.engine.ChunkFeed` says); the batch's failure, if chunks were given
        up (their deals go unsolved).
        Every call into Dask is made inside ``held()``, where Ctrl+C waits (a
        KeyboardInterrupt inside Dask's locks can break them); it lands between polls. On
        any exception the chunks still out are cancelled."""
        dask = distributed()
        client = self.client
        chunks: dict[Any, Sequence[int]] = {}
        finished = dask.as_completed()
        feed = ChunkFeed(numbers, DASK_CHUNKS, claims)
        given_up: list[int] = []

        def submit_more() -> None:
            for start, chunk in feed.more(len(chunks), max(1, self.threads())):
                future = client.submit(work.run_chunk, start, chunk, pure=False)
                chunks[future] = chunk
                finished.add(future)

        try:
            while True:
                with held():
                    if not self.threads():  # a scheduler with no workers (yet)
                        done = []
                    else:
                        submit_more()
                        if not chunks and feed.all_sent:
                            return given_up_text(given_up) if given_up else None
                        done = finished.next_batch(block=False)
                    for future in done:
                        chunk = chunks.pop(future)
                        try:
                            results = future.result()
                        except dask.scheduler.KilledWorker:
                            given_up.extend(chunk)
                            continue
                        except CancelledError:
                            # Not by us: Dask cancels everything when the scheduler is lost.
                            raise BatchFailure(
                                "the Dask scheduler was lost (or cancelled the work); the "
                                "verdicts found until then are stored: run again to go on"
                            ) from None
                        for result in results:
                            feed.timed(result)
                            on_result(result)
                if not done:
                    time.sleep(_POLL_SECONDS)
        except BaseException:
            with held():
                client.cancel(list(chunks))
            raise


def ignore_interrupt() -> Any:
    """A Dask worker plugin for this machine's workers: Ctrl+C at the terminal reaches the
    whole process group, but only the client should act on it (it stops the cluster); a
    worker that caught it would die mid-chunk with a traceback. Dask sends the plugin to
    every worker, restarted ones too."""

    class IgnoreInterrupt(distributed().WorkerPlugin):  # type: ignore[misc]
        def setup(self, worker: Any) -> None:
            ignore_ctrl_c()

    return IgnoreInterrupt()


def given_up_text(deals: Sequence[int]) -> str:
    """The failure a batch ends with when chunks were given up."""
    shown = ", ".join(str(n) for n in sorted(deals)[:20])
    more = f" and {len(deals) - 20:,} more" if len(deals) > 20 else ""
    return (
        f"deals {shown}{more} killed their Dask workers again and again (out of memory?) and "
        "are not stored; run again to retry them"
    )


def distributed() -> Any:
    """The ``distributed`` module (untyped: used through ``Any``), or the UsageError that
    says how to install it."""
    try:
        import distributed as module
    except ImportError:
        raise UsageError(
            f"--scheduler and --dask-local need Dask distributed: {INSTALL_HINT}"
        ) from None
    return module


@contextlib.contextmanager
def connect(scheduler: str | None, local_workers: int | None) -> Iterator[DaskCluster | None]:
    """The cluster the flags name: ``scheduler`` (an address such as ``tcp://host:8786``),
    or a LocalCluster of ``local_workers`` single-threaded worker processes on this machine;
    ``None`` if neither is given. The cluster is closed (a LocalCluster stopped) on exit."""
    if scheduler is None and local_workers is None:
        yield None
        return
    dask = distributed()

    with contextlib.ExitStack() as stack:
        if scheduler is None:
            assert local_workers is not None
            with signals_blocked():  # no Ctrl+C while the worker processes start
                local = dask.LocalCluster(
                    n_workers=local_workers,
                    threads_per_worker=1,
                    processes=True,
                    # Loopback, any free port: no clash with another cluster's 8787.
                    dashboard_address="127.0.0.1:0",
                    silence_logs=logging.CRITICAL,  # shutdown noise; failures are ours to report
                )
            stack.enter_context(local)
            client = stack.enter_context(_client(dask, local))
            client.register_plugin(ignore_interrupt(), name="castle-ignore-interrupt")
            workers = "1 worker" if local_workers == 1 else f"{local_workers} workers"
            description = f"Dask LocalCluster ({workers})"
        else:
            try:
                client = stack.enter_context(_client(dask, scheduler, timeout=_CONNECT_SECONDS))
            except (OSError, TimeoutError, ValueError) as e:
                raise UsageError(f"--scheduler {scheduler}: cannot connect: {e}") from None
            description = f"Dask {scheduler}"
        _check_versions(client)
        yield DaskCluster(client, description)


def _client(dask: Any, address: Any, **options: Any) -> Any:
    """A Dask client of ``address``. Dask gives the thread of a client's IO loop 10 seconds to
    start and then fails an ``assert``; a machine loaded enough to miss that (CI on two
    cores has) gets a few more tries, then a one-line error rather than a traceback."""
    for _ in range(_CLIENT_TRIES):
        # A client left unclosed (a connection that failed earlier in this process) closes
        # itself when the collector frees it, taking the lock Dask holds while a new client's
        # IO loop starts: freed inside that start, it would wait on the lock forever. Free it
        # first.
        gc.collect()
        try:
            return dask.Client(address, **options)
        except AssertionError:
            continue
    raise UsageError(
        f"Dask's IO loop did not start in {_CLIENT_TRIES} tries of 10 s: the machine is too busy"
    )


def _check_versions(client: Any) -> None:
    for worker, version in client.run(_castle_version).items():
        if version != castle.__version__:
            raise UsageError(
                f"Dask worker {worker} runs castle {version}, this client {castle.__version__}: "
                "install the same castle everywhere"
            )
