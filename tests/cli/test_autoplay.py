"""``castle autoplay --db``: games stored as they are played, a rerun that plays only the deals
not stored (after a kill -9 too), runs at the same time that share the deals, the same games on
Dask as on local processes, settings kept apart, the report, and files that are not autoplay
files.

Castle deals under a state budget play in milliseconds and always the same way, so the tests
can compare runs game for game.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import castle
import pytest
from castle.cli.autoplay_player import Autoplayer
from castle.cli.output import format_rate
from castle.cli.progress import PlayProgress
from castle.game.fair import FAIR_PLAYER
from castle.surveys.autoplay import AutoplayResult, autoplay_castle, autoplay_spider
from castle.surveys.autoplay_store import AutoplayStore, Game
from processes import finish
from rich.console import Console, Group
from verdicts import known

from .test_survey import (
    BAD_FILES,
    at_once,
    bad_file,
    castle_script,
    claims_left,
    refused_and_left_alone,
    refused_making_nothing,
    run,
    stored_count,
    survey_file,
)

BC = "beleaguered-castle"
#: A budget that plays a Beleaguered Castle deal in about 5 ms, a third of them won.
QUICK = ["--variant", BC, "--max-states", "500"]


def games(db: Path, variant: str | None = None) -> list[Game]:
    with AutoplayStore.open(db) as store:
        return list(store.games(variant))


def essence(db: Path) -> list[tuple[object, ...]]:
    """The games stored, without what differs run to run (seconds, when played)."""
    return [(g.variant, g.settings, g.deal, g.won, g.result) for g in games(db)]


def this_run(out: str) -> tuple[int, int, int]:
    """(played by this run, by another at the same time, stored before) from a summary."""
    match = re.search(
        r"^  this run: ([\d,]+) played(?:, [^;]*)?(?:; ([\d,]+) played by another run at the "
        r"same time)?(?:; ([\d,]+) stored already)?$",
        out,
        re.M,
    )
    assert match is not None, out
    mine, other, before = (int((g or "0").replace(",", "")) for g in match.groups())
    return mine, other, before


def check_game(game: Game, result: AutoplayResult) -> None:
    """The stored game is ``result``: won or not, its moves and plans."""
    assert (game.won, game.fields["moves"], game.fields["plans"]) == (
        result.won,
        result.moves,
        result.plans,
    ), game


def check_against_autoplay(stored: list[Game], max_states: int, every: int = 1) -> None:
    """Stored games are what castle.surveys.autoplay plays under the same budget."""
    for game in stored[::every]:
        result = autoplay_castle(
            castle.Deal.from_number(game.variant, game.deal), max_states=max_states
        )
        check_game(game, result)
        assert game.fields["status"] == result.status


def kill_once_stored(argv: list[str], db: Path, played: int, seconds: float) -> None:
    """Start ``castle autoplay`` (``argv``) and kill -9 it once ``db`` holds ``played``
    games, which must be within ``seconds``."""
    with subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        deadline = time.monotonic() + seconds
        while stored_count(db, "games") < played and process.poll() is None:
            assert time.monotonic() < deadline, f"{played} games not stored within {seconds} s"
            time.sleep(0.01)
        os.kill(process.pid, signal.SIGKILL)
        finish(process, 30)
    assert process.returncode == -signal.SIGKILL


def resume(argv: list[str], db: Path, kept: list[Game], deals: int, seconds: float) -> list[Game]:
    """Run ``argv`` (deals 1 to ``deals``) again after a kill that ``kept`` some games: it
    plays exactly the others. The games stored then, none missing, none twice."""
    resumed = subprocess.run(argv, capture_output=True, text=True, timeout=seconds)
    assert resumed.returncode == 0, resumed.stderr
    assert this_run(resumed.stdout) == (deals - len(kept), 0, len(kept))
    stored = games(db)
    assert [g.deal for g in stored] == list(range(1, deals + 1))
    return stored


# --- stored as played, and resumed ---------------------------------------------------------


def test_games_are_stored_and_a_rerun_plays_only_the_new_deals(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "bc.db"
    code, out, err = run(capsys, "autoplay", *QUICK, "--deals", "1-30", "--db", str(db))
    assert (code, err) == (0, "")
    first = games(db)
    assert [g.deal for g in first] == list(range(1, 31))
    assert {(g.variant, g.settings) for g in first} == {
        (BC, '{"max_seconds":null,"max_states":500}')
    }
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", g.played_at) for g in first)
    assert {g.castle_version for g in first} == {castle.__version__}
    won = sum(g.won for g in first)
    assert 0 < won < 30
    assert out.startswith(f"Beleaguered Castle deals 1-30, played by the hints: won {won} of 30 (")
    assert this_run(out) == (30, 0, 0)
    assert f"{db} now holds 30 Beleaguered Castle games with these settings: won {won} of 30" in out
    check_against_autoplay(first, 500, every=3)

    code, out, err = run(
        capsys, "autoplay", *QUICK, "--deals", "1-40", "--db", str(db), "--jobs", "2", "--json"
    )
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert sorted(line["deal"] for line in lines) == list(range(31, 41))  # only the new ones
    assert all(set(line) >= {"variant", "won", "moves", "plans", "seconds"} for line in lines)
    assert this_run(err) == (10, 0, 30)
    stored = games(db)
    assert [g.deal for g in stored] == list(range(1, 41))
    assert stored[:30] == first  # untouched, times included
    won = sum(g.won for g in stored)
    assert f"played by the hints: won {won} of 40 (" in err  # the range, from the file
    assert f"now holds 40 Beleaguered Castle games with these settings: won {won} of 40" in err

    # Deals 5-8 again: all stored, nothing played; the file's summary still covers all 40.
    code, out, _ = run(capsys, "autoplay", *QUICK, "--deals", "5-8", "--db", str(db))
    assert code == 0 and this_run(out) == (0, 0, 4)
    assert "now holds 40 Beleaguered Castle games" in out
    assert games(db) == stored


def test_other_settings_are_kept_apart_and_the_report_lists_each(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "settings.db"
    assert run(capsys, "autoplay", *QUICK, "--deals", "1-20", "--db", str(db))[0] == 0
    code, out, _ = run(
        capsys,
        "autoplay",
        "--variant",
        BC,
        "--max-states",
        "3000",
        "--deals",
        "1-10",
        "--db",
        str(db),
    )
    assert code == 0
    assert this_run(out) == (10, 0, 0)  # the games of the other budget are not these
    assert "now holds 10 Beleaguered Castle games with these settings" in out
    assert "; and 20 with other settings (castle autoplay --db" in out
    assert (
        run(
            capsys,
            "autoplay",
            "--variant",
            "citadel",
            "--deals",
            "1-5",
            "--max-states",
            "500",
            "--db",
            str(db),
        )[0]
        == 0
    )
    stored = games(db)
    assert len(stored) == 35 and len({(g.variant, g.settings) for g in stored}) == 3
    check_against_autoplay([g for g in stored if '"max_states":3000' in g.settings], 3000)

    code, out, err = run(capsys, "autoplay", "--db", str(db))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == 3, out
    assert lines[0].startswith("Beleaguered Castle, played by the hints (--max-states 3000, ")
    assert ": deals 1-10, won " in lines[0]
    assert lines[2].startswith("Citadel, played by the hints (--max-states 500, ")
    code, out, _ = run(capsys, "autoplay", "--db", str(db), "--variant", "citadel", "--json")
    (line,) = [json.loads(text) for text in out.splitlines()]
    won = sum(g.won for g in stored if g.variant == "citadel")
    assert line["variant"] == "citadel" and (line["played"], line["won"]) == (5, won)
    assert line["settings"] == {"max_states": 500, "max_seconds": None}
    code, out, _ = run(capsys, "autoplay", "--db", str(db), "--variant", "spider")
    assert (code, out) == (0, f"{db} holds no Spider (4 suits) games\n")


# --- killed, and resumed -------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_run_killed_with_sigkill_resumes_without_gaps_or_repeats(tmp_path: Path) -> None:
    db = tmp_path / "killed.db"
    argv = [castle_script(), "autoplay", *QUICK, "--deals", "1-1500", "--jobs", "2"]
    argv += ["--db", str(db)]
    kill_once_stored(argv, db, 100, 60)
    kept = games(db)
    assert 100 <= len(kept) < 1500
    owners, claimed = claims_left(db)
    assert owners == 1 and claimed > 0  # what it was playing, still claimed by the dead run

    # The next run takes the dead run's claims over and plays exactly the deals not stored.
    stored = resume(argv, db, kept, 1500, 120)
    assert claims_left(db) == (0, 0)
    by_deal = {g.deal: g for g in stored}
    assert [by_deal[g.deal] for g in kept] == kept  # none played again
    check_against_autoplay(stored, 500, every=97)


# --- runs at the same time -------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_two_runs_started_at_once_share_the_deals(tmp_path: Path, jobs: str) -> None:
    db = tmp_path / "shared.db"
    argv = [castle_script(), "autoplay", *QUICK, "--deals", "1-600", "--jobs", jobs]
    ended = at_once([*argv, "--db", str(db)])
    counts = []
    for run_ in ended:
        assert (run_.returncode, run_.stderr) == (0, ""), run_.stderr
        counts.append(this_run(run_.stdout))
    assert sum(mine for mine, _, _ in counts) == 600, counts  # none played twice
    assert all(sum(each) == 600 for each in counts), counts
    assert [g.deal for g in games(db)] == list(range(1, 601))
    assert claims_left(db) == (0, 0)


# --- on Dask -------------------------------------------------------------------------------------


def played_here_and_on_dask(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, deals: list[str]
) -> tuple[Path, str]:
    """``castle autoplay`` of ``deals`` (its flags) with --jobs 1 and with --dask-local 2
    stores the same games: the file played here, and what the Dask run said."""
    pytest.importorskip("distributed")
    local, on_dask = tmp_path / "local.db", tmp_path / "dask.db"
    assert run(capsys, "autoplay", *deals, "--jobs", "1", "--db", str(local))[0] == 0
    code, out, err = run(capsys, "autoplay", *deals, "--dask-local", "2", "--db", str(on_dask))
    assert (code, err) == (0, ""), err
    assert essence(on_dask) == essence(local)
    return local, out


@pytest.mark.slow
def test_dask_local_plays_the_games_local_jobs_play(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    local, out = played_here_and_on_dask(capsys, tmp_path, [*QUICK, "--deals", "1-150"])
    assert re.search(r"this run: 150 played, Dask LocalCluster \(2 workers\), 2 threads \(", out)
    assert {g.won for g in games(local)} == {True, False}


# --- the fair Spider player, resumed and on Dask ----------------------------------------------

#: The fair player with a small effort: a one-suit game in about half a second.
FAIR = ["--variant", "spider-1", "--fair", "--samples", "1", "--max-states", "200"]


def check_fair_games(stored: list[Game]) -> None:
    """Stored games are what the fair hint plays with the same settings."""
    for game in stored:
        result = autoplay_spider(
            castle.SpiderDeal.from_number("spider-1", game.deal),
            fair=True,
            seed=game.deal,
            samples=1,
            max_states=200,
        )
        check_game(game, result)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_fair_spider_run_killed_with_sigkill_resumes(tmp_path: Path) -> None:
    db = tmp_path / "fair.db"
    argv = [castle_script(), "autoplay", *FAIR, "--deals", "1-12", "--db", str(db)]
    kill_once_stored(argv, db, 2, 120)
    kept = games(db)
    assert 2 <= len(kept) < 12
    stored = resume(argv, db, kept, 12, 300)
    assert {json.loads(g.settings)["player"] for g in stored} == {FAIR_PLAYER}
    check_fair_games(stored[::3])


@pytest.mark.slow
def test_the_fair_spider_player_on_dask_plays_what_it_plays_here(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    local, out = played_here_and_on_dask(capsys, tmp_path, [*FAIR, "--deals", "1-4"])
    assert "played by the fair hint" in out
    check_fair_games(games(local))


# --- the progress display ------------------------------------------------------------------------


def test_the_progress_display_shows_the_games_won_and_the_rate() -> None:
    terminal = Console(width=100, force_terminal=True, color_system=None, record=True)
    progress = PlayProgress(terminal, 300, "deals 1-300", enabled=True, done=100, won=40)
    progress.advance(True)
    progress.advance(False)
    terminal.print(Group(*progress.renderables()))
    text = terminal.export_text()
    assert "102/300" in text and "41 won (40.2%)" in text, text
    assert (format_rate(12.34), format_rate(0.025), format_rate(0.0)) == (
        "12.3 deals/s",
        "40.0 s/deal",
        "no deal yet",
    )


def test_the_player_is_stored_under_the_settings_of_its_game() -> None:
    castle_player = Autoplayer(BC, max_states=500, max_seconds=2.0)
    assert castle_player.settings() == {"max_states": 500, "max_seconds": 2.0}
    spider_player = Autoplayer("spider-2", fair=True, samples=5, seed=7)
    assert spider_player.settings() == {
        "fair": True,
        "samples": 5,
        "seed": 7,
        "max_states": None,
        "player": FAIR_PLAYER,  # another fair player's games are other games
    }


# --- bad input -----------------------------------------------------------------------------------


def autoplay_file(path: Path, deals: int = 3) -> None:
    """An autoplay file of ``deals`` games (made up: no need to play them)."""
    made_up = '{"won": false, "moves": 12, "plans": 3, "status": "unsolvable"}'
    with AutoplayStore.open(path, create=True) as store:
        store.put(
            Game(BC, "{}", deal, False, 0.01, made_up, "2000-01-01T00:00:00Z", "0")
            for deal in range(1, deals + 1)
        )


@pytest.fixture(params=[*BAD_FILES, "survey"])
def bad_db(
    request: pytest.FixtureRequest, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[Path, str]:
    path = tmp_path / "bad.db"
    if request.param == "survey":
        survey_file(path, capsys)
        return path, "is a castle survey file, not a castle autoplay file"
    return path, bad_file(path, request.param, "autoplay", lambda p: autoplay_file(p, 400))


@pytest.mark.parametrize("command", [["--deals", "1-3"], []], ids=["play", "report"])
def test_a_file_that_is_not_an_autoplay_file_is_one_line_exit_2_and_left_alone(
    capsys: pytest.CaptureFixture[str], bad_db: tuple[Path, str], command: list[str]
) -> None:
    refused_and_left_alone(capsys, *bad_db, "autoplay", *QUICK, *command, "--db", str(bad_db[0]))


def test_a_survey_refuses_an_autoplay_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "games.db"
    autoplay_file(path)
    before = path.read_bytes()
    code, out, err = run(capsys, "survey", "--deals", "1-3", "--db", str(path))
    assert (code, out) == (2, "")
    assert err == (
        f"castle: error: {path} is a castle autoplay file, not a castle survey file; give "
        "another --db file\n"
    )
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["autoplay", "--variant", BC], "--deals is required"),
        (["autoplay", "--db", "missing.db"], "no autoplay file missing.db"),
        (["autoplay", "--deals", "5-1", "--db", "x.db"], "--deals"),
        (["autoplay", "--deals", "1", "--db", "no/such/x.db"], "no directory"),
        (["autoplay", "--deals", "1", "--db", "x.db", "--variant", BC, "--fair"], "--fair"),
        (
            ["autoplay", "--deals", "1", "--db", "x.db", "--jobs", "2", "--dask-local", "2"],
            "not allowed",
        ),
        (["autoplay", "--deals", "1", "--db", "x.db", "--dask-local", "0"], "--dask-local"),
    ],
)
def test_bad_arguments_are_one_line_exit_2_and_make_no_file(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    argv: list[str],
    needle: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    refused_making_nothing(capsys, argv, needle)


def test_cli_autoplay_plays_a_castle_batch_and_sets_the_solver_beside_it() -> None:
    # Deals 1-4: two won, two that cannot be (1 and 3), as many kinds as deals 1-20 hold.
    verdicts = known("beleaguered-castle", range(1, 5))
    winnable = sum(v == "winnable" for v in verdicts.values())
    assert 0 < winnable < len(verdicts)
    argv = ["autoplay", "--variant", "beleaguered-castle", "--deals", "1-4", "--json"]
    done = subprocess.run(
        [sys.executable, "-m", "castle", *argv], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert {r["deal"]: r["won"] for r in rows} == {n: v == "winnable" for n, v in verdicts.items()}
    assert f"played by the hints: won {winnable} of 4" in done.stderr
    assert (
        f"the solver on the same deals: {winnable} solved, {4 - winnable} unsolvable, 0 unknown"
        in done.stderr
    )
    command = ["autoplay", "--variant", "citadel", "--deals", "1", "--fair"]
    fair = subprocess.run(
        [sys.executable, "-m", "castle", *command],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert fair.returncode == 2 and "--fair is for Spider" in fair.stderr


def test_cli_autoplay_reports_per_deal_json(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "castle",
            "autoplay",
            "--variant",
            "spider-1",
            "--deals",
            "1-2",
            "--fair",
            "--samples",
            "1",
            "--max-states",
            "3000",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["deal"] for r in rows] == [1, 2] and all(set(r) >= {"won", "moves"} for r in rows)
    assert "played by the fair hint" in done.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "castle", "autoplay", "--variant", "spider-1", "--deals", "1-x"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--deals" in bad.stderr
