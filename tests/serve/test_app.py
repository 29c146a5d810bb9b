"""castle serve (docs/serve.md): the HTTP contract through Starlette's TestClient, and the real
command once, as a subprocess. The page itself is tested in a browser (tests/serve/test_page.py)."""

from __future__ import annotations

import io
import json
import math
import os
import random
import re
import runpy
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from castle import Deal, Game, SaveStore, Table
from castle.cli import main
from castle.serve.app import PAGE, create_app
from castle.serve.guard import MAX_BODY, PLAYER_COOKIE, TOKEN_COOKIE
from castle.serve.players import LATE_HINT, MAX_IN_FLIGHT, Player
from paths import ROOT
from PIL import Image, ImageChops
from playing import castle_play_process
from processes import finish

with warnings.catch_warnings():
    # Newer Starlette would rather have httpx2 than httpx; httpx is the well-known one.
    warnings.filterwarnings("ignore", "Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

TOKEN = "the-token-of-these-tests"
HERE = "http://127.0.0.1:8765"


def client(data_dir: Path, *, token: str | None = TOKEN, **app: Any) -> TestClient:
    """A browser (or a script) on a server over ``data_dir``: with ``token`` in its header."""
    headers = {"X-Castle-Token": token} if token is not None else {}
    base = HERE if app.get("loopback", True) else "http://192.0.2.7:8765"
    made = create_app(data_dir, token=TOKEN, rng=random.Random(7), **app)
    return TestClient(made, base_url=base, headers=headers)


def post(c: httpx.Client, path: str, data: Any) -> dict[str, Any]:
    """A POST that must succeed; its JSON."""
    response = c.post(path, json=data)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def act(c: TestClient, **action: Any) -> dict[str, Any]:
    return post(c, "/api/act", action)


def view(c: TestClient) -> dict[str, Any] | None:
    response = c.get("/api/view")
    assert response.status_code == 200, response.text
    shown: dict[str, Any] | None = response.json()["view"]
    return shown


def deal(c: TestClient, level: str, number: int) -> dict[str, Any]:
    answer = post(c, "/api/new", {"level": level, "deal": number})
    assert answer["reply"]["done"], answer
    shown: dict[str, Any] = answer["view"]
    return shown


def refused(response: httpx.Response, status: int, said: str = "") -> None:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert said in error and "\n" not in error and "Traceback" not in error


def same_game(c: TestClient) -> Any:
    """What must not change when a request is refused: the view (the clock and the message
    aside)."""
    shown = view(c)
    assert shown is not None
    kept = {k: v for k, v in shown.items()}
    for changing in ("seconds", "clock", "status", "score", "message"):
        del kept[changing]
    return kept


def hinted(c: TestClient) -> dict[str, Any]:
    """The hint's move played (the answer to it)."""
    hint = act(c, action="hint")["view"]["hint"]
    assert hint is not None
    return act(c, **hint)


# --- safety -----------------------------------------------------------------------------------


def test_every_request_needs_the_token(tmp_path: Path) -> None:
    anyone = client(tmp_path, token=None)
    for path in ("/api/levels", "/api/view", "/", "/index.html", "/api/guide"):
        refused(anyone.get(path), 401, "open the URL castle serve printed")
    refused(anyone.post("/api/new", json={"level": "easy"}), 401)
    refused(client(tmp_path, token="a-guess").get("/api/levels"), 401, "wrong token")
    refused(anyone.get("/?token=a-guess", follow_redirects=False), 401, "wrong token")
    # The URL printed: the token goes into an HttpOnly, SameSite=Strict cookie and leaves the
    # address bar; the cookie alone lets the browser in from then on.
    opened = anyone.get(f"/?token={TOKEN}", follow_redirects=False)
    assert opened.status_code == 303 and opened.headers["location"] == "/"
    cookie = opened.headers["set-cookie"]
    assert cookie.startswith(f"{TOKEN_COOKIE}={TOKEN};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    page = anyone.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert anyone.get("/api/levels").status_code == 200
    stranger = client(tmp_path, token=None)
    refused(stranger.get("/", headers={"Cookie": f"{TOKEN_COOKIE}=a-guess"}), 401, "wrong token")


def test_other_origins_are_refused(tmp_path: Path) -> None:
    c = client(tmp_path)
    deal(c, "medium", 2)
    before = same_game(c)
    for headers in (
        {"Origin": "http://evil.example"},
        {"Origin": "http://127.0.0.1:9999"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Host": "evil.example:8765"},  # DNS rebinding: a name that is not loopback's
    ):
        refused(c.post("/api/act", json={"action": "tap", "column": 6}, headers=headers), 403)
        refused(c.get("/api/levels", headers=headers), 403)
    # A Host that is not exactly a host and maybe a port is refused whatever its name, on
    # loopback and on a network: nothing after an IPv6 address's bracket, no unclosed
    # bracket, no user part, no path.
    network = client(tmp_path / "network", loopback=False)
    for host in (
        "[::1]evil.com:8765",
        "[::1]evil.com",
        "[::1",
        "[::1]:",
        "[::1]:8765:80",
        "[evil.com]:8765",
        "localhost:8765@evil.com",
        "evil.com@localhost:8765",
        "localhost/evil.com",
        "localhost:http",
        "127.0.0.1:8765 evil.com",
        "",
    ):
        for someone in (c, network):
            refused(someone.get("/api/levels", headers={"Host": host}), 400, "Host header")
        tap = {"action": "tap", "column": 6}
        refused(c.post("/api/act", json=tap, headers={"Host": host}), 400, "Host header")
    assert same_game(c) == before
    for host in ("[::1]:8765", "[::1]", "127.0.0.1", "localhost:8765", "LOCALHOST:1"):
        assert c.get("/api/levels", headers={"Host": host}).status_code == 200, host
    assert network.get("/api/levels", headers={"Host": "castle.example:80"}).status_code == 200
    mine = {"Origin": HERE, "Sec-Fetch-Site": "same-origin"}
    assert c.post("/api/act", json={"action": "tap", "column": 6}, headers=mine).json()["reply"]
    assert c.get("/api/levels", headers={"Host": "localhost:8765"}).status_code == 200


def test_every_answer_carries_the_safety_headers(tmp_path: Path) -> None:
    c = client(tmp_path)
    for response in (c.get("/"), c.get("/api/levels"), c.get("/api/nothing")):
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["cache-control"] == "no-store"
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        assert "access-control-allow-origin" not in response.headers


def test_two_players_on_a_network_server_do_not_see_each_others_games(tmp_path: Path) -> None:
    app = create_app(tmp_path, token=TOKEN, loopback=False, rng=random.Random(7))
    base, headers = "http://192.0.2.7:8765", {"X-Castle-Token": TOKEN}
    alice = TestClient(app, base_url=base, headers=headers)
    bob = TestClient(app, base_url=base, headers=headers)
    # Any Host on a network; each browser let in gets its own id in an HttpOnly cookie.
    assert "set-cookie" not in TestClient(app, base_url=base).get("/api/levels").headers
    first = alice.get("/api/levels")
    assert (
        "HttpOnly" in first.headers["set-cookie"]
        and "SameSite=Strict" in first.headers["set-cookie"]
    )
    deal(alice, "medium", 2)
    assert act(alice, action="tap", column=6)["reply"]["done"]
    assert bob.get("/api/levels").json()["continue"] is None
    assert view(bob) is None
    refused(bob.post("/api/act", json={"action": "undo"}), 409, "no game at the table")
    deal(bob, "hard", 5)
    act(bob, action="tap", column=0)
    alice_view, bob_view = view(alice), view(bob)
    assert alice_view is not None and bob_view is not None
    assert (alice_view["level"], alice_view["deal"]) == ("medium", 2)
    assert (bob_view["level"], bob_view["deal"]) == ("hard", 5)
    # Each player's saves and statistics in a directory of its own.
    ids = {c.cookies[PLAYER_COOKIE] for c in (alice, bob)}
    assert len(ids) == 2 and {p.name for p in (tmp_path / "players").iterdir()} == ids
    assert not (tmp_path / "game.json").exists()
    # An id that could name a path is never used: the browser gets a new one.
    mallory = TestClient(app, base_url=base)
    forged = f"{TOKEN_COOKIE}={TOKEN}; {PLAYER_COOKIE}=../../{alice.cookies[PLAYER_COOKIE]}"
    answer = mallory.get("/api/levels", headers={"Cookie": forged})
    assert answer.json()["continue"] is None
    given = answer.headers["set-cookie"].split(";")[0].split("=", 1)
    assert given[0] == PLAYER_COOKIE and given[1] not in ids and "/" not in given[1]
    # Knowing a player's id is being that player: the id is 128 random bits.
    assert len(alice.cookies[PLAYER_COOKIE]) >= 22


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "body", "headers", "status", "said"),
    [
        ("/api/act", b"{", None, 400, "malformed JSON"),
        ("/api/act", b"\xff\xfe", None, 400, "not UTF-8"),
        ("/api/act", b"[" * 100_000, None, 413, "at most"),
        ("/api/act", b"[" * 5000 + b"]" * 5000, None, 400, "nested too deep"),
        ("/api/act", b"[[]]", None, 400, "JSON object"),
        ("/api/act", b'{"action": "fly"}', None, 400, "unknown action 'fly'"),
        ("/api/act", b'{"action": "tap", "column": 8}', None, 400, "column 0 to 7"),
        ("/api/act", b'{"action": "drop", "src": 0, "dst": 99}', None, 400, "dst must be"),
        ("/api/act", b'{"action": "tap", "column": "1"}', None, 400, "whole number"),
        ("/api/act", b'{"action": "tap"}', None, 400, "needs 'column'"),
        ("/api/act", b'{"action": "new_deal", "level": "expert"}', None, 400, "unknown level"),
        ("/api/act", b'{"action": "undo"}', {"content-type": "text/plain"}, 415, "send JSON"),
        ("/api/act", b'{"action": "undo"}', {"content-type": ""}, 415, "send JSON"),
        ("/api/act", b"x" * (MAX_BODY + 1), None, 413, "at most"),
        ("/api/new", b'{"level": "expert"}', None, 400, "unknown level"),
        ("/api/new", b'{"confirmed": true}', None, 400, "needs its 'level'"),
        ("/api/new", b'{"level": "easy", "colour": 1}', None, 400, "takes no 'colour'"),
        ("/api/new", b'{"action": "undo"}', None, 400, "a new deal is"),
        ("/api/new", b'"easy"', None, 400, "a new deal is"),
        ("/api/continue", b'{"level": "easy"}', None, 400, "empty object"),
        ("/api/settings", b'{"volume": 11}', None, 400, "no setting 'volume'"),
        ("/api/settings", b'{"sound": "off"}', None, 400, "true or false"),
    ],
)
def test_bad_input_is_refused_in_one_line_and_changes_nothing(
    tmp_path: Path,
    path: str,
    body: bytes,
    headers: dict[str, str] | None,
    status: int,
    said: str,
) -> None:
    c = client(tmp_path)
    deal(c, "medium", 2)
    act(c, action="tap", column=6)
    before, saved = same_game(c), (tmp_path / "game.json").read_bytes()
    statistics = c.get("/api/levels").json()["levels"]
    sent = {"content-type": "application/json", **(headers or {})}
    refused(c.post(path, content=body, headers=sent), status, said)
    assert same_game(c) == before
    assert (tmp_path / "game.json").read_bytes() == saved
    assert c.get("/api/levels").json()["levels"] == statistics


def test_wrong_methods_paths_and_queries_are_refused(tmp_path: Path) -> None:
    c = client(tmp_path)
    refused(c.get("/api/act"), 405, "/api/act does not take GET")
    refused(c.post("/api/view", json={}), 405)
    refused(c.post("/index.html", json={}), 405)
    refused(c.get("/api/nothing"), 404, "nothing at /api/nothing")
    refused(c.get("/api/lift?src=0&count=1"), 409, "no game at the table")
    refused(c.post("/api/act", json={"action": "undo"}), 409, "no game at the table")
    refused(c.post("/api/continue", json={}), 409, "no unfinished game")
    deal(c, "medium", 2)
    for query in ("", "?src=0", "?src=a&count=1", "?src=-1&count=1", "?src=0&count=1&x=2"):
        refused(c.get(f"/api/lift{query}"), 400, "lift takes")
    refused(c.get("/api/lift?src=8&count=1"), 400, "column 0 to 7")
    refused(c.get("/api/lift?src=0&count=0"), 400, "count must be")
    for path in ("/.env", "/../game.json", "/%2e%2e/game.json", "/nothing.js", "/api"):
        refused(c.get(path), 404)
    # A path the file system cannot even look up (a name too long for it) is no file either.
    for path in ("/" + "a" * 256 + ".js", "/" + "b" * 300 + "/x.css", "/c" * 3000 + ".css"):
        refused(c.get(path), 404, "nothing at")


def test_an_error_of_castle_is_no_traceback(tmp_path: Path, monkeypatch: Any) -> None:
    def broken(self: Player) -> dict[str, Any]:
        raise RuntimeError("a bug")

    monkeypatch.setattr(Player, "levels", broken)
    c = TestClient(
        create_app(tmp_path, token=TOKEN),
        base_url=HERE,
        headers={"X-Castle-Token": TOKEN},
        raise_server_exceptions=False,
    )
    refused(c.get("/api/levels"), 500, "internal error")


# --- playing ----------------------------------------------------------------------------------


def test_a_castle_deal_is_won_through_the_api_by_following_hints(tmp_path: Path) -> None:
    c = client(tmp_path)
    shown = deal(c, "medium", 2)
    assert shown["game"] == "castle" and shown["deal_name"] == "deal 2"
    assert len(shown["columns"]) == 8 and shown["foundations"] == {"C": 1, "D": 1, "H": 1, "S": 1}
    for _ in range(200):
        if shown["won"]:
            break
        answer = act(c, action="hint")
        assert answer["reply"]["message"].startswith("hint: try "), answer
        hint = answer["view"]["hint"]
        assert hint["action"] == "drop"
        # While the card is held, the page asks where it may go: the hinted place is one.
        lift = c.get(f"/api/lift?src={hint['src']}&count=1").json()["lift"]
        assert hint["dst"] in lift["targets"]
        answer = act(c, **hint)
        assert answer["reply"]["done"], answer
        shown = answer["view"]
    assert shown["won"] and shown["cards_up"] == 52
    assert shown["statistics"]["wins"] == 1 and shown["record"].startswith("1 won")
    levels = c.get("/api/levels").json()
    assert levels["continue"] is None
    medium = next(level for level in levels["levels"] if level["id"] == "medium")
    assert medium["record"] == {
        "wins": 1,
        "losses": 0,
        "streak": 1,
        "best_streak": 1,
        "win_percentage": 100.0,
    }


def test_a_refused_move_is_a_reply_not_an_error(tmp_path: Path) -> None:
    c = client(tmp_path)
    deal(c, "medium", 2)
    before = same_game(c)
    answer = act(c, action="drop", src=0, dst=1)
    assert not answer["reply"]["done"] and answer["reply"]["shake"] == 0
    assert answer["reply"]["message"] == view(c)["message"]  # type: ignore[index]
    assert same_game(c) == before


def test_a_spider_deal_through_the_api(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The thoughtful hint thinks against the wall clock: on a busy machine (other tests beside
    # this one) its 1.5 s may run out, which is not what this test is about.
    monkeypatch.setattr("castle.game.played.HINT_SECONDS", 60)
    c = client(tmp_path)
    shown = deal(c, "spider-1", 1)
    assert shown["game"] == "spider" and shown["stock"] == 50 and shown["foundations"] is None
    assert [column["down"] for column in shown["columns"]] == [5, 5, 5, 5, 4, 4, 4, 4, 4, 4]
    # Only the face-up cards travel: the view never names a face-down one.
    assert [len(column["cards"]) for column in shown["columns"]] == [1] * 10
    answer = act(c, action="deal")
    assert answer["reply"]["done"] and answer["view"]["stock"] == 40
    assert [len(column["cards"]) for column in answer["view"]["columns"]] == [2] * 10
    refused(c.post("/api/act", json={"action": "tap", "column": 16}), 400, "0 to 15")
    assert not act(c, action="tap", column=0)["reply"]["done"]  # Spider has no tap
    assert act(c, action="undo")["view"]["stock"] == 50
    # The thoughtful hint (it sees the hidden cards) followed to a win: runs off, deals.
    kinds = set()
    for _ in range(400):
        answer = act(c, action="hint", peek=True)
        hint = answer["view"]["hint"]
        assert hint is not None, answer
        kinds.add(hint["action"])
        answer = act(c, **hint)
        assert answer["reply"]["done"], (hint, answer)
        if answer["view"]["won"]:
            break
    shown = answer["view"]
    assert shown["won"] and len(shown["off"]) == 8 and shown["stock"] == 0
    assert {"drop", "deal"} <= kinds


def test_a_new_deal_asks_first_when_it_counts_a_game_as_lost(tmp_path: Path) -> None:
    c = client(tmp_path)
    deal(c, "medium", 2)
    assert post(c, "/api/new", {"level": "hard"})["reply"]["done"]  # no move made: no loss
    assert post(c, "/api/new", {"level": "hard", "deal": 2})["view"]["deal"] == 2
    assert act(c, action="tap", column=7)["reply"]["done"]  # 7D onto 8D
    before = same_game(c)
    answer = post(c, "/api/new", {"level": "easy"})
    question = answer["reply"]["question"]
    assert not answer["reply"]["done"] and question.startswith("A new Easy deal ends your Hard")
    assert question.endswith("it counts as lost.") and same_game(c) == before
    assert act(c, action="new_deal", level="citadel")["reply"]["question"]
    answer = post(c, "/api/new", {"level": "easy", "confirmed": True})
    assert answer["reply"]["done"] and answer["view"]["level"] == "easy"
    hard = next(level for level in c.get("/api/levels").json()["levels"] if level["id"] == "hard")
    assert hard["record"]["losses"] == 1


def test_continue_after_a_restart_restores_the_game_and_its_undo_history(tmp_path: Path) -> None:
    c = client(tmp_path)
    deal(c, "medium", 2)
    for _ in range(3):
        hinted(c)
    before = same_game(c)
    # A new server on the same data directory: nothing at the table until CONTINUE.
    again = client(tmp_path)
    assert view(again) is None
    resume = again.get("/api/levels").json()["continue"]
    assert resume["level"] == "medium" and resume["deal_name"] == "deal 2"
    assert resume["moves"] == 3
    answer = post(again, "/api/continue", {})
    assert answer["reply"]["done"] and not answer["view"]["paused"]
    assert same_game(again) == before
    # Its undo history came with it: back to the deal, three undos.
    for _ in range(3):
        assert act(again, action="undo")["reply"]["done"]
    shown = view(again)
    assert shown is not None and not shown["can_undo"] and shown["moves"] == 6
    assert shown["columns"] == deal(client(tmp_path / "fresh"), "medium", 2)["columns"]
    # Asking for a new deal when the saved game counts as lost asks first, restart or not.
    third = client(tmp_path)
    act_first = post(third, "/api/new", {"level": "easy"})
    assert act_first["reply"]["question"] and act_first["view"] is None


def test_continue_says_nothing_said_before_the_player_left(tmp_path: Path) -> None:
    c = client(tmp_path)
    deal(c, "medium", 2)
    hinted(c)
    act(c, action="hint")
    act(c, action="pick", column=0)
    assert act(c, action="undo")["view"]["message"] == "undone"
    act(c, action="hint")
    assert act(c, action="pause")["view"]["message"] == "paused"  # the page went away
    shown = post(c, "/api/continue", {})["view"]
    assert shown["message"] == "" and shown["hint"] is None and shown["selection"] is None
    assert not shown["paused"] and shown["moves"] == 2


def test_a_game_begun_in_the_terminal_continues_in_the_browser_and_back(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = Game.new("medium", deal=Deal.from_number("beleaguered-castle", 2), store=store)
    game.move(6, 7)  # TH onto JH, as castle play would
    c = client(tmp_path)
    resume = c.get("/api/levels").json()["continue"]
    assert resume["deal_name"] == "deal 2" and resume["moves"] == 1
    shown = post(c, "/api/continue", {})["view"]
    assert shown["columns"][7]["cards"][-1] == "TH" and shown["can_undo"]
    assert act(c, action="tap", column=4)["reply"]["done"]  # 7D onto 8D
    # Back in the terminal: the browser's move is there, and both undo.
    back = Game.resume(SaveStore(tmp_path))
    assert back is not None and back.moves == 2
    back.undo()
    back.undo()
    assert back.position == Deal.from_number("beleaguered-castle", 2)


def test_settings_are_kept_with_the_statistics(tmp_path: Path) -> None:
    c = client(tmp_path)
    assert c.get("/api/settings").json() == {"settings": {"sound": True, "fair_hints": True}}
    assert post(c, "/api/settings", {"sound": False})["settings"]["sound"] is False
    assert SaveStore(tmp_path).settings().sound is False
    assert client(tmp_path).get("/api/settings").json()["settings"]["sound"] is False


def test_the_guide_and_the_page_files(tmp_path: Path) -> None:
    c = client(tmp_path)
    # A level's guide: the rules its player reads (castle.game.guide), never the whole of
    # docs/rules.md, nor the terminal's keys.
    hard = c.get("/api/guide", params={"level": "hard"}).json()["html"]
    assert "<h2>Your level: Hard</h2>" in hard and "Streets and Alleys" in hard
    assert "The castle family" in hard and "4. Spider" not in hard and "<script" not in hard
    assert "Board text" not in hard and "PySolFC" not in hard and "<h3>Keys of" not in hard
    spider = c.get("/api/guide", params={"level": "spider-2"}).json()["html"]
    assert "<h2>Your level: Spider (2 suits)</h2>" in spider
    assert "4. Spider" in spider and "The castle family" not in spider
    for params in ({}, {"level": "chess"}, {"game": "castle"}, {"level": "easy", "x": "1"}):
        refused(c.get("/api/guide", params=params), 400, "guide takes ?level=")
    page = c.get("/")
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    scripts = re.findall(r'src="([^"]+)"', page.text)
    styles = re.findall(r'href="([^"]+\.css)"', page.text)
    for name, kind in [
        *((s, "text/javascript") for s in scripts),
        *((s, "text/css") for s in styles),
    ]:
        response = c.get("/" + name.lstrip("/"))
        assert response.status_code == 200, name
        assert response.headers["content-type"].startswith(kind), name


def test_the_app_manifest_its_icons_and_the_service_worker(tmp_path: Path) -> None:
    c = client(tmp_path)
    anyone = client(tmp_path, token=None)
    for path in ("/manifest.webmanifest", "/sw.js", "/icon-192.png", "/icon.svg"):
        refused(anyone.get(path), 401)  # under the same rules as every other file
    answer = c.get("/manifest.webmanifest")
    assert answer.headers["content-type"] == "application/manifest+json"
    assert answer.headers["cache-control"] == "no-store"
    manifest = answer.json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["name"] and manifest["short_name"]
    sizes = set()
    for icon in manifest["icons"]:
        got = c.get(icon["src"])
        assert got.status_code == 200 and got.headers["content-type"] == icon["type"], icon
        if icon["type"] == "image/png":
            with Image.open(io.BytesIO(got.content)) as image:
                assert f"{image.width}x{image.height}" == icon["sizes"]
                sizes.add((image.width, icon["purpose"]))
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes
    # The service worker keeps every file of the page, and nothing else.
    worker = c.get("/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    kept = set(re.findall(r'^  "(/[^"]*)",$', worker.text, re.MULTILINE))
    page = {f.name for f in PAGE.iterdir() if f.is_file()} - {"index.html", "sw.js"}
    assert kept == {"/"} | {f"/{name}" for name in page}
    for path in kept:
        assert c.get(path).status_code == 200, path


def test_the_icons_are_the_project_s_drawing(tmp_path: Path) -> None:
    # What tools/draw_icons.py draws now, against the files in the page.
    drawing = runpy.run_path(str(ROOT / "tools" / "draw_icons.py"))
    for drawn in drawing["draw"](tmp_path):
        shipped = PAGE / drawn.name
        if drawn.suffix == ".svg":
            assert drawn.read_text(encoding="utf-8") == shipped.read_text(encoding="utf-8")
            continue
        with Image.open(drawn) as new, Image.open(shipped) as old:
            assert new.size == old.size and new.mode == old.mode == "RGBA"
            difference: Any = ImageChops.difference(new, old).getextrema()  # per band
            assert all(high <= 8 for _, high in difference), (drawn.name, difference)
    # A maskable icon's launcher may cut it to any shape inside the middle 80%: the cards
    # stand there.
    side = drawing["SIDE"]
    for _, points in drawing["shapes"](maskable=True)[1:]:
        assert all(math.dist(p, (side / 2, side / 2)) <= 0.4 * side for p in points)


def test_a_save_that_cannot_be_used_is_told_once(tmp_path: Path) -> None:
    (tmp_path / "game.json").write_text("{not json", encoding="utf-8")
    c = client(tmp_path)
    levels = c.get("/api/levels").json()
    assert levels["continue"] is None
    assert len(levels["notices"]) == 1 and "was not usable" in levels["notices"][0]
    assert c.get("/api/levels").json()["notices"] == []


def test_a_data_directory_that_is_a_file_is_told_once(tmp_path: Path) -> None:
    mine = tmp_path / "notes.txt"
    mine.write_text("not castle's")
    c = client(mine)
    (notice,) = c.get("/api/levels").json()["notices"]
    assert f"{mine} is a file, not a directory" in notice and "File exists" not in notice
    assert c.get("/api/levels").json()["notices"] == []
    deal(c, "medium", 2)  # play goes on, unsaved: told already
    assert act(c, action="tap", column=6)["notices"] == []
    assert c.get("/api/levels").json()["notices"] == []
    assert mine.read_text() == "not castle's"


# --- the command ------------------------------------------------------------------------------


def start_serve(env: dict[str, str], *flags: str) -> subprocess.Popen[str]:
    """``castle serve`` on a port of the system's choosing, its output read as text."""
    return subprocess.Popen(
        [sys.executable, "-m", "castle", "serve", "--port", "0", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_castle_serve_prints_its_url_serves_and_stops_on_sigterm(tmp_path: Path) -> None:
    env = {**os.environ, "CASTLE_DATA_DIR": str(tmp_path)}
    process = start_serve(env)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"(http://127\.0\.0\.1:\d+/)\?token=([\w-]+)", line)
        assert found, line
        assert "Ctrl+C stops" in process.stdout.readline()
        base, token = found.groups()
        assert httpx.get(base + "api/levels").status_code == 401
        with httpx.Client(base_url=base) as browser:
            opened = browser.get(f"/?token={token}", follow_redirects=True)
            assert opened.status_code == 200 and "html" in opened.headers["content-type"]
            answer = browser.post("/api/new", json={"level": "medium", "deal": 2}).json()
            assert answer["view"]["deal"] == 2
            browser.post("/api/act", json={"action": "tap", "column": 6})
        # A second server (or castle play) on the same saves is refused in one line.
        second = subprocess.run(
            [sys.executable, "-m", "castle", "serve", "--port", "0"],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        assert second.returncode == 2 and second.stderr.count("\n") == 1
        assert "is using" in second.stderr
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = finish(process, 30)
    # SIGTERM (or Ctrl+C) stops it cleanly: exit 0, the game saved already.
    assert process.returncode == 0, err
    assert "stopped" in out and "Traceback" not in err
    saved = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    assert saved["deal"] == 2 and saved["moves"] == 1


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs")
def test_a_fifo_at_the_save_neither_hangs_the_server_nor_stops_its_stop(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "game.json")  # read, it waits for a writer that never comes
    process = start_serve({**os.environ, "CASTLE_DATA_DIR": str(tmp_path)})
    try:
        assert process.stdout is not None
        found = re.search(r"(http://127\.0\.0\.1:\d+/)\?token=([\w-]+)", process.stdout.readline())
        assert found, "no URL printed"
        base, token = found.groups()
        headers = {"X-Castle-Token": token}
        levels = httpx.get(base + "api/levels", headers=headers, timeout=30).json()
        (notice,) = levels["notices"]
        assert "game.json was not usable (a FIFO, not a file)" in notice
        assert levels["continue"] is None
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = finish(process, 30)
    assert process.returncode == 0 and "stopped" in out and "Traceback" not in err, err
    (aside,) = tmp_path.glob("game.json.corrupt-*")
    assert aside.is_fifo()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX locks")
def test_a_network_players_directory_is_locked_by_whoever_plays_it(tmp_path: Path) -> None:
    # The server on every network (the players' directories are a network server's), asked
    # on loopback; castle play on a player's directory, the one and then the other first.
    process = start_serve({**os.environ, "CASTLE_DATA_DIR": str(tmp_path)}, "--host", "0.0.0.0")
    try:
        assert process.stdout is not None
        found = re.search(r":(\d+)/\?token=([\w-]+)", process.stdout.readline())
        assert found, "no URL printed"
        port, token = found.groups()
        base, headers = f"http://127.0.0.1:{port}", {"X-Castle-Token": token}
        with httpx.Client(base_url=base, headers=headers, timeout=60) as alice:
            assert alice.get("/api/levels").status_code == 200
            assert post(alice, "/api/new", {"level": "medium", "deal": 2})["reply"]["done"]
            assert post(alice, "/api/act", {"action": "tap", "column": 6})["reply"]["done"]
            served = tmp_path / "players" / alice.cookies[PLAYER_COOKIE]
            terminal = castle_play_process(served, "--new")
            out, err = terminal.communicate("q\n", timeout=60)
            assert terminal.returncode == 2 and err.count("\n") == 1 and out == ""
            assert f"is using {served}" in err and "Traceback" not in err
            assert post(alice, "/api/act", {"action": "undo"})["reply"]["done"]
        saved = json.loads((served / "game.json").read_text(encoding="utf-8"))
        assert (saved["deal"], saved["moves"], saved["undone"]) == (2, 2, [[[35, 6, 7]]])
        assert SaveStore(served).statistics() == {}
        # The other way round: a player's directory the terminal plays first.
        bob = "b" * 22
        played = tmp_path / "players" / bob
        terminal = castle_play_process(played, "--deal", "2")
        assert terminal.stdout is not None
        assert terminal.stdout.readline().startswith("Medium · deal 2")
        cookie = {**headers, "Cookie": f"{PLAYER_COOKIE}={bob}"}
        with httpx.Client(base_url=base, headers=cookie, timeout=60) as browser:
            for method, path, body in [
                ("GET", "/api/levels", None),
                ("POST", "/api/new", {"level": "easy", "confirmed": True}),
                ("POST", "/api/continue", {}),
            ]:
                answer = browser.request(method, path, json=body)
                refused(answer, 409, f"is using {played}")
            out, err = terminal.communicate("7 8\nq\n", timeout=60)
            assert terminal.returncode == 0, err
            assert SaveStore(played).statistics() == {}  # nobody's game entered as a loss
            resume = browser.get("/api/levels").json()["continue"]
            assert (resume["deal_name"], resume["moves"]) == ("deal 2", 1)
            assert post(browser, "/api/continue", {})["view"]["moves"] == 1
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = finish(process, 30)
    assert process.returncode == 0 and "Traceback" not in err, err


@pytest.mark.skipif(sys.platform == "win32", reason="a BROWSER command of sh")
def test_open_hands_the_url_with_its_token_to_the_browser(tmp_path: Path) -> None:
    # The browser is whatever BROWSER names (Python's webbrowser): here a command that
    # writes down what it was asked to open, which a person's browser then loads.
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.sh"
    browser.write_text(f'#!/bin/sh\nprintf "%s" "$1" > "{opened}"\n', encoding="utf-8")
    browser.chmod(0o755)
    env = {**os.environ, "CASTLE_DATA_DIR": str(tmp_path / "data"), "BROWSER": str(browser)}
    process = start_serve(env, "--open")
    try:
        assert process.stdout is not None
        printed = process.stdout.readline().split()[-1]
        deadline = time.monotonic() + 30
        while not (opened.exists() and opened.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert opened.read_text() == printed
        page = httpx.get(printed, follow_redirects=True)
        assert page.status_code == 200 and "html" in page.headers["content-type"]
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = finish(process, 30)
    assert process.returncode == 0 and "Traceback" not in err, err
    assert "castle serve: stopped" in out


def test_stopping_pauses_every_game_which_saves_its_time(tmp_path: Path) -> None:
    now = [100.0]
    app = create_app(tmp_path, token=TOKEN, clock=lambda: now[0])
    c = TestClient(app, base_url=HERE, headers={"X-Castle-Token": TOKEN})
    deal(c, "medium", 2)
    act(c, action="tap", column=6)
    now[0] += 42.0
    app.state.players.pause_all()
    saved = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    assert saved["seconds"] == 42.0 and saved["moves"] == 1
    shown = view(c)
    assert shown is not None and shown["paused"]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--port", "http"], "--port: must be a port"),
        (["--port", "70000"], "--port: must be a port"),
        (["--host", "nowhere.invalid"], "--host: cannot listen"),
        (["--colour"], "unrecognized arguments"),
    ],
)
def test_bad_flags_are_one_line(
    argv: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--data-dir", str(tmp_path), *argv]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1


def test_a_busy_port_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--data-dir", str(tmp_path), "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1 port {port}" in err and err.count("\n") == 1


def hold_hints(monkeypatch: Any, hold: Callable[[], object]) -> threading.Event:
    """Make every hint's search call ``hold`` first; the event is set once one has begun."""
    searching = threading.Event()
    advice = Table.advice

    def held(self: Table, peek: bool = False, cancel: Any = None) -> Any:
        searching.set()
        hold()
        return advice(self, peek, cancel)

    monkeypatch.setattr(Table, "advice", held)
    return searching


def test_a_hint_searches_off_the_event_loop(tmp_path: Path, monkeypatch: Any) -> None:
    # While one player's hint searches (made slow here), another player is answered at once.
    searching = hold_hints(monkeypatch, lambda: time.sleep(1.5))
    app = create_app(tmp_path, token=TOKEN, loopback=False, rng=random.Random(7))
    headers = {"X-Castle-Token": TOKEN}
    with TestClient(app, base_url="http://192.0.2.7:8765", headers=headers) as alice:
        bob = TestClient(app, base_url="http://192.0.2.7:8765", headers=headers)
        bob.portal = alice.portal  # the same event loop for both browsers
        deal(alice, "medium", 2)
        deal(bob, "medium", 3)
        hint = threading.Thread(target=act, args=(alice,), kwargs={"action": "hint"})
        hint.start()
        assert searching.wait(10)
        started = time.monotonic()
        assert act(bob, action="tap", column=6)["reply"] is not None
        answered = time.monotonic() - started
        hint.join()
    assert answered < 1.0


def test_a_hint_in_flight_does_not_hold_up_the_same_player(
    tmp_path: Path, monkeypatch: Any
) -> None:
    # While a player's hint searches (held here until let go), the same player's views, lifts
    # and moves are answered at once; a hint that comes back after a move is dropped (the
    # reply says so, the table shows no hint), and one asked again is shown.
    release = threading.Event()
    searching = hold_hints(monkeypatch, lambda: release.wait(10))
    c = client(tmp_path)
    with c:
        deal(c, "medium", 2)
        late: list[dict[str, Any]] = []
        hint = threading.Thread(target=lambda: late.append(act(c, action="hint")))
        hint.start()
        try:
            assert searching.wait(10)
            started = time.monotonic()
            assert view(c) is not None
            assert c.get("/api/lift?src=6&count=1").status_code == 200
            moved = act(c, action="tap", column=6)
            assert moved["reply"]["done"] and moved["view"]["moves"] == 1
            assert time.monotonic() - started < 1.0
        finally:
            release.set()
            hint.join()
        assert late[0]["reply"] == {
            "done": False, "message": LATE_HINT, "shake": None, "question": None
        }  # fmt: skip
        shown = view(c)
        assert shown is not None and shown["hint"] is None and shown["moves"] == 1
        answer = act(c, action="hint")
        assert answer["reply"]["done"] and answer["view"]["hint"] is not None


def test_one_players_requests_are_served_in_turn(tmp_path: Path) -> None:
    c = client(tmp_path)
    with c:
        deal(c, "medium", 2)
        replies: list[bool] = []

        def tap_and_undo() -> None:
            for action in ({"action": "tap", "column": 6}, {"action": "undo"}) * 5:
                replies.append(act(c, **action)["reply"]["done"])

        threads = [threading.Thread(target=tap_and_undo) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    shown = view(c)
    assert shown is not None and shown["moves"] == sum(replies)
    saved = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    assert saved["moves"] == shown["moves"]


def test_one_player_cannot_hold_every_worker_thread(tmp_path: Path, monkeypatch: Any) -> None:
    # A player's requests wait their turn (here behind a held new deal, which holds the
    # player's lock); past MAX_IN_FLIGHT at once, more are refused (429) and other players
    # are still served.
    dealing, release = threading.Event(), threading.Event()
    new_deal = Player.new_deal

    def held(self: Player, request: Any) -> Any:
        dealing.set()  # under the player's lock
        release.wait(30)
        return new_deal(self, request)

    app = create_app(tmp_path, token=TOKEN, loopback=False, rng=random.Random(7))
    headers = {"X-Castle-Token": TOKEN}
    with TestClient(app, base_url="http://192.0.2.7:8765", headers=headers) as alice:
        bob = TestClient(app, base_url="http://192.0.2.7:8765", headers=headers)
        bob.portal = alice.portal
        deal(alice, "medium", 2)
        deal(bob, "medium", 3)
        monkeypatch.setattr(Player, "new_deal", held)
        player = app.state.players.get(alice.cookies[PLAYER_COOKIE])
        waiting = [
            threading.Thread(target=post, args=(alice, "/api/new", {"level": "medium"})),
            *(threading.Thread(target=view, args=(alice,)) for _ in range(MAX_IN_FLIGHT - 1)),
        ]
        waiting[0].start()
        assert dealing.wait(10)
        for request in waiting[1:]:
            request.start()
        deadline = time.monotonic() + 10
        while player.requests < MAX_IN_FLIGHT and time.monotonic() < deadline:
            time.sleep(0.01)
        refused(alice.get("/api/view"), 429, f"more than {MAX_IN_FLIGHT} requests at once")
        assert act(bob, action="tap", column=6)["reply"] is not None
        release.set()
        for request in waiting:
            request.join()
        assert player.requests == 0 and view(alice) is not None
