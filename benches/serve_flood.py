"""Another player's view while a client floods ``castle serve`` with hints under many ids.

    python benches/serve_flood.py --ids 10 --concurrent 8 --seconds 15

The server is ``castle serve``'s app under its server, on a network (each browser a player),
in a process of its own on 127.0.0.1, over a temporary data directory. The attacker is ``--ids``
players, each from an address of its own (127.0.0.11, .12, ...: as many machines, so that no
cap per address stops it), each with Medium deal ``--deal`` at its table (954: a deal the solver
cannot decide, so every hint searches for its full 1.5 s) and ``--concurrent`` hints always in
flight. The victim, from 127.0.0.2, has Medium deal 2 at its table and asks ``GET /api/view``
again and again, one at a time, first for ``--quiet`` seconds alone and then for ``--seconds``
under the flood (from its first second on); every 3 s under the flood it also asks a hint of
its own. Printed: the victim's view round trip (median, p90, p99, max) alone and under the
flood, when each of its hints was asked and its round trip (0: no answer in 30 s), the
attacker's answers by status, and the server's peak resident memory.

With ``--fresh`` each attacking thread takes a new id for every hint (no cookie: a new player,
a new deal, then the hint), as a script that owns no id would. ``--newcomers N``: N new
browsers from other addresses (127.0.0.101, ...) each deal once under the flood, and how many
were let in is printed. ``--abandoned N``: after the flood, N hints on the attacker's deal whose
clients hang up at once, and the server's CPU in the 5 s after them.

``--serve DIR`` is the server's own process (the script starts it so): it prints its port.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator

import httpx

TOKEN = "bench"


def serve(data_dir: str) -> None:
    """The server's process: castle serve's app on a network, on a free port of 127.0.0.1."""
    from castle.serve.app import create_app  # here: the client's process needs none of it

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    app = create_app(data_dir, token=TOKEN, loopback=False, rng=random.Random(1))
    try:
        from castle.serve.server import make_server
    except ImportError:  # a castle from before it had its own server: as castle serve ran it
        import uvicorn

        server = uvicorn.Server(
            uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
        )
    else:
        server = make_server(app)
    print(sock.getsockname()[1], flush=True)
    server.run(sockets=[sock])


def client(port: int, address: str) -> httpx.Client:
    """A browser of its own (its own player) from the loopback ``address``."""
    return httpx.Client(
        base_url=f"http://127.0.0.1:{port}",
        headers={"X-Castle-Token": TOKEN},
        transport=httpx.HTTPTransport(local_address=address),
        limits=httpx.Limits(max_connections=64),
        timeout=120,
    )


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def summary(name: str, seconds: list[float]) -> str:
    if not seconds:
        return f"{name}: none"
    ms = [s * 1000 for s in seconds]
    return (
        f"{name}: {len(ms)} round trips, median {statistics.median(ms):.1f} ms, "
        f"p90 {percentile(ms, 90):.1f} ms, p99 {percentile(ms, 99):.1f} ms, max {max(ms):.1f} ms"
    )


def peak_rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ids", type=int, default=10, help="the attacker's player ids")
    parser.add_argument("--concurrent", type=int, default=8, help="hints in flight per id")
    parser.add_argument("--seconds", type=float, default=15.0, help="the flood's length")
    parser.add_argument("--quiet", type=float, default=3.0, help="the victim alone, first")
    parser.add_argument("--deal", type=int, default=954, help="the attacker's Medium deal")
    parser.add_argument("--fresh", action="store_true", help="a new id for every hint")
    parser.add_argument("--newcomers", type=int, default=0, help="new browsers under the flood")
    parser.add_argument("--abandoned", type=int, default=0, help="hints hung up on, after")
    parser.add_argument("--serve", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return

    with served() as (port, pid):
        run(args, port, pid)


@contextlib.contextmanager
def served() -> Iterator[tuple[int, int]]:
    """A server of this benchmark's (``--serve``) in a process of its own, on a new data
    directory: its port and its process id; stopped after."""
    with tempfile.TemporaryDirectory() as data_dir:
        server = subprocess.Popen(
            [sys.executable, __file__, "--serve", data_dir], stdout=subprocess.PIPE, text=True
        )
        try:
            assert server.stdout is not None
            yield int(server.stdout.readline()), server.pid
        finally:
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:  # a server that waits for its connections
                server.kill()
                server.wait()


def run(args: argparse.Namespace, port: int, pid: int) -> None:
    victim = client(port, "127.0.0.2")
    victim.post("/api/new", json={"level": "medium", "deal": 2})
    attackers = [client(port, f"127.0.0.{11 + n}") for n in range(args.ids)]
    for attacker in attackers:
        attacker.post("/api/new", json={"level": "medium", "deal": args.deal})

    def views(until: float, into: list[float]) -> None:
        while time.monotonic() < until:
            started = time.perf_counter()
            answer = victim.get("/api/view")
            into.append(time.perf_counter() - started)
            assert answer.status_code == 200, answer.text

    alone: list[float] = []
    views(time.monotonic() + args.quiet, alone)

    statuses: collections.Counter[int] = collections.Counter()
    flooding = threading.Event()
    flooding.set()

    def flood(attacker: httpx.Client) -> None:
        while flooding.is_set():
            try:
                if args.fresh:
                    attacker.cookies.clear()  # a new player: a deal, then its hint
                    dealt = attacker.post("/api/new", json={"level": "medium", "deal": args.deal})
                    if dealt.status_code != 200:
                        statuses[dealt.status_code] += 1
                        continue
                status = attacker.post("/api/act", json={"action": "hint"}).status_code
            except httpx.HTTPError:
                status = 0  # refused at the connection, or reset
            statuses[status] += 1

    threads = [
        threading.Thread(target=flood, args=(attacker,), daemon=True)
        for attacker in attackers
        for _ in range(args.concurrent)
    ]
    for thread in threads:
        thread.start()
    time.sleep(1.0)  # the flood under way
    let_in = newcomers(port, args.newcomers)
    under: list[float] = []
    hints: list[tuple[float, float, int]] = []  # (seconds into the flood, round trip, status)
    began = time.monotonic()
    end = began + args.seconds
    while time.monotonic() < end:
        views(min(end, time.monotonic() + 3.0), under)
        asked = time.monotonic()
        try:
            status = victim.post("/api/act", json={"action": "hint"}, timeout=30).status_code
        except httpx.TimeoutException:
            status = 0  # no answer in 30 s: starved
        hints.append((asked - began + 1.0, time.monotonic() - asked, status))
    flooding.clear()
    for thread in threads:
        thread.join()

    print(summary("victim's GET /api/view, alone", alone))
    print(summary(f"victim's GET /api/view, under the flood ({args.seconds:g} s)", under))
    print(
        "victim's hints under the flood (asked at s: round trip s, status): "
        + ", ".join(f"{at:.0f}: {took:.1f} ({status})" for at, took, status in hints)
    )
    print(summary("victim's hints under the flood", [took for _, took, _ in hints]))
    print(f"attacker's answers by status (0: no answer): {dict(sorted(statuses.items()))}")
    if args.newcomers:
        print(f"new browsers under the flood, by status: {dict(sorted(let_in.items()))}")
    if args.abandoned:
        cpu = abandoned_cpu(port, pid, args.deal, args.abandoned)
        print(f"server's CPU in the 5 s after {args.abandoned} hints hung up on: {cpu:.2f} s")
    print(f"server's peak resident memory: {peak_rss_mb(pid):.0f} MB")
    print(
        f"({args.ids} {'addresses of fresh ids' if args.fresh else 'ids'} x {args.concurrent} "
        f"hints in flight on Medium deal {args.deal}; "
        f"load average {os.getloadavg()[0]:.1f}; {os.cpu_count()} cores)"
    )


def newcomers(port: int, count: int) -> collections.Counter[int]:
    """``count`` new browsers, each from an address of its own, deal once: their statuses."""
    statuses: collections.Counter[int] = collections.Counter()
    for n in range(count):
        with client(port, f"127.0.0.{101 + n}") as newcomer:
            try:
                answer = newcomer.post("/api/new", json={"level": "medium", "deal": 2})
                statuses[answer.status_code] += 1
            except httpx.HTTPError:
                statuses[0] += 1
    return statuses


def cpu_seconds(pid: int) -> float:
    """The CPU the process ``pid`` has used (user and system), in seconds."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def abandoned_cpu(port: int, pid: int, deal: int, count: int) -> float:
    """The server's CPU in the 5 s after ``count`` hints on Medium ``deal`` whose clients
    hang up as soon as they are sent (a player of its own, from 127.0.0.3)."""
    with client(port, "127.0.0.3") as leaver:
        leaver.post("/api/new", json={"level": "medium", "deal": deal})
        cookie = "; ".join(f"{k}={v}" for k, v in leaver.cookies.items())
    body = b'{"action": "hint"}'
    request = (
        f"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Castle-Token: {TOKEN}\r\n"
        f"Cookie: {cookie}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    time.sleep(2.0)  # the flood's last searches over
    before = cpu_seconds(pid)
    for _ in range(count):
        with socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.3", 0)) as sock:
            sock.sendall(request)
    time.sleep(5.0)
    return cpu_seconds(pid) - before


if __name__ == "__main__":
    main()
