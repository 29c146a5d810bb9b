"""The players of a network server (castle.serve.players, castle.serve.player_files; docs/serve.md
"Limits"): no files until a game is worth keeping, room for so many players and a clear
refusal past it, idle players' files expired. Over real sockets to the real server."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from castle import SaveStore
from castle.serve import players as players_module
from castle.serve.player_files import expire
from serving import Servers, player_of

DAY = 24 * 3600.0


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Servers]:
    started = Servers(tmp_path)
    yield started
    started.stop_all()


def directories(data: Path) -> set[str]:
    root = data / "players"
    return {p.name for p in root.iterdir()} if root.exists() else set()


def dealt(client: httpx.Client, deal: int = 2) -> None:
    answer = client.post("/api/new", json={"level": "medium", "deal": deal, "confirmed": True})
    assert answer.status_code == 200 and answer.json()["reply"]["done"], answer.text


def moved(client: httpx.Client) -> httpx.Response:
    """A move on Medium deal 2 (7D onto 8D)."""
    answer = client.post("/api/act", json={"action": "tap", "column": 4})
    assert answer.status_code == 200 and answer.json()["reply"]["done"], answer.text
    return answer


def test_no_files_until_a_player_has_a_game_worth_keeping(servers: Servers, tmp_path: Path) -> None:
    data = tmp_path / "data"
    running = servers.start(loopback=False, data=data)
    running.app.state.players.new_per_minute = (
        1000  # the bound per address: tests/serve/test_network.py
    )
    # 300 cookie-less POSTs, each a new player: a new deal, or settings.
    with running.client() as anyone:
        for n in range(150):
            anyone.cookies.clear()
            dealt(anyone, 2 + n % 5)
            anyone.cookies.clear()
            assert anyone.post("/api/settings", json={"sound": False}).status_code == 200
    assert directories(data) == set()
    # A browser that plays: its settings are kept in memory until its first move, then
    # written with its game.
    with running.client() as browser:
        assert browser.post("/api/settings", json={"sound": False}).status_code == 200
        assert browser.get("/api/settings").json()["settings"]["sound"] is False
        dealt(browser)
        assert browser.post("/api/act", json={"action": "pause"}).status_code == 200
        assert directories(data) == set()
        moved(browser)
        player = player_of(browser)
        assert directories(data) == {player}
        store = SaveStore(data / "players" / player)
        assert store.settings().sound is False
        assert json.loads(store.game_path.read_text(encoding="utf-8"))["moves"] == 1
        # Its game continues after a restart of the server, as any saved game.
    running.stop()
    again = servers.start(loopback=False, data=data)
    with again.client() as browser:
        browser.cookies.set("castle_player", player)
        resume = browser.get("/api/levels").json()["continue"]
        assert resume is not None and resume["moves"] == 1
        assert browser.get("/api/settings").json()["settings"]["sound"] is False


def test_new_players_past_the_servers_room_are_refused(
    servers: Servers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    running = servers.start(loopback=False, data=data)
    players = running.app.state.players
    players.max_kept, players.max_players = 2, 4
    first, second, third = running.client(), running.client(), running.client()
    for browser in (first, second, third):
        dealt(browser)
    moved(first)
    moved(second)
    assert len(directories(data)) == 2
    # The third was in when the room filled: it plays on, unsaved, and is told so once.
    notices = moved(third).json()["notices"]
    assert len(notices) == 1 and "not saved" in notices[0]
    assert moved(third).json()["notices"] == []
    assert len(directories(data)) == 2
    # A new player is refused in one line; those the server has are served.
    with running.client() as newcomer:
        refused = newcomer.get("/api/levels")
        assert refused.status_code == 503, refused.text
        assert "has no room for a new one" in refused.json()["error"]
    assert first.get("/api/view").json()["view"]["moves"] == 1
    # Players in memory at once: a new one past the room is refused while none can go...
    players.max_kept = 100
    fourth = running.client()
    dealt(fourth)
    moved(fourth)  # a deal alone holds no room: a game with a move does, while not idle
    with running.client() as fifth:
        refused = fifth.post("/api/new", json={"level": "medium", "deal": 2})
        assert refused.status_code == 503 and "players at once" in refused.json()["error"]
    # ...until one is idle long enough to go (its game saved): then there is room.
    monkeypatch.setattr(players_module, "IDLE_SECONDS", 0.0)
    with running.client() as sixth:
        dealt(sixth)
        assert sixth.get("/api/view").json()["view"] is not None
    for browser in (first, second, third, fourth):
        browser.close()


def test_a_visitor_holding_nothing_takes_no_room(servers: Servers, tmp_path: Path) -> None:
    running = servers.start(loopback=False, data=tmp_path / "data")
    players = running.app.state.players
    players.max_players = 2
    with running.client() as player:
        dealt(player)
        for _ in range(20):  # each a new player that only looks: let go for the next
            with running.client() as visitor:
                assert visitor.get("/api/levels").status_code == 200
        assert player.get("/api/view").json()["view"] is not None


def test_idle_players_files_expire(
    servers: Servers, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    running = servers.start(loopback=False, data=data)
    ids = []
    for _ in range(3):
        with running.client() as browser:
            dealt(browser)
            moved(browser)
            ids.append(player_of(browser))
    running.stop()
    old, recent, held = (data / "players" / i for i in ids)
    long_ago = time.time() - 91 * DAY  # docs/serve.md: 90 days
    for directory in (old, held):
        os.utime(directory, (long_ago, long_ago))
    # A player's directory another program holds (castle play on it) is never taken.
    holding = threading.Event()
    done = threading.Event()

    def play_there() -> None:
        with SaveStore(held).player_lock():
            holding.set()
            done.wait(30)

    terminal = threading.Thread(target=play_there)
    terminal.start()
    assert holding.wait(10)
    try:
        # At the start: the idle player's files go, the others stay.
        servers.start(loopback=False, data=data)
        assert directories(data) == {recent.name, held.name}
    finally:
        done.set()
        terminal.join()
    # While it serves, once in a while (here: at each answer), after an answer. The test
    # waits for that pass to end: one still going would take a directory aged after it.
    monkeypatch.setattr(players_module, "EXPIRY_EVERY", 0.0)
    passed = threading.Event()

    def expire_then_say(*args: Any, **kwargs: Any) -> int:
        gone = expire(*args, **kwargs)
        passed.set()
        return gone

    monkeypatch.setattr(players_module, "expire", expire_then_say)
    os.utime(held, (long_ago, long_ago))
    running = servers.running[-1]
    with running.client() as browser:
        assert browser.get("/api/levels").status_code == 200
    assert passed.wait(10)
    assert directories(data) == {recent.name}
    # A player that comes back starts its idle time again (its directory touched).
    os.utime(recent, (long_ago, long_ago))
    with running.client() as browser:
        browser.cookies.set("castle_player", recent.name)
        assert browser.get("/api/levels").status_code == 200
    assert time.time() - recent.stat().st_mtime < DAY
