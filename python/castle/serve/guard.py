"""What every request to ``castle serve`` must pass before it reaches the game: the token,
the origin, the host, and (for the bodies of POSTs) the content type and the size; the player
it speaks for; the headers every answer carries. docs/serve.md is the contract.

:class:`Guard` is plain ASGI middleware, so that it sees every request (the page's files too)
and stamps every answer.
"""

from __future__ import annotations

import ipaddress
import json
import re
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The cookie that carries the token (set when ``/?token=T`` is opened), and the header that
#: may carry it instead (scripts, tests).
TOKEN_COOKIE = "castle_token"
TOKEN_HEADER = "x-castle-token"
#: The cookie that names the player when the server is on a network (``--host``).
PLAYER_COOKIE = "castle_player"
#: Where the guard leaves the player's id in the request's scope.
PLAYER_KEY = "castle.player"
#: The most a request's body may hold.
MAX_BODY = 16 * 1024

#: A player's id: what :func:`new_player_id` makes, and nothing that could name a path.
PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{22,64}")

SECURITY_HEADERS = [
    (b"cache-control", b"no-store"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        b"script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
        b"form-action 'self'",
    ),
]


class BadRequest(Exception):
    """A request refused before it reaches the game: its status and the one-line reason."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def refusal(status: int, reason: str, *, retry_after: int | None = None) -> JSONResponse:
    """The answer to a refused request: ``{"error": reason}`` on one line; ``retry_after``:
    the seconds to wait before asking again (``Retry-After``)."""
    headers = None if retry_after is None else {"retry-after": str(retry_after)}
    return JSONResponse({"error": " ".join(reason.split())}, status_code=status, headers=headers)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_player_id() -> str:
    return secrets.token_urlsafe(16)


def is_player_id(text: str) -> bool:
    return PLAYER_ID.fullmatch(text) is not None


def is_loopback_host(host: str) -> bool:
    """Whether ``host`` (a name or an address, no port) is this machine's loopback."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


#: A ``Host`` header (RFC 9110 7.2): an IPv6 address in brackets, or a name or IPv4 address
#: (letters, digits, dots and hyphens), then maybe a port. Nothing else: no user part, no
#: text after the brackets, no unclosed bracket.
HOST = re.compile(
    r"(?:\[(?P<ipv6>[0-9A-Fa-f:.]{2,45})\]|(?P<name>[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})))"
    r"(?::(?P<port>[0-9]{1,5}))?"
)


def host_name(host: str) -> str | None:
    """The name in a ``Host`` header, without its port (``[::1]:8765`` -> ``::1``); None
    unless the header is a host and maybe a port, exactly (``[::1]evil.com``, ``[::1``,
    ``localhost:8765@evil.com`` are not)."""
    found = HOST.fullmatch(host)
    if found is None:
        return None
    if found["ipv6"] is not None:
        try:
            ipaddress.IPv6Address(found["ipv6"])
        except ValueError:
            return None
        return found["ipv6"]
    return found["name"]


class Guard:
    """Lets through the requests that present ``token`` from this server's own origin (on
    ``loopback``, with a loopback ``Host``); answers the rest 401 or 403. Opening
    ``/?token=T`` sets the token's cookie and sends the browser to ``/``. On a network (not
    ``loopback``) it names each browser's player: ``scope["castle.player"]``, from the
    player's cookie or a new id (then set in the answer's cookie); on loopback that is None,
    the one player."""

    def __init__(self, app: ASGIApp, *, token: str, loopback: bool = True) -> None:
        self.app = app
        self.token = token
        self.loopback = loopback

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        cookies = _cookies(request.headers.get("cookie", ""))
        player: str | None = None
        new_player = False
        if not self.loopback:
            player = cookies.get(PLAYER_COOKIE)
            if player is None or not is_player_id(player):
                player, new_player = new_player_id(), True
        extra: list[tuple[bytes, bytes]] = list(SECURITY_HEADERS)

        async def stamped(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        try:
            self._check_origin(request)
            opened = self._opened_with_token(request)
            if opened is not None:
                await opened(scope, receive, stamped)
                return
            self._check_token(request, cookies)
            if request.method != "POST":  # a body only a POST reads: bounded all the same
                await _drained(request, receive)
        except BadRequest as e:
            await refusal(e.status, e.reason)(scope, receive, stamped)
            return
        if new_player:  # a browser let in for the first time
            assert player is not None
            extra.append((b"set-cookie", _cookie(PLAYER_COOKIE, player, forever=True)))
        scope[PLAYER_KEY] = player
        await self.app(scope, receive, stamped)

    def _check_origin(self, request: Request) -> None:
        host = request.headers.get("host", "")
        name = host_name(host)
        if name is None:
            raise BadRequest(400, f"not a host (and maybe a port) in the Host header: {host!r}")
        if self.loopback and not is_loopback_host(name):
            raise BadRequest(403, f"this server answers on loopback only, not for host {host!r}")
        site = request.headers.get("sec-fetch-site")
        if site in ("cross-site", "same-site"):
            raise BadRequest(403, "a request from another site is refused")
        origin = request.headers.get("origin")
        if origin is not None and origin.lower() != f"{request.url.scheme}://{host}".lower():
            raise BadRequest(403, f"a request from another origin ({origin}) is refused")

    def _opened_with_token(self, request: Request) -> Response | None:
        """The page opened with ``?token=T``: the token's cookie and a redirect to ``/``
        (a wrong token: 401). None for any other request."""
        if request.url.path != "/" or request.method not in ("GET", "HEAD"):
            return None
        given = parse_qs(request.url.query).get("token")
        if given is None:
            return None
        if not secrets.compare_digest(given[-1].encode(), self.token.encode()):
            raise BadRequest(401, "a wrong token: open the URL castle serve printed")
        response = Response(status_code=303, headers={"location": "/"})
        response.raw_headers.append((b"set-cookie", _cookie(TOKEN_COOKIE, self.token)))
        return response

    def _check_token(self, request: Request, cookies: dict[str, str]) -> None:
        given = request.headers.get(TOKEN_HEADER) or cookies.get(TOKEN_COOKIE)
        if given is None:
            raise BadRequest(
                401, "no token: open the URL castle serve printed (it ends ?token=...)"
            )
        if not secrets.compare_digest(given.encode(), self.token.encode()):
            raise BadRequest(401, "a wrong token: open the URL castle serve printed")


def _cookies(header: str) -> dict[str, str]:
    """The cookies of a ``Cookie`` header as browsers send them: ``name=value`` pairs apart
    by ``;``, each read on its own, so that another site's malformed cookie on this host
    (``ui=dark mode``, ``prefs={"k":1}``) hides none of castle's. Of a name sent twice, the
    first (a browser sends the most specific first)."""
    jar: dict[str, str] = {}
    for pair in header.split(";"):
        name, equals, value = pair.partition("=")
        name, value = name.strip(), value.strip()
        if not equals or not name:
            continue
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        jar.setdefault(name, value)
    return jar


def _cookie(name: str, value: str, *, forever: bool = False) -> bytes:
    """A Set-Cookie value: HttpOnly, SameSite=Strict, for the whole site; ``forever``: kept
    for ten years (a player's id), else for the browser's session (the token, which changes
    with every start)."""
    keep = "; Max-Age=315360000" if forever else ""
    return f"{name}={value}; Path=/; HttpOnly; SameSite=Strict{keep}".encode("latin-1")


def _check_length(request: Request) -> None:
    """413 when the body's announced length is over :data:`MAX_BODY` (or is no number)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise BadRequest(413, f"a body of at most {MAX_BODY} bytes")


async def _drained(request: Request, receive: Receive) -> None:
    """The body of a request that reads none (a GET) read and dropped, so that a body of any
    method is bounded as a POST's is: 413 past :data:`MAX_BODY`."""
    _check_length(request)
    headers = request.headers
    if "transfer-encoding" not in headers and headers.get("content-length", "0") == "0":
        return
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return  # the client went away
        size += len(message.get("body", b""))
        if size > MAX_BODY:
            raise BadRequest(413, f"a body of at most {MAX_BODY} bytes")
        if not message.get("more_body", False):
            return


async def read_json(request: Request) -> Any:
    """The JSON body of a POST: 415 unless it is ``application/json``, 413 over
    :data:`MAX_BODY`, 400 unless it is JSON, or when the client goes before its body
    came (:class:`BadRequest`)."""
    kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if kind != "application/json":
        raise BadRequest(415, f"send JSON (Content-Type: application/json), not {kind or 'none'!r}")
    _check_length(request)
    body = bytearray()
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise BadRequest(413, f"a body of at most {MAX_BODY} bytes")
    except ClientDisconnect:  # gone before its body came (or dropped by the server): no one to tell
        raise BadRequest(400, "the client went away before its body came") from None
    try:
        return json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadRequest(400, "malformed JSON: not UTF-8") from None
    except ValueError as e:
        raise BadRequest(400, f"malformed JSON: {e}") from None
    except RecursionError:
        raise BadRequest(400, "malformed JSON: nested too deep") from None


__all__ = [
    "MAX_BODY",
    "PLAYER_COOKIE",
    "PLAYER_KEY",
    "TOKEN_COOKIE",
    "TOKEN_HEADER",
    "BadRequest",
    "Guard",
    "host_name",
    "is_loopback_host",
    "is_player_id",
    "new_player_id",
    "new_token",
    "read_json",
    "refusal",
]
