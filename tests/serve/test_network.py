"""castle serve on a network (docs/serve.md, "Limits" and "On a network"): one client cannot
starve, evict or overwrite other players. Each test speaks to the real server over real
sockets, from several source addresses of 127.0.0.0/8 where it is about addresses."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import castle.game.played
import httpx
import pytest
from castle import SaveStore, SpiderDeal, SpiderGame, Table
from castle.actions import Advise, PlayHint
from castle.serve.guard import PLAYER_COOKIE
from castle.serve.player_files import idle_directories, remove_if_idle
from castle.serve.players import EXPIRE_SECONDS, NEW_PLAYERS_PER_MINUTE, Busy
from castle.serve.solver_queue import SolverQueue
from playing import castle_play_process
from serving import TOKEN, Running, Servers, player_of


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Servers]:
    started = Servers(tmp_path)
    yield started
    started.stop_all()


def raw(running: Running, head: str, body: bytes = b"", source: str = "127.0.0.1") -> bytes:
    """Send ``head`` (request line and headers, ``\\n`` apart) and ``body`` on a connection
    of its own from ``source``; everything the server answers before it closes."""
    lines = [*head.strip().split("\n"), "Host: 127.0.0.1", "Connection: close"]
    data = ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8") + body
    with socket.create_connection(
        ("127.0.0.1", running.port), timeout=30, source_address=(source, 0)
    ) as sock:
        # Refused before the whole body went: its answer is still there to read.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(data)
        got = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            got += chunk
    return got


def parsed(answer: bytes) -> tuple[int, dict[str, str], Any]:
    """The status, headers (lower case; Set-Cookie values joined by newlines) and JSON body."""
    head, _, rest = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers: dict[str, str] = {}
    for line in lines:
        name, _, value = line.partition(":")
        key = name.strip().lower()
        headers[key] = (headers[key] + "\n" if key in headers else "") + value.strip()
    length = int(headers.get("content-length", len(rest)))
    body = json.loads(rest[:length]) if rest[:length].strip() else None
    return int(status_line.split()[1]), headers, body


# --- cookies ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "other",
    ['prefs={"k":1}', "ui=dark mode", "lang=é", "a=b c", "flag", 'q="x;y'],
)
def test_another_sites_cookie_hides_no_token(servers: Servers, other: str) -> None:
    # Another page on this host set a cookie Python's SimpleCookie cannot read: castle's
    # token (and, on a network, its player) is read all the same, before it and after it.
    running = servers.start()
    for cookie in (f"{other}; castle_token={TOKEN}", f"castle_token={TOKEN}; {other}"):
        status, _, body = parsed(raw(running, f"GET /api/levels HTTP/1.1\nCookie: {cookie}"))
        assert status == 200, (cookie, body)
        assert [level["id"] for level in body["levels"]][:2] == ["easy", "medium"]


def test_another_sites_cookie_hides_no_player(servers: Servers) -> None:
    running = servers.start(loopback=False)
    first = raw(
        running,
        "POST /api/settings HTTP/1.1\nX-Castle-Token: "
        + TOKEN
        + "\nContent-Type: application/json\nContent-Length: 16",
        b'{"sound": false}',
    )
    status, headers, _ = parsed(first)
    assert status == 200
    player = headers["set-cookie"].split(";")[0].split("=", 1)[1]
    cookie = f'prefs={{"k":1}}; {PLAYER_COOKIE}={player}; ui=dark mode'
    status, headers, body = parsed(
        raw(running, f"GET /api/settings HTTP/1.1\nX-Castle-Token: {TOKEN}\nCookie: {cookie}")
    )
    assert status == 200 and "set-cookie" not in headers  # the same player, not a new one
    assert body["settings"]["sound"] is False


# --- bodies -------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT", "OPTIONS"])
def test_a_body_over_the_limit_is_refused_whatever_the_method(
    servers: Servers, method: str
) -> None:
    running = servers.start()
    big = b"x" * (20 * 1024 * 1024)
    head = f"{method} /api/levels HTTP/1.1\nX-Castle-Token: {TOKEN}\nContent-Length: {len(big)}"
    status, _, body = parsed(raw(running, head, big))
    assert status == 413 and "at most 16384 bytes" in body["error"]
    # Sent in chunks, with no length told: read no further than the limit.
    chunks = b"".join(b"%x\r\n%s\r\n" % (65536, b"y" * 65536) for _ in range(8)) + b"0\r\n\r\n"
    head = f"GET /api/view HTTP/1.1\nX-Castle-Token: {TOKEN}\nTransfer-Encoding: chunked"
    status, _, body = parsed(raw(running, head, chunks))
    assert status == 413 and "at most 16384 bytes" in body["error"]
    # A small body on a GET is read and let be.
    head = f"GET /api/levels HTTP/1.1\nX-Castle-Token: {TOKEN}\nContent-Length: 5"
    assert parsed(raw(running, head, b"hello"))[0] == 200


# --- the player's lock ----------------------------------------------------------------------


def wait_for_line(process: subprocess.Popen[str], text: str) -> None:
    """Read ``process``'s output until a line holds ``text``."""
    assert process.stdout is not None
    for line in process.stdout:
        if text in line:
            return
    pytest.fail(
        f"castle play ended before saying {text!r}: {process.stderr and process.stderr.read()}"
    )


def test_a_directory_castle_play_takes_over_is_neither_overwritten_nor_shown_stale(
    servers: Servers, tmp_path: Path
) -> None:
    """The browser deals (nothing on disk yet); castle play takes the player's directory and
    plays a Hard deal there. The browser's move is refused (409) and changes nothing; after
    castle play quits, the browser's next action is refused too and its stale game gone: it
    continues the game castle play saved, never overwriting it."""
    data = tmp_path / "data"
    running = servers.start(loopback=False, data=data)
    with running.client() as browser:
        answer = browser.post("/api/new", json={"level": "medium", "deal": 2, "confirmed": True})
        assert answer.status_code == 200
        player = data / "players" / player_of(browser)
        assert not player.exists()
        terminal = castle_play_process(player, "--level", "hard", "--deal", "5")
        try:
            assert terminal.stdin is not None
            terminal.stdin.write("1\n")  # a tap: the Hard game has a move, and is saved
            terminal.stdin.flush()
            wait_for_line(terminal, "moves 1 ")
            saved = (player / "game.json").read_bytes()
            refused = browser.post("/api/act", json={"action": "tap", "column": 4})
            assert refused.status_code == 409, refused.text
            assert "another castle player" in refused.json()["error"]
            assert (player / "game.json").read_bytes() == saved
        finally:
            assert terminal.stdin is not None
            terminal.stdin.write("q\n")
            terminal.stdin.close()
            assert terminal.wait(60) == 0
        saved = (player / "game.json").read_bytes()
        assert json.loads(saved)["level"] == "hard"
        again = browser.post("/api/act", json={"action": "tap", "column": 4})
        assert again.status_code == 409, again.text
        assert browser.get("/api/view").json()["view"] is None  # the stale game is gone
        assert (player / "game.json").read_bytes() == saved
        shown = browser.post("/api/continue", json={}).json()["view"]
        assert (shown["level"], shown["deal"], shown["moves"]) == ("hard", 5, 1)


# --- expiry -------------------------------------------------------------------------------


def test_a_player_who_comes_back_during_the_sweep_keeps_its_files(
    servers: Servers, tmp_path: Path
) -> None:
    """The sweep finds two directories idle 91 days; before it removes them, one player comes
    back (a real request). Read again under the player's lock, that one is kept, the other
    goes."""
    data = tmp_path / "data"
    first = servers.start(loopback=False, data=data)
    ids = []
    for _ in range(2):
        with first.client() as browser:
            browser.post("/api/new", json={"level": "medium", "deal": 2, "confirmed": True})
            assert browser.post("/api/act", json={"action": "tap", "column": 4}).status_code == 200
            ids.append(player_of(browser))
    first.stop()
    back, gone = (data / "players" / i for i in ids)
    long_ago = time.time() - 91 * 24 * 3600
    for directory in (back, gone):
        os.utime(directory, (long_ago, long_ago))
    running = servers.start(loopback=False, data=data)  # its start's sweep took them, so:
    for directory in (back, gone):
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "game.json").write_text("{}")
        (directory / "player.lock").write_text("")  # as castle left it
        os.utime(directory, (long_ago, long_ago))
    players = running.app.state.players
    idle = idle_directories(
        data / "players", idle_seconds=EXPIRE_SECONDS, playing=players.playing()
    )
    assert set(idle) == {back, gone}
    with running.client() as browser:  # the player comes back between the look and the removal
        browser.cookies.set(PLAYER_COOKIE, back.name)
        assert browser.get("/api/levels").status_code == 200
    removed = [
        remove_if_idle(d, idle_seconds=EXPIRE_SECONDS, playing=players.playing) for d in idle
    ]
    assert removed == [d == gone for d in idle]
    assert back.is_dir() and not gone.exists()


# --- the solver's turns -------------------------------------------------------------------


def slow_flood_hints(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Each hint of the flood's deal (Medium 3) searches ``seconds`` longer, as a hard deal's
    would; the victim's (deal 2) as it is."""
    advice = Table.advice

    def slow(table: Table, peek: bool = False, cancel: Any = None) -> Any:
        if table.game.deal.number == 3:
            time.sleep(seconds)
        return advice(table, peek, cancel)

    monkeypatch.setattr(Table, "advice", slow)


def test_fresh_ids_from_other_addresses_do_not_starve_a_returning_players_hints(
    servers: Servers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four addresses loop "a new id, a new deal, a hint with it" (each search 0.3 s) for 10 s;
    a player with its own id on another address asks a hint every half second meanwhile.
    Turns are fair between addresses: its hints wait for one search at most, never for the
    flood; and a refusal says when to come back."""
    slow_flood_hints(monkeypatch, 0.3)
    running = servers.start(loopback=False)
    victim = running.client("127.0.0.2", timeout=30)
    assert victim.post("/api/new", json={"level": "medium", "deal": 2}).status_code == 200
    stop = time.monotonic() + 10
    refusals: list[httpx.Response] = []

    def flood(address: str) -> None:
        with running.client(address, timeout=30) as attacker:
            while time.monotonic() < stop:
                attacker.cookies.clear()  # a fresh id each time
                new = attacker.post("/api/new", json={"level": "medium", "deal": 3})
                if new.status_code != 200:
                    refusals.append(new)
                    continue
                hint = attacker.post("/api/act", json={"action": "hint"})
                if hint.status_code != 200:
                    refusals.append(hint)

    loops = [threading.Thread(target=flood, args=(f"127.0.0.{21 + n}",)) for n in range(4)]
    for loop in loops:
        loop.start()
    waits = []
    try:
        time.sleep(1)  # the flood under way
        while time.monotonic() < stop - 1:
            began = time.monotonic()
            answer = victim.post("/api/act", json={"action": "hint"})
            waits.append(time.monotonic() - began)
            assert answer.status_code == 200 and answer.json()["reply"]["done"], answer.text
            assert victim.post("/api/act", json={"action": "cancel"}).status_code == 200
            time.sleep(0.5)
    finally:
        for loop in loops:
            loop.join(60)
        victim.close()
    # A search or two of 0.3 s ahead (slower on a loaded machine), never the whole flood:
    # before turns were fair between addresses, the victim waited as long as the flood ran.
    assert len(waits) >= 3 and max(waits) < 5.0, waits
    for refused in refusals:  # the flood's own: past its bounds, told when to come back
        assert refused.status_code in (429, 503) and int(refused.headers["retry-after"]) > 0


def test_a_wait_for_the_solver_ends_with_a_refusal_never_a_hang() -> None:
    async def main() -> None:
        queue = SolverQueue(threads=1, wait_seconds=0.2)
        holding = asyncio.Event()
        release = asyncio.Event()

        async def hold() -> None:
            async with queue.turn("a", "10.0.0.1"):
                holding.set()
                await release.wait()

        first = asyncio.create_task(hold())
        await holding.wait()
        began = time.monotonic()
        with pytest.raises(Busy, match=r"no turn for you in 0\.2 s"):
            async with queue.turn("b", "10.0.0.2"):
                pass
        assert time.monotonic() - began < 2
        release.set()
        await first
        async with queue.turn("b", "10.0.0.2"):  # free again: at once
            pass

    asyncio.run(main())


def test_one_address_cannot_fill_the_servers_room_for_players(servers: Servers) -> None:
    """An address past its new players of a minute is refused (429, Retry-After); the room
    (here 40 players) filled by two flooding addresses' deals is made again from theirs, so
    new browsers from ten other addresses are let in, and a player with a move keeps its
    game."""
    running = servers.start(loopback=False)
    players = running.app.state.players
    players.max_players = 40
    with running.client("127.0.0.2") as player:
        assert player.post("/api/new", json={"level": "medium", "deal": 2}).status_code == 200
        assert player.post("/api/act", json={"action": "tap", "column": 4}).status_code == 200
        codes: dict[str, list[int]] = {}
        for address in ("127.0.0.31", "127.0.0.32"):
            with running.client(address) as flood:
                for _ in range(NEW_PLAYERS_PER_MINUTE + 5):
                    flood.cookies.clear()
                    answer = flood.post("/api/new", json={"level": "medium", "deal": 3})
                    codes.setdefault(address, []).append(answer.status_code)
                    if answer.status_code == 429:
                        assert int(answer.headers["retry-after"]) > 0
                        assert "new players from your address" in answer.json()["error"]
        for address, got in codes.items():
            assert got.count(200) == NEW_PLAYERS_PER_MINUTE and got.count(429) == 5, address
        for n in range(10):
            with running.client(f"127.0.0.{50 + n}") as newcomer:
                answer = newcomer.post("/api/new", json={"level": "medium", "deal": 2})
                assert answer.status_code == 200, answer.text
                assert newcomer.get("/api/view").json()["view"] is not None
        assert player.get("/api/view").json()["view"]["moves"] == 1


# --- searches no one waits for -----------------------------------------------------------


def test_a_hint_whose_client_hangs_up_stops_searching(
    servers: Servers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beleaguered Castle deal 11287 (a search of more than 8 s), its hint allowed 30 s: the
    client sends the hint and closes its socket at once. The search stops within a couple of
    seconds (it would have searched 30 s), and the next player's hint is answered."""
    monkeypatch.setattr(castle.game.played, "HINT_SECONDS", 30.0)
    searches: list[tuple[float, Any]] = []
    advice = Table.advice

    def timed(table: Table, peek: bool = False, cancel: Any = None) -> Any:
        began = time.monotonic()
        answer = advice(table, peek, cancel)
        searches.append((time.monotonic() - began, answer))
        return answer

    monkeypatch.setattr(Table, "advice", timed)
    running = servers.start(loopback=False)
    with running.client("127.0.0.3") as leaver:
        new = leaver.post("/api/new", json={"level": "medium", "deal": 11287})
        assert new.status_code == 200
        cookie = f"{PLAYER_COOKIE}={player_of(leaver)}"
    body = b'{"action": "hint"}'
    head = (
        f"POST /api/act HTTP/1.1\nHost: 127.0.0.1\nX-Castle-Token: {TOKEN}\nCookie: {cookie}\n"
        f"Content-Type: application/json\nContent-Length: {len(body)}"
    )
    for _ in range(3):
        with socket.create_connection(
            ("127.0.0.1", running.port), timeout=10, source_address=("127.0.0.3", 0)
        ) as sock:
            sock.sendall(("\r\n".join(head.split("\n")) + "\r\n\r\n").encode() + body)
        deadline = time.monotonic() + 10
        while len(searches) < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert searches, "the search went on past 10 s after its client went"
        seconds, (_, hint) = searches.pop()
        assert seconds < 5 and hint.move is None and hint.status == "unknown", seconds
    with running.client("127.0.0.4") as other:
        assert other.post("/api/new", json={"level": "medium", "deal": 2}).status_code == 200
        began = time.monotonic()
        assert other.post("/api/act", json={"action": "hint"}).json()["reply"]["done"]
        assert time.monotonic() - began < 5


@pytest.mark.slow
def test_a_fair_spider_hint_whose_client_hangs_up_stops_searching(
    servers: Servers, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Spider (4 suits) deal 4 at move 122, where the fair hint thinks for seconds (its
    solver plays sampled worlds): the client hangs up at once, and the search stops."""
    game = SpiderGame(SpiderDeal.from_number("spider", 4), level_id="spider")
    table = Table(game)
    while game.moves < 122:
        table.act(Advise())
        assert table.act(PlayHint()).done
    data = tmp_path / "saved"
    SaveStore(data).save_game(game)
    searches: list[float] = []
    advice = Table.advice

    def timed(table: Table, peek: bool = False, cancel: Any = None) -> Any:
        began = time.monotonic()
        answer = advice(table, peek, cancel)
        searches.append(time.monotonic() - began)
        return answer

    monkeypatch.setattr(Table, "advice", timed)
    running = servers.start(data=data)
    with running.client() as browser:
        assert browser.post("/api/continue", json={}).status_code == 200
    body = b'{"action": "hint"}'
    with socket.create_connection(("127.0.0.1", running.port), timeout=10) as sock:
        sock.sendall(post_head("/api/act", len(body)).encode() + body)
    deadline = time.monotonic() + 10
    while not searches and time.monotonic() < deadline:
        time.sleep(0.05)
    assert searches and searches[0] < 2.0, searches


def post_head(path: str, length: int) -> str:
    """A POST of JSON to ``path`` with the token, its head as bytes go on the wire."""
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Castle-Token: {TOKEN}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
    )
