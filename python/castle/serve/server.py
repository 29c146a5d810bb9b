"""The HTTP server ``castle serve`` runs its app on: uvicorn's, over h11, with the limits on
connections it lacks (docs/serve.md, "Limits").

uvicorn closes a keep-alive connection idle for a while after an answer, but a connection
that never sends a whole request, or a body shorter than its Content-Length, would stay open
for ever, and it takes every connection it is offered. :class:`Connection` (uvicorn's h11
protocol) adds a deadline for each request's headers and one for its body, and a cap on the
connections at once, in all and per client address. Its own answers (a malformed request:
400; a body too slow: 408; too many connections or the server stopping: 503) are one line
of JSON with the headers of every answer, as the app's are. As the server stops, a request
whose body is still coming is answered 503 and dropped, and one cut short past the grace
period is answered 503 (:func:`stopping_quietly`): neither leaves a traceback in the log.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any, ClassVar

import h11
import uvicorn
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import STATUS_PHRASES, H11Protocol

from .guard import SECURITY_HEADERS


@dataclass(frozen=True)
class Limits:
    """What one connection may take, and how many there may be."""

    #: A request's headers in full, from the connection's start or the last answer on it.
    header_seconds: float = 10.0
    #: A request's body in full, from its headers.
    body_seconds: float = 10.0
    #: A keep-alive connection idle after an answer is closed then (uvicorn's own timer).
    idle_seconds: int = 5
    #: Connections open at once: in all, and from one client address.
    connections: int = 256
    connections_per_client: int = 32
    #: The request line and headers of one request (h11's limit; past it: 400).
    header_bytes: int = 16 * 1024
    #: As the server stops: how long the requests in flight have to finish.
    grace_seconds: int = 3


def refusal_parts(status: int, reason: str) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers and body of an answer the server makes itself: the app's refusal
    (``{"error": reason}``), the headers of every answer, and the connection closed."""
    body = json.dumps({"error": reason}, ensure_ascii=False, separators=(",", ":")).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        *SECURITY_HEADERS,
    ]
    return headers, body


class Connection(H11Protocol):
    """One HTTP connection: uvicorn's h11 protocol under :attr:`limits`."""

    limits: ClassVar[Limits] = Limits()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: What the connection waits for from the client ("headers", "body"), or None (an
        #: answer is being made, or the connection closes), and when it stops waiting.
        self._waiting: str | None = None
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else None
        mine = sum(
            1
            for c in self.connections
            if isinstance(c, Connection) and c.client is not None and c.client[0] == address
        )
        if len(self.connections) > self.limits.connections:
            self._refuse(f"more than {self.limits.connections} connections at once: try again")
        elif mine > self.limits.connections_per_client:
            self._refuse(
                f"more than {self.limits.connections_per_client} connections at once from "
                "one address: close some and try again"
            )
        else:
            self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._wait_for(None)
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """A request h11 cannot read: 400 in JSON, as the app's refusals."""
        self._answer(
            400,
            "a malformed HTTP request (its request line, a header, its Content-Length, no "
            f"Host in HTTP/1.1, or more than {self.limits.header_bytes} bytes of headers)",
        )
        self.transport.close()

    def shutdown(self) -> None:
        """The server stops: a request whose body is still coming is answered 503 and
        dropped (the app sees its client gone); the rest as uvicorn does."""
        cycle = self.cycle
        if (
            cycle is not None
            and not cycle.response_started
            and self.conn.their_state is h11.SEND_BODY
        ):
            self._drop(503, "the server is stopping: send it again when it is back")
            return
        try:
            super().shutdown()
        except h11.LocalProtocolError:  # a body never read, behind an answer: just close
            self.transport.close()

    # --- inside -------------------------------------------------------------------------------

    def _watch(self) -> None:
        """The deadline of what the connection waits for now: a request's headers (from the
        connection's start, or from the last answer), or its body (from its headers)."""
        state = self.conn.their_state
        waiting = None
        if not self.transport.is_closing():
            if state is h11.IDLE:
                waiting = "headers"
            elif state is h11.SEND_BODY:
                waiting = "body"
        if waiting != self._waiting:
            self._wait_for(waiting)

    def _wait_for(self, waiting: str | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._waiting, self._deadline = waiting, None
        if waiting == "headers":
            self._deadline = self.loop.call_later(self.limits.header_seconds, self._headers_late)
        elif waiting == "body":
            self._deadline = self.loop.call_later(self.limits.body_seconds, self._body_late)

    def _headers_late(self) -> None:
        """No whole request in time: closed (there is no request to answer)."""
        self._deadline = None
        self.transport.close()

    def _body_late(self) -> None:
        self._deadline = None
        self._drop(408, f"the request's body did not come within {self.limits.body_seconds:g} s")

    def _drop(self, status: int, reason: str) -> None:
        """The request in progress answered ``status`` here, unless its answer has begun;
        the app sees its client gone (what it sends goes nowhere); the connection closed."""
        cycle = self.cycle
        if cycle is not None and not cycle.response_started:
            self._answer(status, reason)
            cycle.disconnected = True
            cycle.message_event.set()
        self.transport.close()

    def _answer(self, status: int, reason: str) -> None:
        """``status`` with ``reason`` through h11, if it may still answer."""
        headers, body = refusal_parts(status, reason)
        try:
            out = [
                self.conn.send(
                    h11.Response(status_code=status, headers=headers, reason=STATUS_PHRASES[status])
                ),
                self.conn.send(h11.Data(data=body)),
                self.conn.send(h11.EndOfMessage()),
            ]
        except h11.LocalProtocolError:  # an answer has begun, or the connection is done
            return
        self.transport.write(b"".join(part for part in out if part))

    def _refuse(self, reason: str) -> None:
        """A connection over the cap: 503 at once (before any request: h11 cannot say it),
        and closed."""
        headers, body = refusal_parts(503, reason)
        head = b"".join(name + b": " + value + b"\r\n" for name, value in headers)
        self.transport.write(b"HTTP/1.1 503 Service Unavailable\r\n" + head + b"\r\n" + body)
        self.transport.close()


def stopping_quietly(app: ASGIApp) -> ASGIApp:
    """``app``, with a request that the server cancels as it stops (past its grace period)
    answered 503 rather than logged with a traceback: stopping is no error."""

    async def quiet(scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await app(scope, receive, watched)
        except asyncio.CancelledError:
            if scope["type"] == "http" and not started:
                headers, body = refusal_parts(503, "the server stopped before it could answer")
                await send({"type": "http.response.start", "status": 503, "headers": headers})
                await send({"type": "http.response.body", "body": body})

    return quiet


def make_server(
    app: ASGIApp, *, limits: Limits = Limits(), trust_proxy: str | None = None
) -> uvicorn.Server:
    """The uvicorn server of ``app`` under ``limits``. No proxy header (``X-Forwarded-For``,
    ``X-Forwarded-Proto``) is read unless ``trust_proxy`` names the addresses (uvicorn's
    ``forwarded_allow_ips``: comma-separated addresses or networks, ``*`` any) of a proxy in
    front that sets them."""
    connection = type("Connection", (Connection,), {"limits": limits})
    config = uvicorn.Config(
        stopping_quietly(app),
        http=connection,
        ws="none",
        log_level="warning",
        access_log=False,
        lifespan="off",
        server_header=False,
        proxy_headers=trust_proxy is not None,
        forwarded_allow_ips=trust_proxy,
        timeout_keep_alive=limits.idle_seconds,
        timeout_graceful_shutdown=limits.grace_seconds,
        h11_max_incomplete_event_size=limits.header_bytes,
    )
    return uvicorn.Server(config)


__all__ = ["Connection", "Limits", "make_server", "refusal_parts", "stopping_quietly"]
