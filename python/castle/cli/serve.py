"""``castle serve``: the game in a web browser (docs/serve.md).

It listens on 127.0.0.1 unless ``--host`` says otherwise, prints the URL with a random token
that every request must present, and serves until Ctrl+C or SIGTERM (exit 0: every game is
saved after each move already). On loopback the one player is the data directory's, the same
saves ``castle play`` uses, and the server holds that directory's player lock while it runs;
on a network each browser is a player of its own, under ``<data-dir>/players/``.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import signal
import socket
import sys
import webbrowser
from collections.abc import Iterator
from types import FrameType
from typing import Any

from ..saves.store import SaveStore
from ..serve.app import create_app
from ..serve.guard import new_token
from ..serve.server import make_server
from .args import add_data_dir_option, as_the_player
from .errors import EXIT_OK, Parser, UsageError

SERVE_HELP = """\
Play in a web browser: serve the game on this machine and print its URL (open it; it carries
a random token that every request must present). The game is saved after every move, in the
same place castle play saves (a game begun in one continues in the other). Ctrl+C stops.
With --host other than 127.0.0.1 the game is served on a network: each browser is then a
player of its own (its own games and statistics, under DIR/players/).
"""

SERVE_EPILOG = """\
exit status:
  0    stopped by Ctrl+C or SIGTERM (every game is saved after each move already)
  2    bad input: flags, an address or port it cannot listen on, a data directory that
       cannot be used or that castle play or another castle serve holds (named)

examples:
  castle serve
  castle serve --open --port 0
  castle serve --host 0.0.0.0 --port 8000 --data-dir /srv/castle
"""

#: The port ``castle serve`` listens on unless told (0: any free port).
DEFAULT_PORT = 8765
#: The host it listens on unless told: this machine only.
DEFAULT_HOST = "127.0.0.1"


def parse_port(text: str) -> int:
    """A TCP port, 0 (any free one) to 65535."""
    stripped = text.strip()
    if not stripped.isdigit() or not 0 <= int(stripped) <= 65535:
        raise argparse.ArgumentTypeError(
            f"must be a port 0 to 65535 (0: any free port), not {text!r}"
        )
    return int(stripped)


def add_parser(commands: argparse._SubParsersAction[Parser], summary: str) -> Parser:
    """Add ``castle serve`` to ``commands``, ``summary`` its line in ``castle --help``."""
    serve = commands.add_parser(
        "serve",
        help=summary,
        description=SERVE_HELP,
        epilog=SERVE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    serve.add_argument(
        "--host",
        default=DEFAULT_HOST,
        metavar="HOST",
        help=f"the address to listen on (default {DEFAULT_HOST}: this machine only; "
        "0.0.0.0: every network, each browser its own player)",
    )
    serve.add_argument(
        "--port",
        type=parse_port,
        default=DEFAULT_PORT,
        metavar="N",
        help=f"the port to listen on (default {DEFAULT_PORT}; 0: any free port)",
    )
    serve.add_argument(
        "--trust-proxy",
        metavar="ADDRESSES",
        help="read X-Forwarded-For and X-Forwarded-Proto from these addresses only "
        "(comma-separated addresses or networks: a reverse proxy in front); without it "
        "no proxy header is read",
    )
    add_data_dir_option(serve)
    serve.add_argument("--open", action="store_true", help="open the URL in the web browser")
    return serve


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port``; :class:`UsageError` when it cannot be had."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        # IPPROTO_TCP named: asyncio sets TCP_NODELAY on the connections only then (else each
        # answer in two writes waits some 40 ms for the client's delayed ACK).
        sock = socket.socket(family, kind, proto or socket.IPPROTO_TCP)
    except (OSError, UnicodeError) as e:
        raise UsageError(f"--host: cannot listen on {host!r}: {_reason(e)}") from None
    try:
        if sys.platform != "win32":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as e:
        sock.close()
        hint = " (try another --port, or --port 0)" if port else ""
        raise UsageError(f"cannot listen on {host} port {port}: {_reason(e)}{hint}") from None
    return sock


def _reason(e: BaseException) -> str:
    return (e.strerror if isinstance(e, OSError) and e.strerror else str(e)) or type(e).__name__


def url_of(sock: socket.socket, host: str) -> tuple[str, bool]:
    """The URL to open (without the token) and whether the server is on loopback only."""
    address, port = sock.getsockname()[:2]
    loopback = ipaddress.ip_address(address).is_loopback
    if loopback:
        name = address
    elif address in ("0.0.0.0", "::"):
        name = socket.gethostname()  # every network: the machine's name
    else:
        name = host
    if ":" in name:
        name = f"[{name}]"
    return f"http://{name}:{port}/", loopback


def run(args: argparse.Namespace) -> int:
    return as_the_player(args.data_dir, lambda store: serve(args, store))


def serve(args: argparse.Namespace, store: SaveStore) -> int:
    sock = listen(args.host, args.port)
    url, loopback = url_of(sock, args.host)
    token = new_token()
    app = create_app(store.directory, token=token, loopback=loopback)
    server = make_server(app, trust_proxy=args.trust_proxy)
    address = f"{url}?token={token}"
    where = "" if loopback else " (on the network: each browser is its own player)"
    print(f"castle serve: {address}{where}", flush=True)
    print("open it in a web browser; Ctrl+C stops (every move is saved as it is made)", flush=True)
    if args.open:
        webbrowser.open(address)
    with _stop_signals(server):
        server.run(sockets=[sock])
    sock.close()
    # Every move is saved already; pausing saves the time played since the last one too.
    app.state.players.pause_all()
    print("castle serve: stopped", flush=True)
    return EXIT_OK


@contextlib.contextmanager
def _stop_signals(server: Any) -> Iterator[None]:
    """Ctrl+C and SIGTERM stop ``server`` (uvicorn handles them while it runs, then raises
    them again: here they end quietly, exit 0, as a server asked to stop has done its job)."""

    def stop(signum: int, frame: FrameType | None) -> None:
        server.should_exit = True  # before uvicorn runs, or after: it stops, or is done

    previous = {signum: signal.signal(signum, stop) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)


__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "add_parser", "listen", "parse_port", "run", "url_of"]
