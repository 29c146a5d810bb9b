"""A long solve says how it is going: ``solve(..., progress=)`` is called about once a second
with the states, the time and the memory held, and ``castle solve`` on a terminal shows them
in a line on stderr that goes when the answer comes."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import castle
import pytest
from castle import _core
from cli.test_solve import castle_script

#: A proof of 3.4 million states (the orbit pass after the quick pass leaves it; 1478, a
#: million, ended before the first report on a quiet machine): several seconds.
PROOF = ("beleaguered-castle", 9817)


def test_progress_reports_states_time_and_memory_as_they_grow() -> None:
    deal = castle.Deal.from_number(*PROOF)
    seen: list[tuple[int, float, int, int]] = []
    answer = _core.solve(
        deal.core,
        None,
        None,
        castle.DEFAULT_MAX_MEMORY,
        progress=lambda *at: seen.append(at),
        progress_seconds=0.02,
    )
    assert answer[0] == "unsolvable" and len(seen) >= 3, seen
    states = [s for s, _, _, _ in seen]
    seconds = [t for _, t, _, _ in seen]
    assert states == sorted(states) and seconds == sorted(seconds)
    assert 0 < states[-1] <= answer[2]
    # A report can fall between two passes, when the search holds next to nothing (it has
    # come as low as 186 kB): memory grows while a pass runs, but is not above 0 at every report.
    memory = [m for _, _, m, _ in seen]
    assert min(memory) >= 0 and max(memory) > 1 << 20, memory
    assert all(disk == 0 for _, _, _, disk in seen), seen


def test_an_exception_in_progress_stops_the_search_and_is_raised() -> None:
    class Enough(Exception):
        pass

    reports: list[castle.Progress] = []

    def stop(p: castle.Progress) -> None:
        reports.append(p)
        raise Enough

    started = time.monotonic()
    with pytest.raises(Enough):
        castle.solve(castle.Deal.from_number(*PROOF), progress=stop)
    assert len(reports) == 1 and isinstance(reports[0], castle.Progress)
    assert reports[0].states > 0 and 0.9 < reports[0].seconds < 10
    assert time.monotonic() - started < 30
    with pytest.raises(TypeError, match="progress must be callable"):
        castle.solve(castle.Deal.from_number(*PROOF), progress=3)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="progress_seconds"):
        _core.solve(
            castle.Deal.from_number(*PROOF).core,
            1,
            None,
            2**30,
            progress=print,
            progress_seconds=0.0,
        )


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_castle_solve_on_a_terminal_shows_progress_until_the_answer() -> None:
    # As a person runs it: stdout and stderr a terminal. The line of progress comes while it
    # searches, and the verdict after it.
    leader, follower = pty.openpty()
    variant, number = PROOF
    argv = [castle_script(), "solve", "--variant", variant, "--deal", str(number)]
    env = {**os.environ, "COLUMNS": "160", "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    with subprocess.Popen(argv, stdout=follower, stderr=follower, env=env) as process:
        os.close(follower)
        screen = b""
        while True:
            ready, _, _ = select.select([leader], [], [], 60)
            if not ready:
                break
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            screen += chunk
        assert process.wait(timeout=60) == 0
    os.close(leader)
    # Colours and cursor moves left out: the words as a person sees them.
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen.decode("utf-8", "replace"))
    assert f"solving Beleaguered Castle deal {number}:" in text, text
    assert " states, " in text and re.search(r"\d MiB held \(Ctrl\+C stops\)", text), text
    # The answer comes after the progress, which is gone (rich clears its line).
    assert text.rindex(f"Beleaguered Castle deal {number}: unsolvable") > text.rindex("solving")


def test_progress_counts_the_spill_files(tmp_path: Path) -> None:
    # In 1 MiB neither the orbit pass nor the table proves deal 2570: its layers go on disk.
    deal = castle.Deal.from_number("beleaguered-castle", 2570)
    seen: list[tuple[int, float, int, int]] = []
    answer = _core.solve(
        deal.core,
        None,
        None,
        2**20,
        spill_dir=tmp_path,
        progress=lambda *at: seen.append(at),
        progress_seconds=0.02,
    )
    assert answer[0] == "unsolvable"
    assert any(disk > 0 for _, _, _, disk in seen), seen
    assert all(memory <= 1.25 * 2**20 for _, _, memory, _ in seen), seen


def test_castle_solve_off_a_terminal_prints_no_progress(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from castle.cli import main

    assert main(["solve", "--deal", "162"]) == 0
    out, err = capsys.readouterr()
    assert "unsolvable" in out and err == ""
