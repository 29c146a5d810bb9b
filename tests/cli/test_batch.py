"""The local batch's worker pool, stopped at a bad moment."""

from __future__ import annotations

import gc
import multiprocessing
import os
import struct
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.queues import SimpleQueue

import pytest
from castle.cli import batch


def _result_cut_short() -> None:
    """In a pool's worker: the result queue left as a worker killed while it wrote leaves it
    (a message's header, and fewer bytes than it gives), then a long deal."""
    writer = next(
        w
        for w in (
            getattr(o, "_writer", None) for o in gc.get_objects() if isinstance(o, SimpleQueue)
        )
        if w is not None and not w.closed
    )
    os.write(writer.fileno(), struct.pack("!i", 100_000) + b"x" * 10)
    time.sleep(60)


@pytest.mark.skipif(sys.platform == "win32", reason="fork")
def test_stopping_workers_ends_a_manager_thread_left_reading_half_a_result() -> None:
    # Found under Ctrl+C: a worker ended mid-write left the pool's manager thread waiting for
    # the rest of the message, and the batch hung in shutdown instead of exiting.
    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork"))
    future = pool.submit(_result_cut_short)
    manager: threading.Thread | None = getattr(pool, "_executor_manager_thread", None)
    time.sleep(0.5)  # the worker has written its half and sleeps
    assert not future.done()
    stopping = threading.Thread(target=batch._stop_workers, args=(pool,), daemon=True)
    stopping.start()
    stopping.join(20)  # in a thread, so that the old hang fails the test
    assert not stopping.is_alive()
    assert manager is not None and not manager.is_alive()
