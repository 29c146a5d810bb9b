"""``castle survey`` on a Dask cluster: the rows of the local survey, a worker killed
mid-survey, Ctrl+C and resuming either way, and a machine without Dask.

The clusters are Dask LocalClusters of 2 single-threaded worker processes. State budgets
(not seconds) keep every verdict deterministic, so rows solved on the cluster can be compared
with rows solved locally.
"""

from __future__ import annotations

import gc
import logging
import os
import re
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import castle
import dask
import distributed as distributed_module
import pytest
from castle.cli import cluster as cluster_module
from castle.cli import main
from castle.cli.cluster import DASK_CHUNKS
from processes import finish

from .test_survey import BC, castle_script, check_against_solver, rows, run, stored_count

#: Dask distributed has no type hints: used through Any.
distributed: Any = distributed_module

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def local_cluster() -> Any:
    return distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address="127.0.0.1:0",
        silence_logs=logging.ERROR,
    )


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with local_cluster() as cluster:
        yield cluster


def essence(db: Path) -> list[tuple[object, ...]]:
    """A survey's rows without what differs run to run (seconds, when written)."""
    return [v[:4] + v[5:10] for v in rows(db)]


def worker_pids(client: Any, count: int = 2) -> dict[str, int]:
    """The worker processes, once ``count`` are up (a killed one is restarted)."""
    client.wait_for_workers(count, timeout=60)
    pids: dict[str, int] = client.run(os.getpid)
    return pids


def wait_for_rows(db: Path, process: subprocess.Popen[str], rows_wanted: int = 1) -> None:
    deadline = time.monotonic() + 60
    while stored_count(db) < rows_wanted and process.poll() is None:
        assert time.monotonic() < deadline, "the survey stored nothing within 60 s"
        time.sleep(0.01)


def kill_a_busy_worker(client: Any, pids: dict[str, int], process: subprocess.Popen[str]) -> None:
    """SIGKILL a worker process that holds chunks now (between two chunks none may)."""
    deadline = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < deadline:
        busy = [worker for worker, keys in client.processing().items() if keys]
        if busy:
            os.kill(pids[busy[0]], signal.SIGKILL)
            return
        time.sleep(0.005)
    pytest.fail("no worker held a chunk while the survey ran")


# --- the same rows -----------------------------------------------------------------------


def test_a_dask_survey_stores_the_rows_of_a_local_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, cluster: Any
) -> None:
    address = cluster.scheduler_address
    local, on_dask = tmp_path / "local.db", tmp_path / "dask.db"
    deals = ["--deals", "1-150", "--max-states", "30000"]
    assert run(capsys, "survey", *deals, "--jobs", "2", "--db", str(local))[0] == 0
    code, out, err = run(capsys, "survey", *deals, "--scheduler", address, "--db", str(on_dask))
    assert (code, err) == (0, "")
    assert re.search(rf": 150 new deals in .*, Dask {address}, 2 threads \(", out), out
    assert essence(on_dask) == essence(local)
    statuses = {v.status for v in rows(on_dask)}
    assert statuses == {"solved", "unsolvable", "unknown"}  # every kind of row compared

    # Retrying the unknowns on the cluster also stores what a local retry does.
    retry = ["survey", "retry", "--max-states", "300000"]
    assert run(capsys, *retry, "--db", str(local), "--jobs", "2")[0] == 0
    code, out, err = run(capsys, *retry, "--db", str(on_dask), "--scheduler", address)
    assert (code, err) == (0, "")
    assert essence(on_dask) == essence(local)
    assert "now decided: " in out
    check_against_solver(rows(on_dask), every=7)


@pytest.mark.slow
def test_the_limits_and_the_spill_directory_reach_the_workers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, cluster: Any
) -> None:
    # A proof too large for the memory bound goes on in files on the worker; the CPU time
    # limit stops the other deal there.
    db, spill = tmp_path / "spill.db", tmp_path / "spill"
    spill.mkdir()
    argv = ["survey", "--deals", "2570,26984", "--max-memory", "1M", "--spill-dir", str(spill)]
    argv += ["--max-cpu-seconds", "3", "--scheduler", cluster.scheduler_address]
    code, out, err = run(capsys, *argv, "--db", str(db))
    assert (code, err) == (0, ""), err
    assert "limits per deal: 3 s of CPU, 1 MiB of memory, disk in " in out, out
    stored = {v.deal: v for v in rows(db)}
    assert (stored[2570].status, stored[2570].limit_hit) == ("unsolvable", None)
    assert (stored[26984].status, stored[26984].limit_hit) == ("unknown", "cpu-seconds")
    assert all(v.max_cpu_seconds == 3 and v.max_memory == 1 << 20 for v in stored.values())
    # The search a local solve under the same bound makes: the orbit pass and the table full,
    # then the layers, in files past 1 MiB.
    here = castle.solve(castle.Deal.from_number(BC, 2570), max_memory=1 << 20, spill_dir=spill)
    assert (here.status, here.states) == ("unsolvable", stored[2570].states)
    without_disk = castle.solve(castle.Deal.from_number(BC, 2570), max_memory=1 << 20)
    assert (without_disk.status, without_disk.limit) == ("unknown", "memory")
    assert list(spill.iterdir()) == []  # each search's directory went with it


def test_dask_local_starts_its_own_cluster(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "local-cluster.db"
    argv = ["survey", "--variant", "citadel", "--deals", "1-40", "--max-states", "5000"]
    code, out, err = run(capsys, *argv, "--dask-local", "2", "--db", str(db))
    assert (code, err) == (0, "")
    assert "40 new deals in " in out and "Dask LocalCluster (2 workers), 2 threads" in out
    assert [v.deal for v in rows(db)] == list(range(1, 41))
    check_against_solver(rows(db), every=5)


# --- faults ------------------------------------------------------------------------------


def survey_killing_a_worker(
    cluster: Any, db: Path
) -> tuple[list[str], subprocess.CompletedProcess[str], set[int]]:
    """Survey 600 deals on ``cluster`` and SIGKILL a busy worker once rows come back: the
    command, how it ended, and the worker processes that are new afterwards."""
    argv = [castle_script(), "survey", "--deals", "1-600", "--max-states", "100000"]
    argv += ["--scheduler", cluster.scheduler_address, "--db", str(db)]
    with distributed.Client(cluster) as client:
        before = worker_pids(client)
        with subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        ) as process:
            # Past the first rows, chunks carry half a second each: a busy worker stays busy
            # until the kill lands (the first chunks hold one quick deal).
            wait_for_rows(db, process, 50)
            kill_a_busy_worker(client, before, process)
            out, err = finish(process, 120)
        after = worker_pids(client)
    ended = subprocess.CompletedProcess(argv, process.returncode, out, err)
    return argv, ended, set(after.values()) - set(before.values())


@pytest.mark.slow
def test_a_worker_killed_mid_survey_loses_only_its_chunk(tmp_path: Path, cluster: Any) -> None:
    db = tmp_path / "killed.db"
    _, ended, restarted = survey_killing_a_worker(cluster, db)
    assert ended.returncode == 0, ended.stderr
    assert "600 new deals" in ended.stdout
    assert len(restarted) == 1  # one died, and its nanny started it again
    stored = rows(db)
    assert [v.deal for v in stored] == list(range(1, 601))  # its chunks were solved again
    check_against_solver(stored, every=29)


@pytest.mark.slow
def test_a_chunk_that_keeps_killing_workers_is_left_for_the_next_run(tmp_path: Path) -> None:
    # With no failures allowed, the chunks on a killed worker are given up at once: they stay
    # unstored, the rest of the survey completes, and the next run solves just those.
    db = tmp_path / "given-up.db"
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), local_cluster() as lc:
        argv, ended, _ = survey_killing_a_worker(lc, db)
        assert ended.returncode == 1, ended
        match = re.search(
            r"castle: error: deals ([\d, ]+).* killed their Dask workers", ended.stderr
        )
        assert match is not None, ended.stderr
        kept = stored_count(db)
        assert 0 < kept < 600
        missing = sorted(set(range(1, 601)) - {v.deal for v in rows(db)})
        listed = [int(n) for n in match[1].replace(" ", "").split(",") if n]
        assert listed == missing[:20]  # the deals given up, named (the first 20)

        again = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert f"{600 - kept:,} new deals" in again.stdout
    assert [v.deal for v in rows(db)] == list(range(1, 601))


def test_a_lost_scheduler_ends_the_run_with_what_it_found(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cluster_module, "_CONNECT_SECONDS", 2)  # how long it tries again
    db = tmp_path / "lost.db"
    lc = local_cluster()
    argv = ["survey", "--deals", "1-3000", "--max-states", "50000", "--db", str(db)]
    argv += ["--scheduler", lc.scheduler_address]
    codes: list[int] = []
    survey = threading.Thread(target=lambda: codes.append(main(argv)))
    survey.start()
    deadline = time.monotonic() + 60
    while stored_count(db) < 1 and survey.is_alive():
        assert time.monotonic() < deadline
        time.sleep(0.01)
    lc.close()  # the scheduler and its workers go
    survey.join(60)
    out, err = capsys.readouterr()
    assert codes == [1], (out, err)
    assert "castle: error: the Dask scheduler was lost" in err and "Traceback" not in err
    kept = stored_count(db)
    assert f"stopped after {kept:,} of 3,000 new deals" in out


@pytest.mark.slow
@pytest.mark.parametrize("resume_with", ["--dask-local", "--jobs"])
def test_ctrl_c_then_resume_redoes_nothing(tmp_path: Path, resume_with: str) -> None:
    db = tmp_path / "stop.db"
    survey = [castle_script(), "survey", "--deals", "1-3000", "--max-states", "2000"]
    survey += ["--db", str(db)]
    with subprocess.Popen(
        [*survey, "--dask-local", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as process:
        wait_for_rows(db, process, 100)
        os.killpg(process.pid, signal.SIGINT)  # as a terminal does: workers get it too
        out, err = finish(process, 60)
    assert process.returncode == 130, err
    assert "Traceback" not in err, err
    kept = stored_count(db)
    assert 0 < kept < 3000
    assert f"interrupted after {kept:,} of 3,000 new deals" in out
    first = rows(db)

    resumed = subprocess.run(
        [*survey, resume_with, "2"], capture_output=True, text=True, timeout=120
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"{3000 - kept:,} new deals" in resumed.stdout
    assert f"{kept:,} stored already" in resumed.stdout
    stored = rows(db)
    assert [v.deal for v in stored] == list(range(1, 3001))
    by_deal = {v.deal: v for v in stored}
    assert [by_deal[v.deal] for v in first] == first  # untouched, timestamps included
    check_against_solver(stored, every=101)


# --- without Dask, and bad flags -----------------------------------------------------------


def test_without_dask_the_flags_say_what_to_install(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    db = tmp_path / "no-dask.db"
    for flag in (["--dask-local", "2"], ["--scheduler", "tcp://127.0.0.1:8786"]):
        code, out, err = run(capsys, "survey", "--deals", "1-5", "--db", str(db), *flag)
        assert code == 2 and out == ""
        assert "need Dask distributed: pip install 'castle-solitaire[cluster]'" in err
        assert not db.exists()  # refused before anything was written
    code, out, err = run(capsys, "survey", "--deals", "1-5", "--db", str(db), "--jobs", "2")
    assert (code, err) == (0, "") and "5 new deals" in out  # the local survey as before


def test_a_scheduler_that_does_not_answer_is_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cluster_module, "_CONNECT_SECONDS", 1)
    db = str(tmp_path / "x.db")
    for address, says in [
        ("tcp://127.0.0.1:9", "cannot connect: Timed out"),
        ("nonsense:::", "invalid address"),
    ]:
        code, out, err = run(capsys, "survey", "--deals", "1-5", "--db", db, "--scheduler", address)
        assert code == 2 and out == ""
        assert err.startswith(f"castle: error: --scheduler {address}: ") and says in err, err
        assert len(err.splitlines()) == 1


def test_a_client_is_made_only_after_leftover_objects_are_collected() -> None:
    # A Dask client left unclosed (a connection that failed, as in the test above) closes
    # itself when the collector frees it, taking the lock a new client's IO loop start holds:
    # freed inside that start, it waits on the lock forever. A leftover only the collector
    # can free (a reference cycle) must be gone before a client is made, whenever the
    # collector would have run on its own.
    class Leftover:
        def __init__(self) -> None:
            self.me = self

    freed: list[int] = []
    seen: list[list[int]] = []

    class Dask:
        @staticmethod
        def Client(address: str, **options: Any) -> str:
            seen.append(list(freed))
            return f"client of {address}"

    collecting = gc.isenabled()
    gc.disable()
    try:
        leftover = Leftover()
        weakref.finalize(leftover, freed.append, 1)
        del leftover
        assert freed == []  # only the collector can free it
        assert cluster_module._client(Dask, "tcp://x:1") == "client of tcp://x:1"
    finally:
        if collecting:
            gc.enable()
    assert seen == [[1]]


def test_a_client_whose_io_loop_starts_late_is_tried_again(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    cluster: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # On a loaded machine Dask's client can miss the 10 s it gives its IO loop thread to
    # start, and then fails an ``assert`` (seen once in CI): stood in for here.
    real_client = distributed.Client
    misses: list[int] = []

    def client(*args: Any, **kwargs: Any) -> Any:
        if len(misses) < misses_wanted:
            misses.append(1)
            raise AssertionError  # as distributed.utils.LoopRunner does
        return real_client(*args, **kwargs)

    monkeypatch.setattr(distributed, "Client", client)
    db = tmp_path / "late.db"
    survey = ["survey", "--db", str(db), "--scheduler", cluster.scheduler_address]
    misses_wanted = 2  # the third try starts: the survey goes on
    # The real client's own start may miss too on a loaded runner (CI on two cores did once,
    # after the two stood-in misses): it gets tries of its own here, not just the last one.
    tries = cluster_module._CLIENT_TRIES
    monkeypatch.setattr(cluster_module, "_CLIENT_TRIES", tries + 2)
    code, out, err = run(capsys, *survey, "--deals", "1-5")
    assert (code, err, len(misses)) == (0, "", 2) and "5 new deals" in out
    assert stored_count(db) == 5

    monkeypatch.setattr(cluster_module, "_CLIENT_TRIES", tries)
    misses.clear()
    misses_wanted = 99  # never: one line, exit 2, nothing stored
    code, out, err = run(capsys, *survey, "--deals", "6-9")
    assert code == 2 and out == "" and len(misses) == 3
    assert err == (
        "castle: error: Dask's IO loop did not start in 3 tries of 10 s: the machine is too busy\n"
    )
    assert stored_count(db) == 5


def test_workers_with_another_castle_are_refused(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    cluster: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Another build could give other verdicts: the versions must match before any deal goes.
    monkeypatch.setattr(castle, "__version__", "0.0.0+other")
    db = tmp_path / "versions.db"
    argv = ["survey", "--deals", "1-5", "--db", str(db), "--scheduler", cluster.scheduler_address]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert re.fullmatch(
        r"castle: error: Dask worker tcp://\S+ runs castle \S+, this client 0\.0\.0\+other: "
        r"install the same castle everywhere\n",
        err,
    ), err
    assert stored_count(db) == 0


def test_one_place_to_solve(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "x.db")
    for flags in (["--jobs", "2", "--dask-local", "2"], ["--dask-local", "2", "--scheduler", "x"]):
        code, _, err = run(capsys, "survey", "--deals", "1-5", "--db", db, *flags)
        assert code == 2 and "not allowed with argument" in err
    code, _, err = run(capsys, "survey", "retry", "--db", db, "--dask-local", "0")
    assert code == 2 and "--dask-local" in err


def test_chunks_carry_half_a_second_of_deals_but_never_starve_the_end() -> None:
    assert DASK_CHUNKS.size(None, 10_000, 4) == 1  # no timings yet
    assert DASK_CHUNKS.size(0.001, 100_000, 4) == 500  # half a second of 1 ms deals
    assert DASK_CHUNKS.size(0.0, 100_000, 4) == 1000  # the most a chunk holds
    assert DASK_CHUNKS.size(2.0, 100_000, 4) == 1  # a slow deal travels alone
    assert DASK_CHUNKS.size(0.001, 80, 4) == 5  # the last 80 shared by 4 threads, 4 chunks each
