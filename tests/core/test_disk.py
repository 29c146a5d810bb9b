"""--spill-dir: a proof larger than --max-memory goes on in files (the layers' runs and levels
on disk), position for position the search it would be in memory; --max-disk and a nearly
full disk stop it with "unknown (disk)", and nothing is left behind."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import castle
import castle_lab
import pytest
from castle.cli import main
from castle.errors import LimitError
from processes import finish

MIB = 2**20


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("variant", "number"), [("beleaguered-castle", 162), ("streets-and-alleys", 68)]
)
def test_on_disk_the_layers_expand_the_same_positions(
    tmp_path: Path, variant: str, number: int
) -> None:
    # The complete pass in layers from its first position: in memory unbounded, in 1.5 MiB
    # alone (the bound stops it), and in 1.5 MiB with disk (the same end, to the position).
    deal = castle.Deal.from_number(variant, number).core
    free = castle_lab.complete_pass(deal, None, 1)
    assert free[0] == "unsolvable"
    alone = castle_lab.complete_pass(deal, None, 1, 3 * MIB // 2)
    assert (alone[0], alone[3]) == ("unknown", "memory")
    assert castle_lab.complete_pass(deal, None, 1, 3 * MIB // 2, tmp_path) == free
    assert list(tmp_path.iterdir()) == []


def test_solve_with_a_spill_dir_proves_what_memory_alone_cannot(tmp_path: Path) -> None:
    # Deal 2570: in 1 MiB the orbit pass after the quick pass runs out of memory before its
    # proof (32k orbits), and so does the complete pass's table; its layers prove it on disk.
    deal = castle.Deal.from_number("beleaguered-castle", 2570)
    alone = castle.solve(deal, max_memory=MIB)
    assert (alone.status, alone.limit) == ("unknown", "memory")
    spilled = castle.solve(deal, max_memory=MIB, spill_dir=tmp_path)
    assert (spilled.status, spilled.limit) == ("unsolvable", None)
    assert list(tmp_path.iterdir()) == []
    # A bound the files pass: unknown, the disk named, nothing left.
    bounded = castle.solve(deal, max_memory=MIB, spill_dir=str(tmp_path), max_disk=MIB)
    assert (bounded.status, bounded.limit) == ("unknown", "disk")
    assert list(tmp_path.iterdir()) == []


def test_bad_spill_arguments_are_clear_errors(tmp_path: Path) -> None:
    deal = castle.Deal.from_number("beleaguered-castle", 1)
    a_file = tmp_path / "file"
    a_file.write_text("")
    cases = [
        ({"spill_dir": tmp_path / "missing"}, "spill_dir is not a directory"),
        ({"spill_dir": a_file}, "spill_dir is not a directory"),
        ({"spill_dir": 3}, "spill_dir must be a directory's path"),
        ({"max_disk": 8 * MIB}, "max_disk needs a spill_dir"),
        ({"spill_dir": tmp_path, "max_disk": 10}, "max_disk must be between 1 MiB and 1 PiB"),
        ({"spill_dir": tmp_path, "max_disk": True}, "max_disk must be"),
    ]
    for kwargs, words in cases:
        with pytest.raises(LimitError, match=words):
            castle.solve(deal, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(LimitError, match="not offered for Spider"):
        castle.solve(castle.SpiderDeal.from_number("spider", 1), spill_dir=tmp_path)  # type: ignore[call-overload]


def test_the_cli_solves_and_surveys_with_a_spill_dir(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spill = tmp_path / "spill"
    spill.mkdir()
    limits = ["--max-memory", "1M", "--spill-dir", str(spill)]
    code, out, _ = run(capsys, "solve", "--deal", "2570", "--json", *limits)
    answer = json.loads(out)
    assert (code, answer["status"]) == (0, "unsolvable")
    code, out, _ = run(capsys, "solve", "--deal", "2570", *limits, "--max-disk", "1M")
    assert code == 0
    assert "stopped at the disk limit; raise --max-disk or free space in --spill-dir" in out
    code, out, _ = run(capsys, "solve", "--deal", "2570", "--max-memory", "1M")
    assert "raise --max-memory or give --spill-dir to search further" in out
    db = tmp_path / "survey.db"
    code, out, _ = run(capsys, "survey", "--deals", "2569-2570", "--db", str(db), *limits)
    assert code == 0 and "disk in" in out, out
    code, out, _ = run(capsys, "survey", "report", "--db", str(db))
    assert code == 0 and "unsolvable" in out
    assert list(spill.iterdir()) == []


def test_bad_spill_flags_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cases = [
        (["--spill-dir", str(tmp_path / "missing")], "--spill-dir: is not a directory"),
        (["--max-disk", "1G"], "--max-disk goes with --spill-dir"),
        (["--spill-dir", str(tmp_path), "--max-disk", "12"], "--max-disk: must be between"),
        (["--spill-dir", str(tmp_path), "--max-disk", "lots"], "--max-disk: not a size"),
        (["--variant", "spider", "--spill-dir", str(tmp_path)], "not offered for Spider"),
    ]
    for flags, words in cases:
        code, out, err = run(capsys, "solve", "--deal", "1", *flags)
        assert code == 2 and out == "", (flags, out)
        assert err.count("\n") == 1 and words in err, (flags, err)


def test_sigterm_stops_a_solve_and_its_files_go(tmp_path: Path) -> None:
    # A single `castle solve` killed by SIGTERM (a service manager, a batch system's limit)
    # while its layers are on disk: it stops as Ctrl+C would stop it, with exit 143 and a
    # one-line message, and its spill directory goes with it.
    command = [sys.executable, "-m", "castle", "solve", "--deal", "26984"]
    limits = ["--max-memory", "16M", "--spill-dir", str(tmp_path)]
    solver = subprocess.Popen(
        [*command, *limits], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 120
        while not any(d.is_dir() and any(d.iterdir()) for d in tmp_path.iterdir()):
            assert solver.poll() is None and time.monotonic() < deadline, "no files written"
            time.sleep(0.1)
        solver.send_signal(signal.SIGTERM)
        out, err = finish(solver, 60)
    finally:
        solver.kill()
    assert solver.returncode == 143, (out, err)
    assert "Traceback" not in err and err.count("\n") <= 1, err
    assert list(tmp_path.iterdir()) == []
