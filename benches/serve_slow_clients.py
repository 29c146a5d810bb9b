"""How many sockets slow clients hold on ``castle serve``, and for how long.

    python benches/serve_slow_clients.py --clients 300 --addresses 1 --seconds 30

The server is ``castle serve``'s app under its server, in a process of its own on 127.0.0.1
(serve_flood.py's). ``--clients`` connections are opened from ``--addresses`` loopback
addresses (127.0.0.11, .12, ...: as many machines), a third of each kind: idle (connect, say
nothing), slowloris (a request's headers a byte a second, never ending), and slow bodies (a
POST's headers whole, then its body a byte a second, never ending). Every ``--every``
seconds for ``--seconds`` seconds the script sends each slow one its next byte and counts
the server's sockets (in /proc: its process's, less those it had before), and it times each
connection's life until the server closes it. 5 s in, a normal client from another address
asks ``GET /api/levels``: whether it is served while they hold what they hold.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import selectors
import socket
import time

import httpx
from serve_flood import served

TOKEN = "bench"
KINDS = ("idle", "slowloris", "slow body")


def open_slow(port: int, address: str, kind: str) -> socket.socket | None:
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(address, 0))
    except OSError:
        return None
    sock.setblocking(False)
    try:
        if kind == "slowloris":
            sock.send(b"GET /api/levels HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        elif kind == "slow body":
            sock.send(
                b"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Castle-Token: bench\r\n"
                b"Content-Type: application/json\r\nContent-Length: 10000\r\n\r\n"
            )
    except OSError:
        pass
    return sock


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=300)
    parser.add_argument("--addresses", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--every", type=float, default=1.0)
    args = parser.parse_args()
    with served() as (port, pid):
        run(args, port, pid)


def server_sockets(pid: int) -> int:
    """The sockets the server's process has open (its listening socket among them)."""
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            count += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
    return count


def another(port: int) -> str:
    """Another client's ``GET /api/levels``, from an address of its own: status, time."""
    with httpx.Client(
        transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=10
    ) as other:
        started = time.perf_counter()
        try:
            status = str(
                other.get(
                    f"http://127.0.0.1:{port}/api/levels", headers={"X-Castle-Token": TOKEN}
                ).status_code
            )
        except httpx.HTTPError as e:
            status = type(e).__name__
        return f"{status} in {(time.perf_counter() - started) * 1000:.1f} ms"


def run(args: argparse.Namespace, port: int, pid: int) -> None:
    before = server_sockets(pid)
    opened = time.monotonic()
    held: dict[socket.socket, tuple[str, float]] = {}
    refused = 0
    for n in range(args.clients):
        kind = KINDS[n % 3]
        sock = open_slow(port, f"127.0.0.{11 + n % args.addresses}", kind)
        if sock is None:
            refused += 1
        else:
            held[sock] = (kind, time.monotonic())
    selector = selectors.DefaultSelector()
    for sock in held:
        selector.register(sock, selectors.EVENT_READ)
    lifetimes: dict[str, list[float]] = {kind: [] for kind in KINDS}
    answered: dict[str, int] = {}
    most = 0  # the server's sockets to them at once
    end = opened + args.seconds
    asked_at, other = opened + 5.0, ""
    next_drip = time.monotonic() + 1.0  # counted from the first second on: refusals closed
    while time.monotonic() < end:
        for key, _ in selector.select(timeout=0.05):
            ready = key.fileobj
            assert isinstance(ready, socket.socket)
            try:
                data = ready.recv(65536)
            except OSError:
                data = b""
            if data:
                status = data.split(b" ", 2)[1].decode() if data.startswith(b"HTTP/") else "?"
                answered[status] = answered.get(status, 0) + 1
                continue
            kind, since = held.pop(ready)
            lifetimes[kind].append(time.monotonic() - since)
            selector.unregister(ready)
            ready.close()
        if not other and time.monotonic() >= asked_at:
            other = another(port)
        if time.monotonic() >= next_drip:  # a byte a second from each slow one
            next_drip += args.every
            most = max(most, server_sockets(pid) - before)
            for sock, (kind, _) in held.items():
                if kind != "idle":
                    with contextlib.suppress(OSError):
                        sock.send(b"x" if kind == "slowloris" else b" ")
    still = {kind: 0 for kind in KINDS}
    for kind, since in held.values():
        still[kind] += 1
        lifetimes[kind].append(time.monotonic() - since)
    print(
        f"{args.clients} slow connections from {args.addresses} address(es): "
        f"{refused} not connected, {len(held)} still held after {args.seconds:g} s "
        f"({', '.join(f'{k} {v}' for k, v in still.items())}); the server's sockets to them at "
        f"once: at most {most}"
    )
    for kind in KINDS:
        times = lifetimes[kind]
        if times:
            print(
                f"  {kind}: {len(times)} connections, held {min(times):.1f} to "
                f"{max(times):.1f} s (the longest: until the end if still held)"
            )
    print(f"  the server's own answers to them, by status: {answered}")
    print(f"another client's GET /api/levels 5 s in: {other}")
    for sock in held:
        sock.close()
    print(f"(load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
