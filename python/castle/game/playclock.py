"""The clock of a game in play: seconds played, stopped while paused and once won.

Shared by :class:`castle.Game` and :class:`castle.SpiderGame`; time comes from an injectable
``clock`` (seconds, ``time.monotonic`` by default) so that tests are exact.
"""

from __future__ import annotations

from collections.abc import Callable

Clock = Callable[[], float]


class PlayClock:
    def __init__(self, clock: Clock, elapsed: float = 0.0, running: bool = True) -> None:
        self._clock = clock
        self._elapsed = elapsed
        self._since: float | None = clock() if running else None

    @property
    def seconds(self) -> float:
        if self._since is None:
            return self._elapsed
        return self._elapsed + max(0.0, self._clock() - self._since)

    @property
    def running(self) -> bool:
        return self._since is not None

    def stop(self) -> None:
        if self._since is not None:
            self._elapsed = self.seconds
            self._since = None

    def start(self) -> None:
        if self._since is None:
            self._since = self._clock()


__all__ = ["Clock", "PlayClock"]
