"""The solver's turns on a castle serve server (castle.serve.solver_queue; docs/serve.md
"Limits"): a few searches at once, the player that has used the solver least next, a share
per player and a bound on those waiting; and a flood of hints under many ids, over real
sockets, holding up no one else."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from castle import Table
from castle.serve.players import Busy
from castle.serve.solver_queue import SolverQueue
from serving import Servers, player_of


async def begun(queue: SolverQueue, player: str, log: list[str], go: asyncio.Event) -> None:
    """A search of ``player``: it logs when its turn begins, and ends when ``go`` is set."""
    async with queue.turn(player):
        log.append(player)
        await go.wait()


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


def test_searches_take_turns_the_least_served_player_first() -> None:
    async def main() -> None:
        queue = SolverQueue(threads=1, share=2, waiting=10)
        log: list[str] = []
        ends = {name: asyncio.Event() for name in ("a1", "a2", "b1", "c1")}
        tasks = [
            asyncio.create_task(begun(queue, name[0], log, ends[name]))
            for name in ("a1", "a2", "b1")
        ]
        await settle()
        assert log == ["a"]  # one thread: the rest wait
        # A third search of a player already holding its share is refused at once.
        with pytest.raises(Busy, match="already searching for you"):
            async with queue.turn("a"):
                pass
        ends["a1"].set()
        await settle()
        # a's second waited first, but a has used the solver: b goes before it.
        assert log == ["a", "b"]
        tasks.append(asyncio.create_task(begun(queue, "c", log, ends["c1"])))
        await settle()
        ends["b1"].set()
        await settle()
        # c, come now, starts a search ahead of those using the solver: it is next.
        assert log == ["a", "b", "c"]
        ends["c1"].set()
        await settle()
        assert log == ["a", "b", "c", "a"]
        ends["a2"].set()
        await asyncio.gather(*tasks)
        # All done: the thread is free again, at once.
        async with queue.turn("d"):
            pass

    asyncio.run(main())


def test_past_the_searches_that_may_wait_a_search_is_refused() -> None:
    async def main() -> None:
        queue = SolverQueue(threads=1, share=1, waiting=2)
        log: list[str] = []
        go = asyncio.Event()
        tasks = [asyncio.create_task(begun(queue, p, log, go)) for p in ("a", "b", "c")]
        await settle()
        with pytest.raises(Busy, match="the solver is busy"):
            async with queue.turn("d"):
                pass
        # A search given up while it waits (its client gone) frees its place in line.
        tasks[1].cancel()
        await settle()
        tasks.append(asyncio.create_task(begun(queue, "d", log, go)))
        await settle()
        go.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        assert log == ["a", "c", "d"]

    asyncio.run(main())


# --- over real sockets ---------------------------------------------------------------------


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Servers]:
    started = Servers(tmp_path)
    yield started
    started.stop_all()


def test_a_flood_of_hints_under_many_ids_holds_up_no_one_else(
    servers: Servers, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ten ids, each from an address of its own, each with eight hints in flight, every
    # search held until let go: another player's view is answered at once, the hints past
    # the bound are refused (429), and the other player's own hint is next when a search
    # ends.
    ids, each = 10, 8
    searches = threading.Semaphore(0)
    let_go = threading.Semaphore(0)
    advice = Table.advice

    def held(self: Table, peek: bool = False, cancel: Any = None) -> Any:
        if self.game.deal.number == 3:  # the flood's deal
            searches.release()
            let_go.acquire(timeout=30)
        return advice(self, peek, cancel)

    monkeypatch.setattr(Table, "advice", held)
    running = servers.start(loopback=False)
    victim = running.client("127.0.0.2", timeout=10)
    assert victim.post("/api/new", json={"level": "medium", "deal": 2}).status_code == 200
    attackers = [running.client(f"127.0.0.{11 + n}", timeout=60) for n in range(ids)]
    for attacker in attackers:
        assert attacker.post("/api/new", json={"level": "medium", "deal": 3}).is_success
    answers: list[int] = []

    def hint(attacker: httpx.Client) -> None:
        answers.append(attacker.post("/api/act", json={"action": "hint"}).status_code)

    flood = [
        threading.Thread(target=hint, args=(attacker,))
        for attacker in attackers
        for _ in range(each)
    ]
    for thread in flood:
        thread.start()
    try:
        assert searches.acquire(timeout=10)  # the first search holds the solver
        deadline = time.monotonic() + 20
        while len(answers) < ids * (each - 2) and time.monotonic() < deadline:
            time.sleep(0.05)
        # Past each id's share (2: one searching or waiting, one more), refused.
        assert answers.count(429) == ids * (each - 2), answers
        shown = victim.get("/api/view")
        assert shown.status_code == 200 and shown.json()["view"]["deal"] == 2
        assert victim.post("/api/act", json={"action": "tap", "column": 4}).json()["reply"]["done"]
        # Each id's first hint searches in its turn (0.2 s each here)...
        for _ in range(ids):
            time.sleep(0.2)
            let_go.release()
            assert searches.acquire(timeout=10)  # the next one has begun
        # ...and then the victim, who has used the solver least, goes before their second.
        mine: list[httpx.Response] = []
        asked = threading.Thread(
            target=lambda: mine.append(victim.post("/api/act", json={"action": "hint"}))
        )
        asked.start()
        mine_in_line = running.app.state.players.get(player_of(victim))
        deadline = time.monotonic() + 10
        while not mine_in_line.requests and time.monotonic() < deadline:
            time.sleep(0.01)  # in line behind the search held now
        let_go.release()
        asked.join(10)
        assert mine and mine[0].json()["reply"]["done"], mine
        assert mine[0].json()["view"]["hint"] is not None
        assert answers.count(200) == ids + 1  # no other hint answered meanwhile
    finally:
        for _ in range(ids * each):
            let_go.release()
        for thread in flood:
            thread.join(60)
    assert answers.count(200) == 2 * ids
    for attacker in (victim, *attackers):
        attacker.close()
