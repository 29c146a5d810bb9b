"""The smoke test of an installed castle: run by the Python of an environment castle was
installed into (a wheel or an sdist), from outside the checkout.

    python tools/smoke.py [--version 0.2.0] [--no-rust]

It checks the README's main job (``castle solve --deal 1``), ``castle --version``, a solve
through the API (checked move by move by the pure-Python reference) and ``castle serve``
answering its page on a free port, then stopped. ``--no-rust`` first checks that neither
cargo nor rustc is on the PATH: the wheel must work where there is no Rust. Standard library
only; exit 0 when every check passes, else 1 with what failed.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
import urllib.request
from pathlib import Path

import castle
import castle._core
from castle import reference

#: Long enough for a cold start on a slow runner; the server prints its URL in well under it.
SERVE_START_SECONDS = 60
FETCH_SECONDS = 30


class SmokeError(Exception):
    """A check that failed: its message says which and what was seen."""


def castle_command() -> str:
    """The ``castle`` script of this environment (not one elsewhere on the PATH)."""
    found = shutil.which("castle", path=sysconfig.get_path("scripts"))
    if found is None:
        raise SmokeError(f"no castle script in {sysconfig.get_path('scripts')}")
    return found


def run(*args: str) -> str:
    """The output of ``castle ARGS``, which must exit 0."""
    done = subprocess.run(
        [castle_command(), *args], capture_output=True, text=True, timeout=300, check=False
    )
    if done.returncode != 0:
        raise SmokeError(f"castle {' '.join(args)}: exit {done.returncode}\n{done.stderr}")
    return done.stdout


def check_no_rust() -> None:
    for tool in ("cargo", "rustc"):
        found = shutil.which(tool)
        if found is not None:
            raise SmokeError(f"{tool} is on the PATH ({found}): not a machine without Rust")


def check_installed(checkout: Path) -> None:
    """castle and its native module come from this environment, not from the checkout."""
    for module in (castle, castle._core):
        where = Path(module.__file__ or "").resolve()
        if checkout in where.parents:
            raise SmokeError(f"{module.__name__} was imported from the checkout: {where}")
    print(f"ok  castle {castle.__version__} from {Path(castle.__file__ or '').parent}")


def check_version(expected: str | None) -> None:
    said = run("--version").strip()
    if expected is not None and said != f"castle {expected}":
        raise SmokeError(f"castle --version said {said!r}, not 'castle {expected}'")
    print(f"ok  castle --version: {said}")


def check_readme_job() -> None:
    said = run("solve", "--deal", "1")
    if not said.startswith("Beleaguered Castle deal 1: unsolvable\n"):
        raise SmokeError(f"castle solve --deal 1 said:\n{said}")
    print("ok  castle solve --deal 1: unsolvable, the search complete")


def check_api() -> None:
    deal = castle.Deal.from_number("beleaguered-castle", 2)
    solution = castle.solve(deal, max_seconds=60)
    if solution.status != "solved" or not solution.moves:
        raise SmokeError(f"castle.solve(deal 2): {solution.status}, {len(solution.moves)} moves")
    if not reference.replay(deal, solution.moves).is_won():
        raise SmokeError("castle.solve(deal 2): the reference's replay of its moves is not a win")
    print(f"ok  castle.solve(deal 2): solved in {len(solution.moves)} moves, replayed to a win")


def check_serve(data_dir: Path) -> None:
    """``castle serve --port 0``: its URL printed, its page fetched with the token, stopped."""
    server = subprocess.Popen(
        [castle_command(), "serve", "--port", "0", "--data-dir", str(data_dir)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = served_url(server)
        # The token's URL sets a cookie and redirects to /: the cookie jar carries it there.
        opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        with opener.open(url, timeout=FETCH_SECONDS) as answer:
            status, final, page = answer.status, answer.geturl(), answer.read().decode()
        if status != 200 or not final.endswith("/") or "<html" not in page.lower():
            raise SmokeError(f"castle serve: GET {final} answered {status}:\n{page[:500]}")
        if "main.js" not in page:
            raise SmokeError(f"castle serve: the page does not load its script:\n{page[:500]}")
        print(f"ok  castle serve: {final} answered its page ({len(page)} characters)")
    finally:
        stop(server)


def served_url(server: subprocess.Popen[str]) -> str:
    assert server.stdout is not None
    deadline = time.monotonic() + SERVE_START_SECONDS
    # readline blocks; a server that dies closes stdout and readline returns "".
    while time.monotonic() < deadline:
        line = server.stdout.readline()
        if not line:
            _, err = server.communicate(timeout=FETCH_SECONDS)
            raise SmokeError(f"castle serve exited {server.returncode} before its URL:\n{err}")
        found = re.match(r"castle serve: (http://\S+)", line)
        if found:
            return found.group(1)
    raise SmokeError(f"castle serve printed no URL in {SERVE_START_SECONDS} s")


def stop(server: subprocess.Popen[str]) -> None:
    """Stopped as Ctrl+C stops it; where there are no such signals (Windows), terminated."""
    if server.poll() is not None:
        return
    if os.name == "posix":
        server.send_signal(signal.SIGINT)
    else:
        server.terminate()
    try:
        out, err = server.communicate(timeout=FETCH_SECONDS)
    except subprocess.TimeoutExpired:
        server.kill()
        server.communicate()
        raise SmokeError("castle serve did not stop on SIGINT") from None
    if os.name == "posix" and (server.returncode != 0 or "castle serve: stopped" not in out):
        raise SmokeError(f"castle serve stopped with exit {server.returncode}:\n{out}\n{err}")
    print("ok  castle serve: stopped")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--version", dest="expected", help="the version castle must say")
    parser.add_argument(
        "--no-rust", action="store_true", help="fail if cargo or rustc is on the PATH"
    )
    args = parser.parse_args(argv)
    print(f"smoke test: Python {sys.version.split()[0]} at {sys.executable}")
    checkout = Path(__file__).resolve().parent.parent
    try:
        if args.no_rust:
            check_no_rust()
            print("ok  no cargo, no rustc on the PATH")
        check_installed(checkout)
        check_version(args.expected)
        check_readme_job()
        check_api()
        with tempfile.TemporaryDirectory(prefix="castle-smoke-") as data_dir:
            check_serve(Path(data_dir))
    except (SmokeError, subprocess.TimeoutExpired, OSError) as e:
        print(f"FAILED: {e}", file=sys.stderr)
        return 1
    print("smoke test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
