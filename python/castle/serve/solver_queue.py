"""The solver's turns on a ``castle serve`` server: a hint or a new deal (which the solver
may have to prove winnable) searches for up to a second or two of a core, so they take
turns, a few at once, whoever asks. Ids cost nothing on a network, so without a bound a
client that floods hints under many ids would take every core and every worker thread,
and hold up every other player's moves and views.

:class:`SolverQueue` lives on the event loop (no thread waits in it): at most ``threads``
searches run at once, and the rest wait. When a search ends, the turn goes to the waiting
player that has used the solver least (its searches' seconds), as a fair scheduler does: a
player who asks now and then goes before a client that keeps asking, under however many ids.
A player that comes (back) to the solver starts one search ahead of the least served of
those who use it now, so that it is next, but no id banks turns while it is idle. A player
may have at most ``share`` searches running or waiting, and at most ``waiting`` wait
in all; past either: :class:`~castle.serve.players.Busy` (429). docs/serve.md ("Limits")
has the numbers.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Hashable

from .players import Busy

#: Searches at once: a core left for the server itself (its moves, views and files), at
#: most 4.
THREADS = min(4, max(1, (os.cpu_count() or 2) - 1))
#: A player's searches running or waiting at once (a hint, and a new deal asked meanwhile).
SHARE = 2
#: Searches waiting, all players together.
WAITING = 32
#: A player coming to the solver starts this many seconds of search ahead of the least
#: served of those using it (a castle hint's longest search): whoever asks now and then is
#: next, and no id banks more while it is idle.
AHEAD_SECONDS = 1.5
#: The players whose use of the solver is remembered (those not seen longest are forgotten
#: first: they then start level, as any player coming to it).
REMEMBERED = 1024


class SolverQueue:
    """Turns at the solver (see the module's docstring). Used from the event loop only."""

    def __init__(self, threads: int = THREADS, share: int = SHARE, waiting: int = WAITING) -> None:
        self.threads, self.share, self.waiting = threads, share, waiting
        self._running = 0
        #: Each player's turns waiting, the players in the order they came.
        self._queue: OrderedDict[Hashable, deque[asyncio.Future[None]]] = OrderedDict()
        self._waiting = 0
        #: Each player's searches running or waiting.
        self._held: dict[Hashable, int] = {}
        #: The seconds of search each player has used (the latest used last), and the least
        #: of those given a turn lately: where a player coming to the solver starts.
        self._used: OrderedDict[Hashable, float] = OrderedDict()
        self._level = 0.0

    @contextlib.asynccontextmanager
    async def turn(self, player: Hashable) -> AsyncIterator[None]:
        """Wait for ``player``'s turn at the solver, and hold it; :class:`Busy` past the
        player's share or past the searches that may wait."""
        held = self._held.get(player, 0)
        if held >= self.share:
            raise Busy(
                f"the solver is already searching for you ({held} at once): wait for that answer"
            )
        now = self._running < self.threads
        if not now and self._waiting >= self.waiting:
            raise Busy(f"the solver is busy ({self._waiting} waiting): ask again in a moment")
        if not held:  # coming to the solver: a search ahead of those using it, no more
            start = self._level - AHEAD_SECONDS
            self._use(player, max(self._used.get(player, start), start))
        if now:
            self._running += 1
            self._level = max(self._level, self._used.get(player, self._level))
        else:
            await self._wait(player, held)
        self._held[player] = self._held.get(player, 0) + 1
        began = time.monotonic()
        try:
            yield
        finally:
            self._use(player, self._used.get(player, self._level) + time.monotonic() - began)
            self._held[player] -= 1
            if not self._held[player]:
                del self._held[player]
            self._next()

    async def _wait(self, player: Hashable, held: int) -> None:
        """Wait in line for a search to end (its turn is handed on: :meth:`_next`)."""
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.setdefault(player, deque()).append(turn)
        self._waiting += 1
        self._held[player] = held + 1  # counted while it waits, too
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._next()  # given a turn just as it was cancelled: hand it on
            else:
                self._drop(player, turn)
            raise
        finally:
            self._held[player] -= 1
            if not self._held[player]:
                del self._held[player]

    def _next(self) -> None:
        """A search ended: its thread goes to the waiting player that has used the solver
        least (of equals, the first come), or is free."""
        while self._queue:
            player = min(self._queue, key=lambda waiting: self._used.get(waiting, self._level))
            turns = self._queue[player]
            turn = turns.popleft()
            self._waiting -= 1
            if not turns:
                del self._queue[player]
            if not turn.done():
                self._level = max(self._level, self._used.get(player, self._level))
                turn.set_result(None)
                return
        self._running -= 1

    def _use(self, player: Hashable, seconds: float) -> None:
        self._used[player] = seconds
        self._used.move_to_end(player)
        if len(self._used) > REMEMBERED:  # those not seen longest; a player in line is recent
            self._used.popitem(last=False)

    def _drop(self, player: Hashable, turn: asyncio.Future[None]) -> None:
        turns = self._queue.get(player)
        if turns is not None and turn in turns:
            turns.remove(turn)
            self._waiting -= 1
            if not turns:
                del self._queue[player]


__all__ = ["AHEAD_SECONDS", "REMEMBERED", "SHARE", "THREADS", "WAITING", "SolverQueue"]
