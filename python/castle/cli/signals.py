"""Ctrl+C and SIGTERM in the CLI: the signals that end a batch cleanly, a guard that makes
them wait while a result is handled, holding them back while processes start, and workers
that leave Ctrl+C to the process that started them.

SIGTERM is raised as :class:`castle.cli.errors.Terminated` (a KeyboardInterrupt), which
``main`` turns into exit status 143.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Collection, Iterator
from types import FrameType
from typing import Any

from .errors import Terminated

#: Signals that end a batch cleanly, with what finished kept: Ctrl+C and SIGTERM.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


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


def ignore_ctrl_c() -> None:
    """In a worker process: ignore Ctrl+C. It reaches the whole process group at the
    terminal, but only the parent (or a cluster's client) should act on it: it stops the
    workers; a worker that caught it would die mid-deal with a traceback."""
    if threading.current_thread() is threading.main_thread():  # the only one allowed to
        signal.signal(signal.SIGINT, signal.SIG_IGN)
