"""The web app of ``castle serve`` (Starlette): the JSON endpoints of docs/serve.md over each
player's :class:`castle.Table`, the guide, and the page's own files.

Every request passes the :class:`~castle.serve.guard.Guard` first (token, origin, host; the
player). A player's game is touched only in a worker thread, under that player's lock: one
request of a player at a time, and the solver (a hint, a new Easy deal) never holds up the
event loop; what may search takes its turn at the solver first
(:class:`~castle.serve.solver_queue.SolverQueue`), so that a flood of hints holds up no one
else. A hint's search is the one thing done outside the lock (it only reads the game),
so the player may move while it thinks (:meth:`~castle.serve.players.Player.hint`). Bad input
is a 4xx with ``{"error": "..."}`` and changes nothing; an unexpected error is a 500 with no
traceback (the server's log has it).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import random
import re
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..actions import ActionError, Advise, NewDeal
from ..game.guide import players_rules, rules_text
from ..game.levels import LEVELS
from ..game.playclock import Clock
from ..saves.store import StoreLockError
from ..table.table import Reply, Table
from .guard import PLAYER_KEY, BadRequest, Guard, read_json, refusal
from .players import Busy, Full, NoGame, Player, Players
from .solver_queue import SolverQueue

#: The page's files, in the package.
PAGE = Path(__file__).parent / "page"

#: The content type of each kind of file the page may have (text in UTF-8).
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
}

#: A refusal that says "later" (429, 503) is answered after this long, so that a client
#: asking again at once, on many connections, cannot keep the server busy refusing it.
LATER_SECONDS = 1.0

#: How often a hint's request looks whether its client has gone away.
GONE_POLL_SECONDS = 0.1

#: What a refusal that says "later" (429, 503) tells the client to wait (``Retry-After``).
RETRY_AFTER_SECONDS = 2

#: A segment of a page file's path: no dot first (no ``..``, no hidden files).
SEGMENT = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*")


def create_app(
    data_dir: str | Path | None,
    *,
    token: str,
    loopback: bool = True,
    clock: Clock = time.monotonic,
    rng: random.Random | None = None,
) -> Starlette:
    """The app: the players' saves in ``data_dir`` (one player on ``loopback``, else one per
    browser under ``players/``), every request to present ``token``. ``app.state.players`` is
    its :class:`~castle.serve.players.Players`."""
    players = Players(data_dir, shared=loopback, clock=clock, rng=rng)
    service = Service(players, SolverQueue())
    routes = [
        *start_routes(service),
        *table_routes(service),
        Route("/api/guide", guide, methods=["GET"]),
        *settings_routes(service),
    ]
    routes += page_routes({route.path for route in routes})
    app = Starlette(
        routes=routes,
        middleware=[Middleware(Guard, token=token, loopback=loopback)],
        exception_handlers={HTTPException: http_error, Exception: server_error},
    )
    #: Who plays here (``castle serve`` pauses their games as it stops).
    app.state.players = players
    return app


class Service:
    """What every request of a player goes through: its player found (or made), its turn at
    the solver when it may search, its work in a worker thread under the player's lock, and
    its answer as JSON or its refusal."""

    def __init__(self, players: Players, solver: SolverQueue) -> None:
        self.players = players
        self.solver = solver

    async def served(
        self,
        request: Request,
        work: Callable[[Player], Any],
        *,
        locked: bool = True,
        searches: bool = False,
    ) -> Response:
        """``work`` done for the request's player in a worker thread, under its lock (unless
        not ``locked``: then ``work`` takes it itself), in its turn at the solver if it
        ``searches``; its answer as JSON, or the request's refusal."""
        players = self.players
        try:
            player = players.get(request.scope.get(PLAYER_KEY), client_of(request))
            with player.in_flight():
                async with contextlib.AsyncExitStack() as turn:
                    if searches:  # waits here, on the event loop, not in a worker thread
                        client = client_of(request)
                        await turn.enter_async_context(self.solver.turn(player, client))
                    if locked:
                        answer = await run_in_threadpool(player.served, lambda: work(player))
                    else:
                        answer = await run_in_threadpool(work, player)
        except Full as e:
            await asyncio.sleep(LATER_SECONDS)
            return refusal(503, str(e), retry_after=RETRY_AFTER_SECONDS)
        except Busy as e:
            await asyncio.sleep(LATER_SECONDS)
            return refusal(429, str(e), retry_after=RETRY_AFTER_SECONDS)
        except BadRequest as e:
            return refusal(e.status, e.reason)
        except ActionError as e:
            return refusal(400, str(e))
        except NoGame as e:
            return refusal(409, str(e))
        except StoreLockError as e:  # castle play holds the player's directory
            return refusal(409, str(e))
        # Once in a while, after an answer, the files of players long gone are removed.
        later = BackgroundTask(players.expire_idle) if players.expiry_due() else None
        return JSONResponse(answer, background=later)


def with_body(
    handler: Callable[[Request, Any], Awaitable[Response]],
) -> Callable[[Request], Awaitable[Response]]:
    """``handler``, given the request's JSON body; the request's refusal when it has none
    that reads (too large, too slow, not JSON)."""

    async def read_first(request: Request) -> Response:
        try:
            data = await read_json(request)
        except BadRequest as e:
            return refusal(e.status, e.reason)
        return await handler(request, data)

    return read_first


def start_routes(service: Service) -> list[Route]:
    """Where a game starts: the levels (with the player's statistics), a new deal, the
    unfinished game continued."""
    served = service.served

    async def levels(request: Request) -> Response:
        return await served(request, lambda player: player.levels())

    @with_body
    async def new(request: Request, data: Any) -> Response:
        return await served(
            request, lambda player: played(player, *player.new_deal(data)), searches=True
        )

    @with_body
    async def resume(request: Request, data: Any) -> Response:
        if data != {}:
            return refusal(400, "continue takes an empty object: {}")
        return await served(request, lambda player: played(player, *player.resume()))

    return [
        Route("/api/levels", levels, methods=["GET"]),
        Route("/api/new", new, methods=["POST"]),
        Route("/api/continue", resume, methods=["POST"]),
    ]


def table_routes(service: Service) -> list[Route]:
    """Play at the table: the view, an action (a hint searched outside the player's lock,
    stopped if its client goes away), what a press lifts."""
    served = service.served

    async def view(request: Request) -> Response:
        def shown(player: Player) -> dict[str, Any]:
            return {"view": None if player.table is None else player.table.view().to_json()}

        return await served(request, shown)

    @with_body
    async def act(request: Request, data: Any) -> Response:
        if isinstance(data, dict) and data.get("action") == Advise.NAME:
            gone = threading.Event()
            return await until_gone(
                request,
                served(
                    request,
                    lambda player: player.hint(data, functools.partial(played, player), gone),
                    locked=False,
                    searches=True,
                ),
                gone,
            )
        return await served(
            request,
            lambda player: played(player, *player.act(data)),
            searches=isinstance(data, dict) and data.get("action") == NewDeal.NAME,
        )

    async def lift(request: Request) -> Response:
        params = request.query_params
        if set(params) != {"src", "count"} or not all(
            re.fullmatch(r"[0-9]{1,3}", params[name]) for name in ("src", "count")
        ):
            return refusal(400, "lift takes ?src=COLUMN&count=CARDS, whole numbers")
        src, count = int(params["src"]), int(params["count"])
        return await served(
            request, lambda player: {"lift": player.at_table().lift(src, count).to_json()}
        )

    return [
        Route("/api/view", view, methods=["GET"]),
        Route("/api/act", act, methods=["POST"]),
        Route("/api/lift", lift, methods=["GET"]),
    ]


async def guide(request: Request) -> Response:
    """A level's guide as HTML (no player: the same for everyone)."""
    params = request.query_params
    if set(params) != {"level"} or params["level"] not in LEVELS:
        return refusal(400, f"guide takes ?level=LEVEL, one of {', '.join(LEVELS)}")
    return JSONResponse({"html": guide_html(params["level"])})


def settings_routes(service: Service) -> list[Route]:
    """The player's settings: read (GET) and changed (POST)."""
    served = service.served

    @with_body
    async def change_settings(request: Request, data: Any) -> Response:
        return await served(
            request, lambda player: {"settings": player.change_settings(data).to_json()}
        )

    async def settings(request: Request) -> Response:
        if request.method == "GET":
            return await served(request, lambda player: {"settings": player.settings().to_json()})
        return await change_settings(request)

    return [Route("/api/settings", settings, methods=["GET", "POST"])]


def page_routes(api: set[str]) -> list[Route]:
    """The page's files, after the endpoints (``api``: their paths, which the page's routes
    answer with 405, the endpoint asked with the wrong method)."""

    async def page(request: Request) -> Response:
        path = request.path_params.get("path", "")
        if f"/{path}" in api:
            raise HTTPException(405)
        return page_file(path)

    return [
        Route("/", page, methods=["GET"]),
        Route("/{path:path}", page, methods=["GET"]),
    ]


async def until_gone(
    request: Request, work: Awaitable[Response], gone: threading.Event
) -> Response:
    """``work``'s answer; if its client goes away first, ``gone`` is set (a search stops) and a
    wait for the solver's turn ends, so that no one's CPU goes to an answer no one reads."""
    task = asyncio.ensure_future(work)
    while True:
        done, _ = await asyncio.wait({task}, timeout=GONE_POLL_SECONDS)
        if done:
            return task.result()
        if await request.is_disconnected():
            gone.set()
            task.cancel()  # waiting for a turn: it ends; searching: the search stops first
            with contextlib.suppress(asyncio.CancelledError):
                return await task
            return refusal(499, "the client went away")


def client_of(request: Request) -> str:
    """Who asks, as the solver's turns and the bounds on new players count them: the address
    the request came from (a proxy's client only where ``--trust-proxy`` says so)."""
    return request.client.host if request.client is not None else ""


def played(player: Player, reply: Reply, table: Table | None) -> dict[str, Any]:
    """The answer to a request that may change the game: the reply, the view after it, and
    what went wrong with the player's files meanwhile."""
    return {
        "reply": reply.to_json(),
        "view": None if table is None else table.view().to_json(),
        "notices": player.notices(),
    }


def page_file(path: str) -> Response:
    """The page's file at ``path`` (``""``: index.html); 404 for anything else, a path the
    file system cannot look up (a name too long for it) included."""
    segments = path.split("/") if path else ["index.html"]
    if segments[0] == "api" or not all(SEGMENT.fullmatch(s) for s in segments):
        raise HTTPException(404)
    file = PAGE.joinpath(*segments)
    kind = CONTENT_TYPES.get(file.suffix.lower())
    if kind is None:
        raise HTTPException(404)
    try:
        if not file.is_file():
            raise HTTPException(404)
        return Response(file.read_bytes(), media_type=kind)
    except OSError:
        raise HTTPException(404) from None


@functools.lru_cache(maxsize=len(LEVELS))
def guide_html(level_id: str) -> str:
    """The rules a player of ``level_id`` reads in the guide
    (:func:`castle.game.guide.players_rules`, from docs/rules.md shipped as ``castle/rules.md``) as
    HTML, raw HTML in it escaped. The page puts its title and its own keys before it."""
    text = rules_text()
    if text is None:
        return "<p>The rules text (docs/rules.md) is missing from this installation.</p>"
    rules = players_rules(level_id, text, terminal=False)
    html: str = MarkdownIt("commonmark", {"html": False}).enable("table").render(rules)
    return html


async def http_error(request: Request, exc: Exception) -> Response:
    """404 and 405 as the other refusals: one line of JSON."""
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    if status == 404:
        reason = f"nothing at {request.url.path}"
    elif status == 405:
        reason = f"{request.url.path} does not take {request.method} (see docs/serve.md)"
    else:
        reason = exc.detail if isinstance(exc, HTTPException) else "refused"
    return refusal(status, reason)


async def server_error(request: Request, exc: Exception) -> Response:
    """An error of castle's, never the client's: no traceback to the client (the server's
    log has it)."""
    return refusal(500, "internal error (see the server's log)")


__all__ = ["CONTENT_TYPES", "PAGE", "create_app", "guide_html", "page_file"]
