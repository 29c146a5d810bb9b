"""castle serve's HTTP server (castle.serve.server, docs/serve.md "Limits"): connections that
send too slowly, too many connections, requests h11 cannot read, proxy headers, and a quiet
log; all over real sockets to the real uvicorn server."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from castle import Table
from castle.serve.server import Limits
from processes import finish
from serving import TOKEN, Running, Servers

#: Short limits, so that the tests wait little for them.
QUICK = Limits(header_seconds=0.5, body_seconds=0.5, idle_seconds=1, grace_seconds=1)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Running]]:
    """``serve(limits=QUICK, trust_proxy=None)``: castle serve's app under its server."""
    servers = Servers(tmp_path)

    def start(limits: Limits = QUICK, trust_proxy: str | None = None) -> Running:
        return servers.start(limits, trust_proxy=trust_proxy)

    yield start
    servers.stop_all()


def connect(running: Running, source: str = "127.0.0.1") -> socket.socket:
    """A raw connection to ``running`` from the loopback address ``source``."""
    sock = socket.create_connection(
        ("127.0.0.1", running.port), timeout=10, source_address=(source, 0)
    )
    return sock


def request(
    path: str = "/api/levels", method: str = "GET", body: bytes = b"", **more: str
) -> bytes:
    """A request with the token, as bytes; ``more`` headers (``Content_Length="9"``)."""
    headers = {"Host": "127.0.0.1", "X-Castle-Token": TOKEN, **more}
    if body and "Content_Length" not in more:
        headers["Content-Length"] = str(len(body))
    lines = [
        f"{method} {path} HTTP/1.1",
        *(f"{k.replace('_', '-')}: {v}" for k, v in headers.items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a reset too)."""
    got = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return got
        if not chunk:
            return got
        got += chunk


def read_answer(sock: socket.socket) -> bytes:
    """One whole answer on a connection kept open: its headers, then its Content-Length."""
    got = b""
    while b"\r\n\r\n" not in got:
        got += sock.recv(65536) or pytest.fail(f"closed after {got!r}")
    head, _, body = got.partition(b"\r\n\r\n")
    length = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
    assert length is not None, head
    while len(body) < int(length[1]):
        body += sock.recv(65536) or pytest.fail(f"closed after {got!r}")
    return head + b"\r\n\r\n" + body


def answer(raw: bytes) -> tuple[int, dict[str, str], Any]:
    """The status, headers and JSON body of the first answer in ``raw``."""
    head, _, rest = raw.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
    body = rest[: int(headers["content-length"])]
    return int(status_line.split()[1]), headers, json.loads(body)


def refused_here(raw: bytes, status: int, said: str) -> None:
    """``raw`` is the server's own refusal: JSON of one line, the headers of every answer."""
    got, headers, body = answer(raw)
    assert got == status, raw
    assert headers["content-type"] == "application/json" and headers["connection"] == "close"
    assert headers["x-content-type-options"] == "nosniff" and headers["cache-control"] == "no-store"
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert said in body["error"] and "\n" not in body["error"], body


def closed(sock: socket.socket, within: float) -> bool:
    """Whether the server closes ``sock`` within ``within`` seconds (nothing sent)."""
    sock.settimeout(within)
    try:
        return read_all(sock) == b""
    except socket.timeout:  # TimeoutError from Python 3.10 on
        return False


# --- slow clients ------------------------------------------------------------------------------


def test_a_connection_that_sends_no_request_is_closed(serve: Callable[..., Running]) -> None:
    running = serve()
    with connect(running) as idle:  # connects and says nothing
        assert closed(idle, 5)
    with connect(running) as slow:  # a header a byte at a time, for ever (slowloris)
        slow.sendall(b"GET /api/levels HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        drip = time.monotonic() + 5
        with pytest.raises(OSError):  # reset or broken pipe: closed while it still sends
            while time.monotonic() < drip:
                slow.sendall(b"X")
                time.sleep(0.05)
    with connect(running) as kept:  # after an answer, the next request's headers too
        kept.sendall(request())
        kept.settimeout(5)
        assert answer(read_answer(kept))[0] == 200
        kept.sendall(b"GET /api/levels HTTP/1.1\r\nHost: 127")
        assert closed(kept, 5)


def test_a_body_slower_than_its_length_says_is_answered_408(
    serve: Callable[..., Running],
) -> None:
    running = serve()
    with connect(running) as sock:  # a body shorter than its Content-Length
        sock.sendall(request("/api/act", "POST", b'{"action":', Content_Length="40",
                             Content_Type="application/json"))  # fmt: skip
        refused_here(read_all(sock), 408, "did not come within 0.5 s")
    with connect(running) as sock:  # a body a byte at a time
        sock.sendall(request("/api/settings", "POST", b"", Content_Length="400",
                             Content_Type="application/json"))  # fmt: skip
        with pytest.raises(OSError):
            for _ in range(100):
                sock.sendall(b" ")
                time.sleep(0.05)
    # Nothing was changed, and the server serves on.
    assert httpx.get(f"{running.url}/api/settings", headers={"X-Castle-Token": TOKEN}).json() == {
        "settings": {"sound": True, "fair_hints": True}
    }


def test_connections_are_capped_in_all_and_per_address(serve: Callable[..., Running]) -> None:
    running = serve(Limits(header_seconds=30, connections=4, connections_per_client=2))
    held = [connect(running, "127.0.0.1"), connect(running, "127.0.0.1")]
    time.sleep(0.2)  # accepted
    with connect(running, "127.0.0.1") as third:
        refused_here(read_all(third), 503, "more than 2 connections at once from one address")
    held += [connect(running, "127.0.0.2"), connect(running, "127.0.0.3")]
    time.sleep(0.2)
    with connect(running, "127.0.0.4") as fifth:
        refused_here(read_all(fifth), 503, "more than 4 connections at once")
    # A connection let in is served; one closed makes room (once the server has seen it go).
    held[0].sendall(request())
    assert answer(read_answer(held[0]))[0] == 200
    held.pop().close()
    deadline, status = time.monotonic() + 10, 503
    while status == 503 and time.monotonic() < deadline:
        with connect(running, "127.0.0.4") as sock:
            sock.sendall(request(Connection="close"))
            status = answer(read_all(sock))[0]
    assert status == 200
    for sock in held:
        sock.close()


# --- requests h11 cannot read ----------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        b"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        b"GET /api/levels HTTP/1.1\r\nX-Castle-Token: " + TOKEN.encode() + b"\r\n\r\n",
        b"GET /api/levels HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"x" * 20000,  # more to come
        b"NOT HTTP AT ALL\r\n\r\n",
    ],
)
def test_a_malformed_request_is_a_json_400(serve: Callable[..., Running], raw: bytes) -> None:
    running = serve()
    with connect(running) as sock:
        sock.sendall(raw)
        refused_here(read_all(sock), 400, "a malformed HTTP request")


# --- proxies ---------------------------------------------------------------------------------


def test_no_proxy_header_is_trusted_unless_told(serve: Callable[..., Running]) -> None:
    # An https page of another server claims to be this one through X-Forwarded-Proto: its
    # requests are refused, unless --trust-proxy names the address they come from.
    for trust, status in ((None, 403), ("127.0.0.1", 200)):
        running = serve(trust_proxy=trust)
        headers = {
            "X-Castle-Token": TOKEN,
            "X-Forwarded-Proto": "https",
            "X-Forwarded-For": "203.0.113.9",
            "Origin": f"https://127.0.0.1:{running.port}",
        }
        got = httpx.get(f"{running.url}/api/levels", headers=headers)
        assert got.status_code == status, (trust, got.text)


# --- the log ---------------------------------------------------------------------------------


def test_a_client_gone_mid_body_leaves_no_traceback(
    serve: Callable[..., Running], capfd: pytest.CaptureFixture[str]
) -> None:
    running = serve()
    for _ in range(3):
        with connect(running) as sock:
            sock.sendall(request("/api/act", "POST", b'{"act', Content_Length="40",
                                 Content_Type="application/json"))  # fmt: skip
            time.sleep(0.1)
    time.sleep(0.3)
    assert httpx.get(f"{running.url}/api/levels", headers={"X-Castle-Token": TOKEN}).is_success
    running.stop()
    err = capfd.readouterr().err
    assert "Traceback" not in err and "ClientDisconnect" not in err, err


def test_a_request_cut_short_as_the_server_stops_is_a_503(
    serve: Callable[..., Running], capfd: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    # A hint that outlasts the grace period the server gives the requests in flight as it
    # stops: its client is answered 503, and the log says so in one line, no traceback.
    searching, release = threading.Event(), threading.Event()
    advice = Table.advice

    def held(self: Table, peek: bool = False, cancel: Any = None) -> Any:
        searching.set()
        release.wait(10)
        return advice(self, peek, cancel)

    monkeypatch.setattr(Table, "advice", held)
    running = serve()
    client = httpx.Client(base_url=running.url, headers={"X-Castle-Token": TOKEN}, timeout=10)
    client.post("/api/new", json={"level": "medium", "deal": 2})
    answers: list[httpx.Response] = []
    hint = threading.Thread(
        target=lambda: answers.append(client.post("/api/act", json={"action": "hint"}))
    )
    hint.start()
    assert searching.wait(10)
    running.stop()
    release.set()
    hint.join(10)
    assert answers[0].status_code == 503, answers[0].text
    assert "stopped before it could answer" in answers[0].json()["error"]
    err = capfd.readouterr().err
    assert "Traceback" not in err and "CancelledError" not in err, err
    assert len(err.strip().splitlines()) <= 1, err


def test_sigterm_with_slow_bodies_in_flight_stops_quietly(tmp_path: Path) -> None:
    env = {**os.environ, "CASTLE_DATA_DIR": str(tmp_path)}
    process = subprocess.Popen(
        [sys.executable, "-m", "castle", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    slow: list[socket.socket] = []
    try:
        assert process.stdout is not None
        found = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([\w-]+)", process.stdout.readline())
        assert found, "no URL"
        port, token = int(found[1]), found[2]
        for _ in range(3):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            head = (
                f"POST /api/act HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Castle-Token: {token}\r\n"
                "Content-Type: application/json\r\nContent-Length: 40\r\n\r\n{"
            )
            sock.sendall(head.encode())
            slow.append(sock)
        time.sleep(1.0)  # their headers read: each waits for its body
        process.send_signal(signal.SIGTERM)
        out, err = finish(process, 30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0 and "castle serve: stopped" in out, err
    assert "Traceback" not in err and "CancelledError" not in err, err
    assert len(err.strip().splitlines()) <= 1, err
    for sock in slow:  # each told why, then closed
        with sock:
            refused_here(read_all(sock), 503, "the server is stopping")
