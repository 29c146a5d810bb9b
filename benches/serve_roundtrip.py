"""An action's round trip through ``castle serve``: the request sent, the new view back.

    python benches/serve_roundtrip.py --deals 2,5,8 --rounds 3

A real uvicorn server on loopback (the app ``castle serve`` runs, on a temporary data
directory, so every move is saved to disk with its fsync, as in play) and one keep-alive HTTP
client, as a browser holds. The script of each deal is the win its hints lead to, made first
without the server (a castle deal of Medium that the solver wins); each round plays every
script through ``POST /api/act`` (one timed request per move, the answer's JSON read), and
after each move asks ``GET /api/lift`` for the next card held (the marks of a drag), timed
apart. The hints themselves (a search) are not timed: the target is an action's
round trip, p99 at most 20 ms for castle games.

``--no-fsync`` replaces ``os.fsync`` with nothing in this process (the save is still written,
not forced to the disk): the difference is what the disk costs, the rest is castle's.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import tempfile
import threading
import time
from typing import Any

import httpx
import uvicorn
from castle.actions import Advise, action_from_json
from castle.game.new_game import new_game
from castle.serve.app import create_app
from castle.table.table import Table

TOKEN = "bench"


def script(deal: int) -> list[dict[str, Any]]:
    """The actions that win Medium deal ``deal`` by its hints (the hinted moves only)."""
    table = Table(new_game("medium", None, deal))
    actions: list[dict[str, Any]] = []
    while not table.view().won and len(actions) < 500:
        table.act(Advise())
        hint = table.view().hint
        if hint is None:
            raise SystemExit(f"deal {deal}: no win by hints (pick a deal the solver wins)")
        actions.append(hint)
        table.act(action_from_json(hint))
    return actions


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", default="2,5,8", help="Medium deals the solver wins")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--no-fsync", action="store_true", help="saves not forced to the disk (os.fsync a no-op)"
    )
    args = parser.parse_args()
    if args.no_fsync:
        os.fsync = lambda fd: None
    deals = [int(d) for d in args.deals.split(",")]
    scripts = {deal: script(deal) for deal in deals}

    with tempfile.TemporaryDirectory() as data_dir:
        # IPPROTO_TCP named, as castle serve's socket: asyncio sets TCP_NODELAY only then.
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.bind(("127.0.0.1", 0))
        sock.listen(128)
        port = sock.getsockname()[1]
        app = create_app(data_dir, token=TOKEN)
        server = uvicorn.Server(
            uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
        )
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.01)
        acts: list[float] = []
        lifts: list[float] = []
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, headers={"X-Castle-Token": TOKEN}) as client:
            for _ in range(args.rounds):
                for deal, actions in scripts.items():
                    answer = client.post(
                        "/api/new", json={"level": "medium", "deal": deal, "confirmed": True}
                    ).json()
                    for action, following in zip(actions, [*actions[1:], None]):
                        started = time.perf_counter()
                        answer = client.post("/api/act", json=action).json()
                        acts.append(time.perf_counter() - started)
                        assert answer["reply"]["done"], (deal, action, answer)
                        if following is not None and following["action"] == "drop":
                            query = f"src={following['src']}&count={following['count']}"
                            started = time.perf_counter()
                            lifted = client.get(f"/api/lift?{query}").json()
                            lifts.append(time.perf_counter() - started)
                            assert following["dst"] in lifted["lift"]["targets"], lifted
                    assert answer["view"]["won"], deal
        server.should_exit = True
        thread.join()

    for name, times in (("POST /api/act", acts), ("GET /api/lift", lifts)):
        ms = [t * 1000 for t in times]
        print(
            f"{name}: {len(ms)} round trips, median {statistics.median(ms):.2f} ms, "
            f"p99 {percentile(ms, 99):.2f} ms, max {max(ms):.2f} ms"
        )
    moves = sum(len(s) for s in scripts.values())
    fsync = "saves not forced to the disk" if args.no_fsync else "every save fsynced"
    print(f"(Medium deals {args.deals}: {moves} moves a round, {args.rounds} rounds; {fsync})")


if __name__ == "__main__":
    main()
