"""New browsers let in while one address makes new players as fast as it can.

    python benches/serve_players_flood.py --requests 1000 --newcomers 10

The server is ``castle serve``'s app on a network, in a process of its own (as
benches/serve_flood.py starts it). One address (127.0.0.9) sends ``--requests`` cookie-less
``POST /api/new`` (each a new player with a deal) on four connections at once; then
``--newcomers`` new browsers, each from an address of its own, deal once. Printed: the flood's
answers by status and how long it took, then the newcomers' answers by status.
"""

from __future__ import annotations

import argparse
import collections
import threading
import time

import httpx
from serve_flood import client, served


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=1000, help="the flood's new players")
    parser.add_argument("--newcomers", type=int, default=10, help="new browsers after it")
    args = parser.parse_args()
    with served() as (port, _):
        flood: collections.Counter[int] = collections.Counter()
        left = [args.requests]
        lock = threading.Lock()

        def loop() -> None:
            with client(port, "127.0.0.9") as attacker:
                while True:
                    with lock:
                        if left[0] == 0:
                            return
                        left[0] -= 1
                    attacker.cookies.clear()
                    try:
                        answer = attacker.post("/api/new", json={"level": "medium", "deal": 2})
                        flood[answer.status_code] += 1
                    except httpx.HTTPError:
                        flood[0] += 1

        began = time.monotonic()
        threads = [threading.Thread(target=loop) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        took = time.monotonic() - began
        newcomers: collections.Counter[int] = collections.Counter()
        for n in range(args.newcomers):
            with client(port, f"127.0.0.{101 + n}") as newcomer:
                answer = newcomer.post("/api/new", json={"level": "medium", "deal": 2})
                newcomers[answer.status_code] += 1
        print(f"the flood's {args.requests} new players, by status: {dict(sorted(flood.items()))}")
        print(f"(in {took:.1f} s from one address)")
        print(
            f"{args.newcomers} new browsers after it, by status: {dict(sorted(newcomers.items()))}"
        )


if __name__ == "__main__":
    main()
