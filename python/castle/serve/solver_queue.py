"""The solver's turns on a ``castle serve`` server: a hint or a new deal (which the solver
may have to prove winnable) searches for up to a second or two of a core, so they take
turns, a few at once, whoever asks. Ids cost nothing on a network, so without a bound a
client that floods hints under many ids would take every core and every worker thread,
and hold up every other player's moves and views.

:class:`SolverQueue` lives on the event loop (no thread waits in it): at most ``threads``
searches run at once, and the rest wait. Turns are fair between clients (a client is the
address a request came from), not ids: when a search ends, the turn goes to the waiting
client that has used the solver least (its searches' seconds, whichever ids asked), as a
fair scheduler does, and a client's own waiting searches go in the order they came. A
client that comes (back) to the solver starts one search ahead of the least served of those
who use it now, so that it is next, but no client banks turns while it is idle, and a new
id of a client that is using the solver starts nowhere but where its client is. A player
(an id) may have at most ``share`` searches running or waiting, a client ``client_share``,
and at most ``waiting`` wait in all; past any: :class:`~castle.serve.players.Busy` (429),
and so is a search that waited :data:`WAIT_SECONDS` without a turn. docs/serve.md
("Limits") has the numbers.
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
#: A client's (an address's) searches running or waiting at once, all its ids together.
CLIENT_SHARE = 4
#: Searches waiting, all clients together.
WAITING = 32
#: The longest a search waits for its turn: then it is refused (429), never left hanging.
WAIT_SECONDS = 10.0
#: A client coming to the solver starts this many seconds of search ahead of the least
#: served of those using it (a castle hint's longest search): whoever asks now and then is
#: next, and no client banks more while it is idle.
AHEAD_SECONDS = 1.5
#: The clients whose use of the solver is remembered (those not seen longest are forgotten
#: first: they then start level, as any client coming to it).
REMEMBERED = 1024


class SolverQueue:
    """Turns at the solver (see the module's docstring). Used from the event loop only."""

    def __init__(
        self,
        threads: int = THREADS,
        share: int = SHARE,
        waiting: int = WAITING,
        *,
        client_share: int = CLIENT_SHARE,
        wait_seconds: float = WAIT_SECONDS,
    ) -> None:
        self.threads, self.share, self.waiting = threads, share, waiting
        self.client_share, self.wait_seconds = client_share, wait_seconds
        self._running = 0
        #: Each client's turns waiting, the clients in the order they came.
        self._queue: OrderedDict[Hashable, deque[asyncio.Future[None]]] = OrderedDict()
        self._waiting = 0
        #: Each player's and each client's searches running or waiting.
        self._held: dict[Hashable, int] = {}
        self._client_held: dict[Hashable, int] = {}
        #: The seconds of search each client has used (the latest used last), and the least
        #: of those given a turn lately: where a client coming to the solver starts.
        self._used: OrderedDict[Hashable, float] = OrderedDict()
        self._level = 0.0

    @contextlib.asynccontextmanager
    async def turn(self, player: Hashable, client: Hashable | None = None) -> AsyncIterator[None]:
        """Wait for ``player``'s turn at the solver, and hold it; the search is counted
        against ``client`` (its address; None: the player is a client of its own).
        :class:`Busy` past a share, past the searches that may wait, or after waiting
        :attr:`wait_seconds`."""
        client = player if client is None else client
        self._check_room(player, client)
        if not self._client_held.get(client):  # coming to the solver: ahead, no more
            start = self._level - AHEAD_SECONDS
            self._use(client, max(self._used.get(client, start), start))
        self._hold(player, client, +1)
        began = None
        try:
            if self._running < self.threads:
                self._running += 1
                self._level = max(self._level, self._used.get(client, self._level))
            else:
                await self._wait(client)
            began = time.monotonic()
            yield
        finally:
            self._hold(player, client, -1)
            if began is not None:
                spent = time.monotonic() - began
                self._use(client, self._used.get(client, self._level) + spent)
                self._next()

    def _check_room(self, player: Hashable, client: Hashable) -> None:
        held = self._held.get(player, 0)
        if held >= self.share:
            raise Busy(
                f"the solver is already searching for you ({held} at once): wait for that answer"
            )
        if self._client_held.get(client, 0) >= self.client_share:
            raise Busy(
                f"the solver is already searching {self.client_share} times for your address: "
                "wait for those answers"
            )
        if self._running >= self.threads and self._waiting >= self.waiting:
            raise Busy(f"the solver is busy ({self._waiting} waiting): ask again in a moment")

    def _hold(self, player: Hashable, client: Hashable, step: int) -> None:
        for counts, key in ((self._held, player), (self._client_held, client)):
            counts[key] = counts.get(key, 0) + step
            if not counts[key]:
                del counts[key]

    async def _wait(self, client: Hashable) -> None:
        """Wait in line for a search to end (its turn is handed on: :meth:`_next`), at most
        :attr:`wait_seconds`."""
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.setdefault(client, deque()).append(turn)
        self._waiting += 1
        try:
            await asyncio.wait_for(asyncio.shield(turn), self.wait_seconds)
        except (asyncio.CancelledError, asyncio.TimeoutError) as stopped:
            if turn.done() and not turn.cancelled():
                self._next()  # given a turn just as it stopped waiting: hand it on
            else:
                turn.cancel()
                self._drop(client, turn)
            if isinstance(stopped, asyncio.TimeoutError):
                raise Busy(
                    f"the solver had no turn for you in {self.wait_seconds:g} s: ask again "
                    "in a moment"
                ) from None
            raise

    def _next(self) -> None:
        """A search ended: its thread goes to the waiting client that has used the solver
        least (of equals, the first come), or is free."""
        while self._queue:
            client = min(self._queue, key=lambda waiting: self._used.get(waiting, self._level))
            turns = self._queue[client]
            turn = turns.popleft()
            self._waiting -= 1
            if not turns:
                del self._queue[client]
            if not turn.done():
                self._level = max(self._level, self._used.get(client, self._level))
                turn.set_result(None)
                return
        self._running -= 1

    def _use(self, client: Hashable, seconds: float) -> None:
        self._used[client] = seconds
        self._used.move_to_end(client)
        if len(self._used) > REMEMBERED:  # those not seen longest; a client in line is recent
            self._used.popitem(last=False)

    def _drop(self, client: Hashable, turn: asyncio.Future[None]) -> None:
        turns = self._queue.get(client)
        if turns is not None and turn in turns:
            turns.remove(turn)
            self._waiting -= 1
            if not turns:
                del self._queue[client]


__all__ = [
    "AHEAD_SECONDS",
    "CLIENT_SHARE",
    "REMEMBERED",
    "SHARE",
    "THREADS",
    "WAITING",
    "WAIT_SECONDS",
    "SolverQueue",
]
