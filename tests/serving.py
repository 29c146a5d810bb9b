"""castle serve's app under its real server, on a free port of 127.0.0.1, in a thread (shared
by the tests of the server, the players and the solver's queue)."""

from __future__ import annotations

import random
import socket
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from castle.serve.app import create_app
from castle.serve.guard import PLAYER_COOKIE
from castle.serve.server import Limits, make_server
from starlette.applications import Starlette

TOKEN = "the-token-of-these-tests"


class Running:
    """A server running in a thread: its app, port and URL."""

    def __init__(self, app: Starlette, server: Any, thread: threading.Thread, port: int) -> None:
        self.app, self.server, self.thread, self.port = app, server, thread, port
        self.url = f"http://127.0.0.1:{port}"

    def client(self, source: str = "127.0.0.1", timeout: float = 30) -> httpx.Client:
        """A browser with the token (its own cookies: a player of its own on a network),
        from the loopback address ``source`` (as from a machine of its own)."""
        return httpx.Client(
            base_url=self.url,
            headers={"X-Castle-Token": TOKEN},
            transport=httpx.HTTPTransport(local_address=source),
            limits=httpx.Limits(max_connections=64),
            timeout=timeout,
        )

    def stop(self) -> None:
        """Stopped as ``castle serve`` stops: the server, then its players paused and let go."""
        self.server.should_exit = True
        self.thread.join(30)
        self.app.state.players.pause_all()


class Servers:
    """Servers started for one test (each saving in a directory of its own under ``root``,
    unless told ``data``), all stopped by :meth:`stop_all`."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.running: list[Running] = []

    def start(
        self,
        limits: Limits | None = None,
        *,
        trust_proxy: str | None = None,
        loopback: bool = True,
        data: Path | None = None,
    ) -> Running:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.bind(("127.0.0.1", 0))
        sock.listen(128)
        data = data or self.root / f"data{len(self.running)}"
        app = create_app(data, token=TOKEN, loopback=loopback, rng=random.Random(7))
        server = make_server(app, limits=limits or Limits(), trust_proxy=trust_proxy)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        deadline = time.monotonic() + 30
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.01)
        self.running.append(Running(app, server, thread, sock.getsockname()[1]))
        return self.running[-1]

    def stop_all(self) -> None:
        for running in self.running:
            running.stop()


def player_of(client: httpx.Client) -> str:
    """The player id a network server gave ``client``."""
    return client.cookies[PLAYER_COOKIE]


__all__ = ["TOKEN", "Running", "Servers", "player_of"]
