"""``castle survey``: the SQLite store, resuming, retrying unknowns, the report, bad files.

State budgets (not seconds) keep every verdict deterministic, so the tests can compare the
store with ``castle.solve`` itself; every win they look at is replayed through the reference
rules.
"""

from __future__ import annotations

import csv
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import castle
import castle.surveys.survey_store as survey_store
import pytest
from castle.cli import main
from castle.cli.output import format_percent
from castle.reference import replay
from castle.surveys.stats import distribution, wilson_interval
from castle.surveys.survey_claims import STALE_SECONDS, DealClaims
from castle.surveys.survey_store import VERDICT_FIELDS, SurveyError, SurveyStore, Verdict
from processes import finish
from verdicts import known_verdicts

BC = "beleaguered-castle"
KNOWN_AS = {"winnable": "solved", "unwinnable": "unsolvable", "unknown": "?"}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def rows(db: Path, variant: str | None = None) -> list[Verdict]:
    with SurveyStore.open(db) as store:
        return list(store.verdicts(variant))


def check_against_solver(verdicts: list[Verdict], every: int = 1) -> None:
    """Stored rows are what castle.solve says under the stored limits; wins replay."""
    for v in verdicts[::every]:
        deal = castle.Deal.from_number(v.variant, v.deal)
        solution = castle.solve(deal, max_states=v.max_states, max_seconds=v.max_seconds)
        assert (v.status, v.states, v.moves, v.limit_hit) == (
            solution.status,
            solution.states,
            len(solution.moves),
            solution.limit,
        ), v
        if v.status == "solved":
            assert replay(deal, solution.moves).is_won(), v


@pytest.fixture(scope="module")
def known() -> dict[tuple[str, int], str]:
    return known_verdicts()


# --- store and resume ------------------------------------------------------------------


def test_store_then_resume_solves_only_new_deals(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, known: dict[tuple[str, int], str]
) -> None:
    db = tmp_path / "bc.db"
    argv = ["survey", "--deals", "1-30", "--max-states", "10000", "--db", str(db)]
    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, "")
    first = rows(db)
    assert [v.deal for v in first] == list(range(1, 31))
    assert out.startswith(f"Beleaguered Castle survey of deals 1-30 into {db}: 30 new deals in ")

    argv[2] = "1-40"
    code, out, err = run(capsys, *argv, "--jobs", "2")
    assert (code, err) == (0, "")
    assert re.search(r": 10 new deals in .*, 2 jobs .*; 30 stored already$", out.splitlines()[0])
    stored = rows(db)
    assert [v.deal for v in stored] == list(range(1, 41))
    assert stored[:30] == first  # untouched, timestamps included
    for v in stored:
        assert (v.variant, v.max_states, v.max_seconds) == (BC, 10000, None)
        assert v.max_memory == castle.DEFAULT_MAX_MEMORY
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", v.solved_at)
        assert (v.limit_hit == "states") == (v.status == "unknown")
        if v.status != "unknown":  # a decided verdict never contradicts other solvers
            assert KNOWN_AS[known[BC, v.deal]] == v.status
    check_against_solver(stored, every=3)

    # The summary covers the whole store, not just the 10 new deals.
    statuses = [v.status for v in stored]
    solved, unsolvable = statuses.count("solved"), statuses.count("unsolvable")
    assert solved and unsolvable and statuses.count("unknown")
    assert f"{db} now holds 40 Beleaguered Castle deals:" in out
    low, high = wilson_interval(solved, solved + unsolvable)
    assert f"winnable: {100 * solved / (solved + unsolvable):.1f}% of the " in out
    assert f"95% Wilson interval {100 * low:.1f}% to {100 * high:.1f}%" in out
    assert re.search(r"^time per deal: median .+, p90 .+, p99 .+, max .+$", out, re.M)
    assert "castle survey retry --db" in out

    # The same command once more: nothing to do, nothing changes.
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert "all 40 deals stored already, nothing to solve" in out.splitlines()[0]
    assert rows(db) == stored


def test_a_run_in_pieces_stores_what_one_run_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # An interrupted run is a run of a subset; finishing it must give the same store.
    whole, pieces = tmp_path / "whole.db", tmp_path / "pieces.db"
    limits = ["--variant", "citadel", "--max-states", "3000"]
    assert run(capsys, "survey", "--deals", "1-25", "--db", str(whole), *limits)[0] == 0
    assert run(capsys, "survey", "--deals", "3-7,15,20-22", "--db", str(pieces), *limits)[0] == 0
    assert len(rows(pieces)) == 9
    code, out, _ = run(capsys, "survey", "run", "--deals", "1-25", "--db", str(pieces), *limits)
    assert code == 0 and "16 new deals" in out and "9 stored already" in out

    def essence(db: Path) -> list[tuple[object, ...]]:
        return [(v.variant, v.deal, v.status, v.states, v.moves) for v in rows(db)]

    assert essence(pieces) == essence(whole)
    assert [v[1] for v in essence(whole)] == list(range(1, 26))
    assert rows(pieces, BC) == []


def test_a_deal_listed_twice_is_solved_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "twice.db"
    code, out, _ = run(capsys, "survey", "--deals", "1-5,3,5", "--db", str(db))
    assert code == 0 and "5 new deals" in out
    assert [v.deal for v in rows(db)] == [1, 2, 3, 4, 5]


# --- interruptions -----------------------------------------------------------------------


def castle_script() -> str:
    script = shutil.which("castle", path=os.path.dirname(sys.executable)) or shutil.which("castle")
    if script is None:
        pytest.skip("the castle console script is not installed")
    return script


def stored_count(db: Path, table: str = "verdicts") -> int:
    """The rows of ``table`` in ``db`` (a survey's verdicts), while a run writes them."""
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
            return int(connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    except sqlite3.Error:  # still being created
        return 0


def claims_left(db: Path) -> tuple[int, int]:
    """(runs, claims not finished) that the survey file records."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        owners = connection.execute("SELECT count(*) FROM claim_owners").fetchone()[0]
        sql = "SELECT count(*) FROM claims WHERE finished_at IS NULL"
        claimed = connection.execute(sql).fetchone()[0]
    connection.close()
    return int(owners), int(claimed)


def start_and_stop(
    argv: list[str], db: Path, how: signal.Signals
) -> subprocess.CompletedProcess[str]:
    """Start a survey; once it has stored a few batches, send it ``how``."""
    with subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as process:
        deadline = time.monotonic() + 30
        while stored_count(db) < 100 and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.01)
        if how == signal.SIGINT:
            os.killpg(process.pid, how)  # as a terminal does: the whole group
        else:
            os.kill(process.pid, how)  # the run alone: its workers must see it go
        out, err = finish(process, 30)
    return subprocess.CompletedProcess(argv, process.returncode, out, err)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize(
    "how", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=["SIGINT", "SIGTERM", "SIGKILL"]
)
def test_interrupted_run_resumes_without_gaps_or_repeats(
    tmp_path: Path, how: signal.Signals
) -> None:
    db = tmp_path / "stop.db"
    argv = [castle_script(), "survey", "--deals", "1-2000", "--max-states", "1000"]
    argv += ["--jobs", "2", "--db", str(db)]
    stopped = start_and_stop(argv, db, how)
    assert "Traceback" not in stopped.stderr, stopped.stderr
    kept = stored_count(db)
    assert 0 < kept < 2000
    if how != signal.SIGKILL:
        # Ctrl+C or SIGTERM commits everything found: the summary's count is the store's.
        assert stopped.returncode == 128 + how
        match = re.search(r"interrupted after ([\d,]+) of 2,000 new deals", stopped.stdout)
        assert match is not None, stopped.stdout
        assert int(match[1].replace(",", "")) == kept
        assert f"now holds {kept:,} Beleaguered Castle deals" in stopped.stdout
        assert "run the same command again" in stopped.stdout
        assert claims_left(db) == (0, 0)  # its claims given back
    else:
        assert stopped.returncode == -signal.SIGKILL
        owners, claimed = claims_left(db)
        assert owners == 1 and claimed > 0  # the chunks it was solving, still claimed

    # The next run takes a killed run's claims over: its process is gone.
    resumed = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{2000 - kept:,} new deals" in resumed.stdout
    assert f"{kept:,} stored already" in resumed.stdout
    assert "another run" not in resumed.stdout
    assert claims_left(db) == (0, 0)
    with sqlite3.connect(db) as connection:
        deals = [r[0] for r in connection.execute("SELECT deal FROM verdicts ORDER BY deal")]
    assert deals == list(range(1, 2001))  # none missing, none twice
    check_against_solver(rows(db), every=97)


# --- runs at the same time -----------------------------------------------------------------

RUN_COUNTS = re.compile(
    r": (?:(?P<new>[\d,]+) new deals in .*?(?:; (?P<other>[\d,]+) solved by another run at the "
    r"same time)?(?:; (?P<stored>[\d,]+) stored already)?|all (?P<all>[\d,]+) deals stored "
    r"already, nothing to solve)$"
)


def run_counts(out: str) -> tuple[int, int, int]:
    """(solved by this run, by another at the same time, stored before) from a summary."""
    match = RUN_COUNTS.search(out.splitlines()[0])
    assert match is not None, out
    if match["all"]:
        return 0, 0, int(match["all"].replace(",", ""))
    new, other, stored = (
        int((match[k] or "0").replace(",", "")) for k in ("new", "other", "stored")
    )
    return new, other, stored


def at_once(argv: list[str], runs: int = 2) -> list[subprocess.CompletedProcess[str]]:
    """Start ``runs`` copies of a command at the same moment; how each ended."""
    started = [
        subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(runs)
    ]
    ended = []
    for process in started:
        out, err = finish(process, 120)
        ended.append(subprocess.CompletedProcess(argv, process.returncode, out, err))
    return ended


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_two_surveys_started_at_once_share_the_deals(tmp_path: Path, jobs: str) -> None:
    # Two runs creating a file at once failed one time in three ("changed
    # while castle was opening it"), and each solved every deal it had not seen stored when
    # it started (the race is in making the file: 200 deals are time enough for the two to
    # overlap). Now both succeed, and each deal is solved by one of them: the deals each
    # solved, those the other did meanwhile and those stored before it started add up.
    for attempt in range(4):
        db = tmp_path / f"shared-{attempt}.db"
        argv = [castle_script(), "survey", "--deals", "1-200", "--max-states", "2000"]
        argv += ["--jobs", jobs, "--db", str(db)]
        ended = at_once(argv)
        for run_ in ended:
            assert (run_.returncode, run_.stderr) == (0, ""), run_.stderr
        counts = [run_counts(run_.stdout) for run_ in ended]
        assert sum(solved for solved, _, _ in counts) == 200, counts  # none solved twice
        assert all(sum(each) == 200 for each in counts), counts
        assert [v.deal for v in rows(db)] == list(range(1, 201))
        assert claims_left(db) == (0, 0)
    check_against_solver(rows(db), every=37)


@pytest.mark.parametrize("journal", ["delete", "wal"])
def test_a_file_another_run_is_making_is_waited_for(tmp_path: Path, journal: str) -> None:
    # The two ways a run lost the race to make a new file: the other run
    # held the file while switching it to WAL, and SQLite's busy wait does not cover a change
    # of journal mode ("database is locked" at once); or the other run's tables appeared
    # while this run waited to make its own ("changed while castle was opening it").
    db = tmp_path / "new.db"
    db.touch()
    other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    if journal == "wal":
        other.execute("PRAGMA journal_mode = WAL")
    other.execute("BEGIN IMMEDIATE")
    for statement in SurveyStore.KIND.statements():
        other.execute(statement)
    version = survey_store.SCHEMA_VERSION
    other.execute("INSERT INTO castle_survey VALUES (?, 'then', 'the other run')", (version,))
    thread = later(0.5, lambda: other.execute("COMMIT"))
    started = time.monotonic()
    try:
        with SurveyStore.open(db, create=True) as store:
            assert store.count() == 0
    finally:
        thread.join()
        other.close()
    assert time.monotonic() - started >= 0.5
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        made = connection.execute("SELECT castle_version FROM castle_survey").fetchall()
    connection.close()
    assert made == [("the other run",)]  # its file, checked and used, not made again


def another_run(db: Path, pid: int, deals: range, *, silent_for: float = 0.0) -> None:
    """Claims on ``deals`` as a run in process ``pid`` of this machine holds them, its last
    heartbeat ``silent_for`` seconds ago."""
    with SurveyStore.open(db, create=True) as store, DealClaims(store, BC, (None, None, 0, None)):
        pass  # the claims tables, made
    now = time.time()
    with sqlite3.connect(db) as connection:
        connection.execute(
            "INSERT INTO claim_owners VALUES ('other', ?, ?, ?, ?)",
            (socket.gethostname(), pid, now, now - silent_for),
        )
        connection.executemany(
            "INSERT INTO claims VALUES (?, ?, 'other', ?, NULL, 2000, NULL, NULL, NULL)",
            [(BC, deal, now) for deal in deals],
        )
    connection.close()


@pytest.fixture
def sleeper() -> Iterator[subprocess.Popen[bytes]]:
    """A live process whose id a claim can name."""
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"]) as process:
        yield process
        process.kill()


def later(seconds: float, action: Callable[[], object]) -> threading.Thread:
    def act() -> None:
        time.sleep(seconds)
        action()

    thread = threading.Thread(target=act)
    thread.start()
    return thread


def test_deals_another_run_holds_are_waited_for_not_solved_again(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, sleeper: subprocess.Popen[bytes]
) -> None:
    db = tmp_path / "held.db"
    another_run(db, sleeper.pid, range(5, 10))

    def other_run_stores_them() -> None:
        verdicts = []
        for deal in range(5, 10):
            solution = castle.solve(castle.Deal.from_number(BC, deal), max_states=2000)
            found = (solution.status, solution.states, solution.seconds, len(solution.moves))
            limits = (2000, None, castle.DEFAULT_MAX_MEMORY)
            verdicts.append(
                Verdict(BC, deal, *found, solution.limit, *limits, "2000-01-01T00:00:00Z")
            )
        with SurveyStore.open(db) as store:
            store.put(verdicts)

    started = time.monotonic()
    thread = later(1.0, other_run_stores_them)
    code, out, err = run(
        capsys, "survey", "--deals", "1-20", "--max-states", "2000", "--db", str(db)
    )
    thread.join()
    assert (code, err) == (0, "")
    assert time.monotonic() - started >= 1.0  # it waited for the other run's deals
    assert run_counts(out) == (15, 5, 0)
    assert "15 new deals in " in out and "; 5 solved by another run at the same time" in out
    assert "now holds 20 Beleaguered Castle deals" in out
    stored = rows(db)
    assert [v.deal for v in stored] == list(range(1, 21))
    assert {v.deal for v in stored if v.solved_at.startswith("2000")} == set(range(5, 10))
    check_against_solver(stored)


@pytest.mark.skipif(sys.platform == "win32", reason="a process id's life is not looked at there")
@pytest.mark.parametrize("how", ["dead", "silent", "dies-meanwhile"])
def test_claims_of_a_run_that_is_gone_are_taken_over(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    sleeper: subprocess.Popen[bytes],
    how: str,
) -> None:
    # dead: its process has ended; silent: no heartbeat for longer than STALE_SECONDS (its
    # process id may live on, reused); dies-meanwhile: while this run waits for its deals.
    db = tmp_path / "gone.db"
    if how == "dead":
        sleeper.kill()
        sleeper.wait()
    another_run(
        db, sleeper.pid, range(5, 10), silent_for=STALE_SECONDS + 1 if how == "silent" else 0
    )

    def kill() -> None:
        sleeper.kill()
        sleeper.wait()

    started = time.monotonic()
    thread = later(1.0 if how == "dies-meanwhile" else 0.0, kill)
    code, out, err = run(
        capsys, "survey", "--deals", "1-20", "--max-states", "2000", "--db", str(db)
    )
    thread.join()
    assert (code, err) == (0, "")
    assert run_counts(out) == (20, 0, 0)  # all 20 solved here, its 5 included
    if how == "dies-meanwhile":
        assert time.monotonic() - started >= 1.0
    assert [v.deal for v in rows(db)] == list(range(1, 21))
    assert claims_left(db) == (0, 0)


def test_two_retries_at_once_share_the_unknowns(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "retries.db"
    argv = ["survey", "--deals", "1-300", "--max-states", "1000", "--db", str(db)]
    assert run(capsys, *argv, "--jobs", "2")[0] == 0
    unknown = {v.deal for v in rows(db) if v.status == "unknown"}
    assert len(unknown) > 50

    retry = [castle_script(), "survey", "retry", "--max-states", "50000", "--db", str(db)]
    ended = at_once(retry)
    retried = []
    for run_ in ended:
        assert (run_.returncode, run_.stderr) == (0, ""), run_.stderr
        match = re.search(r"retry in .*: (\d+) unknown deals in ", run_.stdout)
        assert match is not None, run_.stdout
        retried.append(int(match[1]))
    assert sum(retried) == len(unknown), retried  # each retried once, by one of them
    after = rows(db)
    assert {v.deal for v in after if v.max_states == 50000} <= unknown
    assert claims_left(db) == (0, 0)
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        assert connection.execute("SELECT count(*) FROM claims").fetchone() == (0,)
    connection.close()


# --- retry -------------------------------------------------------------------------------


def test_retry_decides_unknowns_with_a_larger_budget(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "retry.db"
    assert run(capsys, "survey", "--deals", "1-40", "--max-states", "5000", "--db", str(db))[0] == 0
    before = {v.deal: v for v in rows(db)}
    unknown = sorted(d for d, v in before.items() if v.status == "unknown")
    assert len(unknown) >= 3

    # A smaller budget cannot improve on what is stored: nothing changes.
    code, out, _ = run(capsys, "survey", "retry", "--db", str(db), "--max-states", "500")
    assert code == 0
    assert f"{len(unknown)} unknown deals" in out and f"still unknown: {len(unknown)}" in out
    assert {v.deal: v for v in rows(db)} == before

    code, out, err = run(capsys, "survey", "retry", "--db", str(db), "--max-states", "300000")
    assert (code, err) == (0, "")
    after = {v.deal: v for v in rows(db)}
    assert sorted(after) == sorted(before)  # same deals, no new rows
    for deal, v in after.items():
        if deal in unknown:
            assert v.status != "unknown" and v.max_states == 300000
        else:
            assert v == before[deal]  # decided verdicts are final
    assert f"now decided: {sum(after[d].status == 'solved' for d in unknown)} solved" in out
    assert "still unknown: 0" in out
    assert "now holds 40 Beleaguered Castle deals" in out
    check_against_solver([after[d] for d in unknown])

    code, out, _ = run(capsys, "survey", "retry", "--db", str(db), "--max-states", "300000")
    assert code == 0 and "holds no unknown deals: nothing to retry" in out


def test_store_keeps_decided_verdicts_and_the_longest_unknown(tmp_path: Path) -> None:
    def verdict(status: str, states: int) -> Verdict:
        return Verdict("citadel", 9, status, states, 0.5, 0, None, states, None, 2**30, "t")

    with SurveyStore.open(tmp_path / "s.db", create=True) as store:
        store.put([verdict("unknown", 100)])
        store.put([verdict("unknown", 50)])  # searched less: kept out
        assert [v.states for v in store.verdicts()] == [100]
        store.put([verdict("unknown", 400)])  # searched further: replaces
        assert [v.states for v in store.verdicts()] == [400]
        store.put([verdict("solved", 30)])
        store.put([verdict("unknown", 10**6), verdict("unsolvable", 7)])  # decided is final
        assert [(v.status, v.states) for v in store.verdicts()] == [("solved", 30)]
        assert store.count() == store.count("citadel") == 1


# --- report ------------------------------------------------------------------------------


@pytest.fixture
def two_variants(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Path:
    db = tmp_path / "report.db"
    for variant, deals in ((BC, "1-40"), ("citadel", "1-30")):
        argv = ["survey", "--variant", variant, "--deals", deals, "--db", str(db)]
        assert run(capsys, *argv, "--max-states", "10000")[0] == 0
    return db


def test_report_table_and_csv(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, two_variants: Path
) -> None:
    db, table = two_variants, tmp_path / "deals.csv"
    code, out, err = run(capsys, "survey", "report", "--db", str(db), "--csv", str(table))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"{db}: 70 deals"
    assert re.split(r" {2,}", lines[1]) == [
        "variant", "deals", "solved", "unsolvable", "unknown", "winnable", "95% interval",
        "median time", "p99 time", "max time", "median states",
    ]  # fmt: skip
    for variant, name in ((BC, "Beleaguered Castle"), ("citadel", "Citadel")):
        stored = rows(db, variant)
        line = next(line for line in lines if line.startswith(name + " "))
        cells = re.split(r" {2,}", line)
        counts = [sum(v.status == s for v in stored) for s in ("solved", "unsolvable", "unknown")]
        assert cells[:5] == [name, str(len(stored)), *map(str, counts)]
        solved, unsolvable = counts[0], counts[1]
        low, high = wilson_interval(solved, solved + unsolvable)
        assert cells[5] == f"{100 * solved / (solved + unsolvable):.1f}%"
        assert cells[6] == f"{100 * low:.1f}-{100 * high:.1f}%"
        times = distribution(v.seconds for v in stored)
        assert times is not None
        assert cells[-2].endswith(("ms", " s"))
        states = distribution(float(v.states) for v in stored)
        assert states is not None and cells[-1] == f"{states.median:,.0f}"
    assert "95% Wilson interval" in out and "70 rows written to" in out

    with table.open(newline="") as file:
        table_rows = list(csv.reader(file))
    assert tuple(table_rows[0]) == VERDICT_FIELDS
    assert len(table_rows) == 71
    assert [(r[0], int(r[1])) for r in table_rows[1:]] == [
        (v.variant, v.deal) for v in rows(db)
    ]  # by variant, then deal
    for r, v in zip(table_rows[1:], rows(db)):
        assert (r[2], int(r[3]), int(r[5]), r[6], r[10]) == (
            v.status, v.states, v.moves, v.limit_hit or "", v.solved_at
        )  # fmt: skip
        assert float(r[4]) == pytest.approx(v.seconds, abs=1e-6)

    # --status keeps the rows of one verdict: the unknown ones, for the next retry.
    unknown = tmp_path / "unknown.csv"
    code, out, _ = run(
        capsys, "survey", "report", "--db", str(db), "--csv", str(unknown), "--status", "unknown"
    )
    with unknown.open(newline="") as file:
        unknown_rows = list(csv.reader(file))[1:]
    assert [int(r[1]) for r in unknown_rows] == [v.deal for v in rows(db) if v.status == "unknown"]
    assert unknown_rows and code == 0 and f"{len(unknown_rows)} rows written to" in out

    code, out, _ = run(capsys, "survey", "report", "--db", str(db), "--variant", "citadel")
    assert code == 0 and "Citadel" in out and "Beleaguered" not in out
    assert out.splitlines()[0] == f"{db}: 30 deals"
    code, out, _ = run(
        capsys, "survey", "report", "--db", str(db), "--variant", "streets-and-alleys"
    )
    assert code == 0 and "holds no Streets and Alleys deals" in out


def test_report_plot_writes_a_png(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, two_variants: Path
) -> None:
    pytest.importorskip("matplotlib")
    picture = tmp_path / "survey.png"
    code, out, err = run(
        capsys, "survey", "report", "--db", str(two_variants), "--plot", str(picture)
    )
    assert (code, err) == (0, "")
    assert f"plot written to {picture}" in out
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert picture.stat().st_size > 10_000


@pytest.mark.parametrize(
    ("name", "magic"),
    [
        ("s.jpg", b"\xff\xd8\xff"),
        ("s.JPEG", b"\xff\xd8\xff"),
        ("s.svg", b"<?xml"),
        ("s.pdf", b"%PDF"),
    ],
)
def test_report_plot_writes_the_format_its_suffix_names(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    two_variants: Path,
    name: str,
    magic: bytes,
) -> None:
    # --plot s.jpg once wrote PNG bytes under a .jpg name.
    pytest.importorskip("matplotlib")
    picture = tmp_path / name
    code, out, err = run(
        capsys, "survey", "report", "--db", str(two_variants), "--plot", str(picture)
    )
    assert (code, err) == (0, "") and f"plot written to {picture}" in out
    assert picture.read_bytes().startswith(magic)


@pytest.mark.parametrize("name", ["s.xyz", "s", "s.png.bak"])
def test_report_plot_refuses_a_suffix_that_names_no_format(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, two_variants: Path, name: str
) -> None:
    picture, table = tmp_path / name, tmp_path / "rows.csv"
    argv = ["survey", "report", "--db", str(two_variants), "--plot", str(picture)]
    code, out, err = run(capsys, *argv, "--csv", str(table))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("castle: error: --plot ")
    assert ".png, .jpg" in err
    assert not picture.exists() and not table.exists()  # refused before any work


def test_report_status_without_csv_is_refused(
    capsys: pytest.CaptureFixture[str], two_variants: Path
) -> None:
    # --status without --csv was once silently ignored.
    argv = ["survey", "report", "--db", str(two_variants), "--status", "unknown"]
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "--status" in err and "--csv" in err


def test_plot_without_matplotlib_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, two_variants: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    code, out, err = run(capsys, "survey", "report", "--db", str(two_variants), "--plot", "x.png")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("castle: error: ")
    assert "pip install 'castle-solitaire[plot]'" in err
    assert not Path("x.png").exists()


# --- files that are not surveys ----------------------------------------------------------


def survey_file(path: Path, capsys: pytest.CaptureFixture[str], deals: int = 3) -> None:
    """A survey file of deals 1 to ``deals``, solved under a small budget."""
    argv = ["survey", "--deals", f"1-{deals}", "--max-states", "500", "--db", str(path)]
    assert run(capsys, *argv)[0] == 0


#: The files :func:`bad_file` makes, that a command given a castle file of some kind refuses.
BAD_FILES = ["text", "other-sqlite", "damaged", "truncated", "newer", "directory"]


def bad_file(path: Path, bad: str, name: str, make: Callable[[Path], None]) -> str:
    """Make at ``path`` the ``bad`` file (of :data:`BAD_FILES`) where a castle ``name`` file
    is wanted; ``make`` makes a good one, of more than three pages (to spoil). Returns what
    the refusal says."""
    if bad == "text":
        path.write_text("variant,deal\nciteadel,1\n")
        return f"not a castle {name} file (not an SQLite database)"
    if bad == "other-sqlite":
        with sqlite3.connect(path) as connection:
            connection.execute("CREATE TABLE notes (text TEXT)")
        connection.close()
        return f"an SQLite database but not a castle {name} file"
    if bad == "directory":
        path.mkdir()
        return "is a directory"
    make(path)
    if bad == "newer":
        with sqlite3.connect(path) as connection:
            connection.execute(f"UPDATE castle_{name} SET schema_version = 99")
        connection.close()
        return "schema version 99"
    data = path.read_bytes()
    assert len(data) > 3 * 4096
    if bad == "damaged":
        path.write_bytes(data[: 2 * 4096] + b"\xff" * 4096 + data[3 * 4096 :])
    else:
        assert bad == "truncated", bad
        path.write_bytes(data[: 3 * 4096 - 100])
    return "damaged"


def refused_and_left_alone(
    capsys: pytest.CaptureFixture[str], path: Path, needle: str, *argv: str
) -> None:
    """``castle argv`` refuses the file at ``path``: exit 2, one line that says ``needle``,
    no traceback, the file as it was."""
    before = None if path.is_dir() else path.read_bytes()
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("castle: error: "), err
    assert needle in err and "Traceback" not in err
    assert (None if path.is_dir() else path.read_bytes()) == before


@pytest.fixture(params=BAD_FILES)
def bad_db(
    request: pytest.FixtureRequest, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[Path, str]:
    path = tmp_path / "bad.db"
    return path, bad_file(path, request.param, "survey", lambda p: survey_file(p, capsys, 200))


@pytest.mark.parametrize(
    "command",
    [
        ["survey", "--deals", "1-3", "--db"],
        ["survey", "retry", "--max-states", "1000", "--db"],
        ["survey", "report", "--db"],
    ],
    ids=["run", "retry", "report"],
)
def test_not_a_survey_is_one_line_exit_2_and_left_alone(
    capsys: pytest.CaptureFixture[str], bad_db: tuple[Path, str], command: list[str]
) -> None:
    refused_and_left_alone(capsys, *bad_db, *command, str(bad_db[0]))


def test_missing_or_empty_file_for_report_and_retry(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing, empty = tmp_path / "missing.db", tmp_path / "empty.db"
    empty.touch()
    for command in ("report", "retry"):
        code, _, err = run(capsys, "survey", command, "--db", str(missing))
        assert code == 2 and "no survey file" in err
        code, _, err = run(capsys, "survey", command, "--db", str(empty))
        assert code == 2 and "is empty" in err
    assert not missing.exists() and empty.read_bytes() == b""
    # A run may start a survey in an empty file (a fresh mktemp, say).
    assert run(capsys, "survey", "--deals", "1-2", "--db", str(empty))[0] == 0
    with pytest.raises(SurveyError, match="no directory"):
        SurveyStore.open(tmp_path / "no" / "such.db", create=True)


def refused_making_nothing(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    """``castle argv``, run in an empty folder, refuses its arguments: exit 2, one line that
    says ``needle``, no file made in the folder."""
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and needle in err, err
    assert list(Path.cwd().iterdir()) == []


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["survey", "--deals", "5-1", "--db", "x.db"], "--deals"),
        (["survey", "--deals", "1-3"], "--db"),
        (["survey", "--db", "x.db"], "--deals"),
        (["survey", "--deals", "1-3", "--db", "x.db", "--max-states", "0"], "--max-states"),
        (["survey", "retry", "--db", "x.db", "--max-seconds", "-1"], "--max-seconds"),
        (["survey", "report", "--db", "x.db", "--variant", "nope"], "unknown variant"),
        (["survey", "report"], "--db"),
    ],
)
def test_bad_arguments(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    argv: list[str],
    needle: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    refused_making_nothing(capsys, argv, needle)


def test_help_names_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "survey", "--help")
    assert code == 0
    for word in ("retry", "report", "--db", "resume"):
        assert word in out


def test_a_rate_that_is_not_whole_is_never_shown_as_0_or_100_percent() -> None:
    # Eight FreeCell deals lost in a million, and its interval's upper end.
    assert format_percent(999_992 / 1_000_000) == "99.999%"
    assert format_percent(0.999996) == "99.9996%"
    assert format_percent(1 / 100_000) == "0.001%"
    assert (format_percent(1.0), format_percent(0.0), format_percent(0.5123)) == (
        "100.0%",
        "0.0%",
        "51.2%",
    )
