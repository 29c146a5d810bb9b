"""The ``castle`` command line: output formats, batches, statistics and bad input.

Solutions themselves are verified elsewhere; here only their format and consistency.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import castle
import pytest
from castle.cli import main
from castle.cli.report import BatchSummary, DealResult
from castle.surveys.stats import wilson_interval
from processes import finish

MOVE_LINE = re.compile(r"^ +(\d+)\. (\S\S)  column (\d) (?:→|->) (column (\d)|foundation)$")
JSON_KEYS = ["variant", "deal", "status", "moves", "states", "seconds"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def castle_script() -> str:
    script = shutil.which("castle", path=os.path.dirname(sys.executable)) or shutil.which("castle")
    if script is None:
        pytest.skip("the castle console script is not installed")
    return script


def check_json_solution(obj: dict[str, object]) -> None:
    assert list(obj)[: len(JSON_KEYS)] == JSON_KEYS
    assert set(obj) - set(JSON_KEYS) <= {"limit"}
    assert obj["status"] in ("solved", "unsolvable", "unknown")
    assert isinstance(obj["states"], int) and not isinstance(obj["states"], bool)
    assert isinstance(obj["seconds"], float) or obj["seconds"] == 0
    assert isinstance(obj["moves"], list)
    for move in obj["moves"]:
        assert list(move) == ["card", "from", "to"]
        assert re.fullmatch(r"[A2-9TJQK][CDHS]", move["card"])
        assert isinstance(move["from"], int) and 0 <= move["from"] <= 7
        assert move["to"] == "foundation" or (isinstance(move["to"], int) and 0 <= move["to"] <= 7)


# --- JSON -----------------------------------------------------------------------------


def test_json_is_one_line_in_the_documented_format(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", "--deal", "2", "--json")
    assert (code, err) == (0, "")
    assert out.endswith("\n") and out.count("\n") == 1
    assert out.startswith(
        '{"variant": "beleaguered-castle", "deal": 2, "status": "solved", "moves": [{"card": '
    )
    obj = json.loads(out)
    check_json_solution(obj)
    assert "limit" not in obj
    moves = obj["moves"]
    assert any(m["to"] == "foundation" for m in moves)
    assert any(isinstance(m["to"], int) for m in moves)
    assert any(m["from"] == 0 for m in moves)  # 0-based: column 1 appears as 0
    deal = castle.Deal.from_number("beleaguered-castle", 2)
    expected = castle.solve(deal).to_json(deal)
    assert {**obj, "seconds": None} == {**expected, "seconds": None}


def test_json_unknown_keeps_limit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "--deal", "5", "--max-states", "1000", "--json")
    obj = json.loads(out)
    check_json_solution(obj)
    assert (code, obj["status"], obj["limit"], obj["moves"]) == (0, "unknown", "states", [])
    assert obj["states"] == 1000


def test_short_reaches_single_deals_and_batches(capsys: pytest.CaptureFixture[str]) -> None:
    deal = castle.Deal.from_number("beleaguered-castle", 2)
    short = castle.solve(deal, short=True)
    _, out, _ = run(capsys, "solve", "--deal", "2", "--short", "--json")
    assert json.loads(out)["moves"] == [m.to_json() for m in short.moves]
    code, out, _ = run(capsys, "solve", "--deals", "2-3", "--short", "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and lines[0]["moves"] == [m.to_json() for m in short.moves]
    assert len(short.moves) < len(castle.solve(deal).moves)


# --- people's output -----------------------------------------------------------------


def test_human_moves_match_json(capsys: pytest.CaptureFixture[str]) -> None:
    # Every move of a long solution is printed, numbered 1..n.
    _, out, _ = run(capsys, "solve", "--deal", "19", "--json")
    moves = json.loads(out)["moves"]
    code, out, err = run(capsys, "solve", "--deal", "19")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Beleaguered Castle deal 19: solved"
    assert f"{len(moves):,} moves" in lines[2]
    assert "\x1b[" not in out  # not a terminal: no colour
    printed = [MOVE_LINE.match(line) for line in lines[3:]]
    assert all(printed) and len(printed) == len(moves) > 100
    for number, (match, move) in enumerate(zip(printed, moves), 1):
        assert match is not None
        assert int(match[1]) == number
        assert match[2] == move["card"]
        assert int(match[3]) == move["from"] + 1  # 1-based for people
        if move["to"] == "foundation":
            assert match[4] == "foundation"
        else:
            assert int(match[5]) == move["to"] + 1


def test_human_unsolvable_and_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "--deal", "1")
    assert code == 0
    assert out.splitlines()[0] == "Beleaguered Castle deal 1: unsolvable"
    states = castle.solve(castle.Deal.from_number("beleaguered-castle", 1)).states
    assert f"{states:,} states" in out
    assert not any(MOVE_LINE.match(s) for s in out.splitlines())
    code, out, _ = run(capsys, "solve", "--deal", "5", "--max-states", "1000")
    assert code == 0
    assert out.splitlines()[0] == "Beleaguered Castle deal 5: unknown"
    assert "--max-states" in out and "1,000 states" in out


def test_colour_only_when_allowed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")  # rich gives a dumb terminal no colour
    monkeypatch.setenv("FORCE_COLOR", "1")
    _, out, _ = run(capsys, "solve", "--deal", "1")
    assert "\x1b[1;31munsolvable" in out
    monkeypatch.setenv("NO_COLOR", "1")
    _, out, _ = run(capsys, "solve", "--deal", "1")
    assert "31m" not in out


# --- files and stdin -----------------------------------------------------------------


def test_board_file_and_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    text = castle.Deal.from_number("beleaguered-castle", 2).to_text()
    board = tmp_path / "board.txt"
    board.write_text(text)
    code, out, _ = run(capsys, "solve", str(board), "--json")
    from_file = json.loads(out)
    check_json_solution(from_file)
    assert (code, from_file["deal"], from_file["variant"]) == (0, None, "beleaguered-castle")
    assert from_file["status"] == "solved"

    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code, out, _ = run(capsys, "solve", "-", "--json")
    assert code == 0 and json.loads(out)["moves"] == from_file["moves"]

    code, out, _ = run(capsys, "solve", str(board))
    assert code == 0
    assert out.splitlines()[0] == f"Beleaguered Castle board from {board}: solved"


def test_variant_option_reaches_board_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    board = tmp_path / "citadel.txt"
    board.write_text(castle.Deal.from_number("citadel", 3).to_text())
    _, out, _ = run(capsys, "solve", str(board), "--json")
    assert json.loads(out)["variant"] == "beleaguered-castle"  # the text alone cannot tell
    code, out, _ = run(capsys, "solve", str(board), "--variant", "citadel", "--json")
    assert code == 0 and json.loads(out)["variant"] == "citadel"


# --- batches -------------------------------------------------------------------------


def read_csv(path: Path) -> list[list[str]]:
    with path.open(newline="") as file:
        return list(csv.reader(file))


def test_batch_summary_and_csv(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    table = tmp_path / "deals.csv"
    code, out, err = run(
        capsys,
        "solve",
        "--variant",
        "beleaguered-castle",
        "--deals",
        "1-20",
        "--max-states",
        "2000",
        "--jobs",
        "2",
        "--csv",
        str(table),
    )
    assert code == 0
    assert "Traceback" not in err
    rows = read_csv(table)
    assert rows[0] == ["variant", "deal", "status", "states", "seconds", "moves"]
    assert len(rows) == 21
    assert [int(r[1]) for r in rows[1:]] == list(range(1, 21))  # deal order
    assert {r[0] for r in rows[1:]} == {"beleaguered-castle"}
    statuses = [r[2] for r in rows[1:]]
    assert all(int(r[5]) > 0 for r in rows[1:] if r[2] == "solved")
    assert all(int(r[5]) == 0 for r in rows[1:] if r[2] != "solved")
    assert all(int(r[3]) <= 2000 for r in rows[1:])
    assert not [p for p in tmp_path.iterdir() if p.name != "deals.csv"]  # no temp file left

    solved, unsolvable = statuses.count("solved"), statuses.count("unsolvable")
    unknown = statuses.count("unknown")
    assert unknown > 0 and solved > 0 and unsolvable > 0
    assert out.splitlines()[0].startswith("Beleaguered Castle deals 1-20: 20 deals in ")
    assert "2 jobs" in out.splitlines()[0]
    for status, count in (("solved", solved), ("unsolvable", unsolvable), ("unknown", unknown)):
        assert re.search(rf"^  {status} +{count} ", out, re.M), status
    low, high = wilson_interval(solved, solved + unsolvable)
    point = 100 * solved / (solved + unsolvable)
    assert f"winnable: {point:.1f}% of the {solved + unsolvable} decided deals" in out
    assert f"95% Wilson interval {100 * low:.1f}% to {100 * high:.1f}%" in out
    assert f"counting the {unknown} unknown as lost: {100 * solved / 20:.1f}%" in out
    assert f"as won: {100 * (solved + unknown) / 20:.1f}%" in out
    assert re.search(r"^time per deal: median .+, p99 .+, max ", out, re.M)
    assert "20 rows written to" in out


def test_batch_json_in_deal_order_summary_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "solve", "--variant", "citadel", "--deals", "1-12", "--jobs", "2",
        "--max-states", "2000", "--json",
    )  # fmt: skip
    assert code == 0
    objects = [json.loads(line) for line in out.splitlines()]
    assert [o["deal"] for o in objects] == list(range(1, 13))
    for o in objects:
        check_json_solution(o)
        assert o["variant"] == "citadel"
    assert "Citadel deals 1-12: 12 deals" in err
    assert "winnable" in err and "winnable" not in out


def test_batch_same_answers_in_process_and_in_workers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    tables = []
    for jobs in ("1", "2"):
        table = tmp_path / f"jobs{jobs}.csv"
        argv = ["solve", "--deals", "1-30,7", "--max-states", "20000", "--jobs", jobs]
        code, _, _ = run(capsys, *argv, "--csv", str(table))
        assert code == 0
        tables.append([[r[1], r[2], r[3], r[5]] for r in read_csv(table)[1:]])
    assert tables[0] == tables[1]
    assert [int(r[0]) for r in tables[0]] == list(range(1, 31))  # deal 7 once


# --- statistics ----------------------------------------------------------------------


def test_summary_text_on_a_hand_made_batch() -> None:
    summary = BatchSummary("citadel", "1-12", planned=12, jobs=1, wall_seconds=2.0)
    statuses = ["solved"] * 8 + ["unsolvable"] * 2 + ["unknown"] * 2
    for i, status in enumerate(statuses):
        summary.add(DealResult(i, i + 1, status, 10, i / 100, 5, "states" if i >= 10 else None))
    text = "\n".join(line.plain for line in summary.lines())
    assert "Citadel deals 1-12: 12 deals in 2 s, 1 job (6.0 deals/s)" in text
    assert "winnable: 80.0% of the 10 decided deals" in text
    assert "95% Wilson interval 49.0% to 94.3%" in text
    # Of all 12: 8/12 if the unknown lose, 10/12 if they win.
    assert "counting the 2 unknown as lost: 66.7% (39.1% to 86.2%); as won: 83.3%" in text
    assert "(2 hit the states limit)" in text
    assert "time per deal: median 55 ms, p99 110 ms, max 110 ms" in text


# --- bad input -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["solve", "{bad}"], "line 2, token 'XX'"),
        (["solve", "{missing}"], "cannot read"),
        (["solve", "{tmp}"], "cannot read"),
        (["solve", "--variant", "nope", "--deal", "3"], "unknown variant 'nope'"),
        (["solve", "--deal", "0"], "out of range"),
        (["solve", "--deal", "x"], "not a deal number"),
        (["solve", "--deals", "5-1"], "not a deal range"),
        (["solve", "--deals", "1-x"], "not a deal range"),
        (["solve", "--deal", "3", "--max-states", "0"], "--max-states"),
        (["solve", "--deal", "3", "--max-seconds", "-1"], "--max-seconds"),
        (["solve", "--deal", "3", "--max-seconds", "nan"], "--max-seconds"),
        (["solve", "--deal", "3", "--max-memory", "12Q"], "not a size"),
        (["solve", "--deal", "3", "--max-memory", "100"], "--max-memory"),
        (["solve", "--deals", "1-3", "--jobs", "0"], "--jobs"),
        (["solve", "--deals", "1-3", "--jobs", "-4"], "--jobs"),
        (["solve", "--deals", "1-3", "--csv", "{tmp}/no/such/dir/x.csv"], "cannot write"),
        (["solve", "--deal", "3", "--csv", "x.csv"], "--deals"),
        (["solve"], "give exactly one"),
        (["solve", "--deal", "3", "--deals", "1-3"], "not allowed"),
        ([], "required"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], needle: str
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("AH 2S\nXX 3H\n")
    paths = {"bad": str(bad), "missing": str(tmp_path / "missing.txt"), "tmp": str(tmp_path)}
    code, out, err = run(capsys, *[a.format(**paths) for a in argv])
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("castle: error: ")
    assert needle in err


def test_help_documents_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "--help")
    assert code == 0
    assert "exit status" in out and "130" in out and "--max-memory" in out


# --- the installed console script --------------------------------------------------------


def test_console_script_stdin_json_and_bad_board() -> None:
    script = castle_script()
    text = castle.Deal.from_number("streets-and-alleys", 17).to_text()
    done = subprocess.run(
        [script, "solve", "-", "--json"], input=text, capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stderr) == (0, "")
    obj = json.loads(done.stdout)
    check_json_solution(obj)
    assert (obj["variant"], obj["deal"], obj["status"]) == ("streets-and-alleys", None, "solved")

    done = subprocess.run(
        [script, "solve", "-"], input="KS QX\n", capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("castle: error: stdin, line 1, token 'QX': ")


def test_console_script_closed_pipe_is_quiet() -> None:
    # Megabytes of JSON lines: far more than a pipe holds, so the writer meets the closed pipe
    # whatever the timing (one solution's 4 kB could all be written before the close).
    script = castle_script()
    with subprocess.Popen(
        [script, "solve", "--deals", "1-300", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline().startswith(b'{"variant": "beleaguered-castle", "deal": 1')
        process.stdout.close()
        err = process.stderr.read()
        assert process.wait(timeout=60) == 141
    assert b"Traceback" not in err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_console_script_ctrl_c_stops_batch(tmp_path: Path) -> None:
    script = castle_script()
    table, lines = tmp_path / "partial.csv", tmp_path / "out.jsonl"
    argv = [script, "solve", "--deals", "1-100000", "--jobs", "2", "--max-seconds", "30"]
    with (
        lines.open("w") as out,
        subprocess.Popen(
            [*argv, "--json", "--csv", str(table)],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        ) as process,
    ):
        deadline = time.monotonic() + 30
        while not lines.read_text() and time.monotonic() < deadline:
            time.sleep(0.02)  # until a first deal is out: the workers are solving
        time.sleep(0.2)
        os.killpg(process.pid, signal.SIGINT)  # as a terminal does: the whole group
        _, err = finish(process, 30)
    assert process.returncode == 130
    assert "Traceback" not in err, err
    assert re.search(r"interrupted after [\d,]+ of 100,000 deals", err)
    numbers = [json.loads(line)["deal"] for line in lines.read_text().splitlines()]
    assert numbers[0] == 1 and numbers == sorted(numbers) and len(numbers) < 100000
    rows = read_csv(table)
    assert rows[0][0] == "variant"
    assert [int(r[1]) for r in rows[1:]] == numbers


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_console_script_sigterm_stops_batch_keeping_the_csv(tmp_path: Path, jobs: str) -> None:
    # SIGTERM (kill, a batch system) left a .FILE.*.tmp and no CSV. Now it
    # ends the batch as Ctrl+C does: the rows of the deals finished, a partial summary; 143.
    table = tmp_path / "partial.csv"
    argv = [castle_script(), "solve", "--deals", "1-100000", "--jobs", jobs, "--csv", str(table)]
    with subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    ) as process:
        deadline = time.monotonic() + 60
        # Until rows reach the temporary file (buffered: a hundred deals or so are solved).
        while time.monotonic() < deadline and process.poll() is None:
            if any(p.stat().st_size > 100 for p in tmp_path.glob(".partial.csv.*.tmp")):
                break
            time.sleep(0.02)
        os.kill(process.pid, signal.SIGTERM)  # the process alone, as kill does
        out, err = finish(process, 60)
    assert process.returncode == 143, err
    assert "Traceback" not in err, err
    match = re.search(r"interrupted after ([\d,]+) of 100,000 deals", out)
    assert match is not None, out
    finished = int(match[1].replace(",", ""))
    assert f"{finished:,} rows written to {table}" in out
    rows = read_csv(table)
    assert rows[0] == ["variant", "deal", "status", "states", "seconds", "moves"]
    assert 0 < finished == len(rows) - 1 < 100000
    if jobs == "1":  # one process: deals 1, 2, 3... with none missing
        assert [int(r[1]) for r in rows[1:]] == list(range(1, finished + 1))
    else:  # in deal order; deals finished after a gap are written too
        numbers = [int(r[1]) for r in rows[1:]]
        assert numbers[0] == 1 and numbers == sorted(set(numbers))
    assert [p.name for p in tmp_path.iterdir()] == ["partial.csv"]  # no temporary file left


def test_jobs_are_capped(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "--deals", "1-2", "--jobs", "1024", "--json")
    assert code == 0 and len(out.splitlines()) == 2
    code, out, _ = run(capsys, "solve", "--deals", "1-2", "--jobs", "1024")
    assert code == 0 and re.search(r"\b[12] jobs?\b", out.splitlines()[0])


# --- numbers and text that are not what they seem ---------------------------------------

#: Each numeric flag, after what its command needs to get as far as reading it.
NUMERIC_FLAGS = [
    ("solve", "--deal"),
    ("solve --variant spider-2", "--deal"),
    ("solve", "--deals"),
    ("solve --deal 1", "--max-memory"),
    ("solve --deal 1", "--max-states"),
    ("solve --deal 1", "--max-seconds"),
    ("solve --deals 1-2", "--jobs"),
    ("survey --db {db}", "--deals"),
    ("survey --deals 1-2 --db {db}", "--jobs"),
    ("survey --deals 1-2 --db {db}", "--dask-local"),
    ("survey --deals 1-2 --db {db}", "--max-memory"),
    ("survey --deals 1-2 --db {db}", "--max-states"),
    ("survey --deals 1-2 --db {db}", "--max-seconds"),
    ("survey retry --db {db}", "--max-memory"),
    ("survey retry --db {db}", "--jobs"),
    ("bench", "--deals"),
    ("bench --deals 1", "--max-states"),
    ("bench --deals 1", "--repeat"),
    ("autoplay", "--deals"),
    ("autoplay --deals 1 --fair", "--samples"),
    ("autoplay --deals 1", "--max-states"),
    ("autoplay --deals 1 --variant citadel", "--max-seconds"),
    ("autoplay --deals 1 --fair", "--seed"),
    ("autoplay --deals 1", "--jobs"),
    ("autoplay --deals 1 --db {db}", "--dask-local"),
    ("play --plain", "--deal"),
    ("play --plain --variant spider-2", "--deal"),
]

#: Values no numeric flag takes: huge, negative, not finite, not ASCII digits.
BAD_NUMBERS = ["9" * 400, "9" * 5000, "18446744073709551616", "-5", "nan", "inf", "-inf", "1e400"]
BAD_NUMBERS += ["²", "\u0661", "\uff11", "1.5e400", ""]


@pytest.mark.parametrize(("command", "flag"), NUMERIC_FLAGS, ids=" ".join)
def test_every_numeric_flag_refuses_nonsense_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, flag: str
) -> None:
    # --max-memory of 400 digits was an OverflowError, Spider's --deal 2**64 another; an
    # Arabic-Indic one was read as 1 by int(), and numbers of 300 digits filled the message.
    argv = command.format(db=tmp_path / "s.db").split()
    for value in BAD_NUMBERS:
        code, out, err = run(capsys, *argv, f"{flag}={value}")
        assert (code, out) == (2, ""), (value, err)
        assert err.count("\n") == 1 and err.startswith("castle: error: "), (value, err)
        assert len(err) < 250, err
        if flag != "--deals":  # bench's and autoplay's range errors do not name the flag
            assert flag in err


def untimed(answer: tuple[int, str, str]) -> tuple[int, str, str]:
    code, out, err = answer
    return code, re.sub(r'"seconds": [^,}]+', '"seconds": 0', out), err


def test_a_board_on_stdin_is_read_as_a_file_is(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Bytes that are not UTF-8: a UnicodeEncodeError on stdin before (the C locale made them
    # surrogates); a byte-order mark: accepted in a file, refused on stdin before.
    board = tmp_path / "board.txt"
    text = castle.Deal.from_number("citadel", 5).to_text()
    cases = [(b"AH \xff\n", 2), (b"\xef\xbb\xbf" + text.encode(), 0), (b"KS QX\n", 2)]
    for data, expected in cases:
        board.write_bytes(data)
        answers = []
        for errors in ("surrogateescape", "strict"):  # the C locale's, a UTF-8 locale's
            stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors=errors)
            monkeypatch.setattr(sys, "stdin", stdin)
            answers.append(untimed(run(capsys, "solve", "-", "--json")))
        code, out, err = untimed(run(capsys, "solve", str(board), "--json"))
        assert code == expected
        assert answers == [(code, out, err.replace(str(board), "stdin"))] * 2
    board.write_bytes(b"AH \xff\n")
    assert f"castle: error: {board} is not UTF-8 text" in run(capsys, "solve", str(board))[2]


def test_closed_standard_streams_are_no_traceback() -> None:
    script = castle_script()

    def closed(fd: int) -> Callable[[], None]:
        return lambda: os.close(fd)

    done = subprocess.run(
        [script, "solve", "-"], preexec_fn=closed(0), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and done.stderr.startswith("castle: error: stdin")
    done = subprocess.run(
        [script, "solve", "--deal", "2", "--json"],
        preexec_fn=closed(1),
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.parametrize("level", ["medium", "spider-1"])
def test_the_line_mode_refuses_digits_that_are_not_ascii(tmp_path: Path, level: str) -> None:
    # ² passed str.isdigit and failed int() (exit 1); Arabic-Indic and full-width ones were
    # read as 1.
    from castle.cli.plain import play_lines
    from castle.game.new_game import new_game
    from rich.console import Console

    store = castle.SaveStore(tmp_path)
    game = new_game(level, store, 2)
    columns = 10 if level.startswith("spider") else 8
    lines = [
        "²",
        "1 ²",
        "\u0661 2",
        "\uff11 \uff12",
        "1 2 ²",
        "1 2 \u0661",
        "1 2 " + "9" * 5000,
        "\udcff 1",
    ]
    buffer = io.StringIO()
    out = Console(file=buffer, markup=False, highlight=False, width=200)
    play_lines(game, store, [line + "\n" for line in lines] + ["q\n"], out)
    said = buffer.getvalue()
    assert said.count("not done: ") == len(lines)
    for token in ["'²'", "'\u0661'", "'\uff11'", "'\\udcff'"]:
        assert f"not a column: {token} (columns are 1 to {columns})" in said
    assert "not a number of cards: '²'" in said and "not a number of cards: '\u0661'" in said
    assert "not a number of cards: '999999999999999999999999999999999999999... (5,002" in said
    assert game.moves == 0 and "saved" in said


def test_cli_solves_spider_with_json_moves(tmp_path: object) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "castle", "solve", "--variant", "spider-1", "--deal", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    obj = json.loads(done.stdout)
    assert obj["variant"] == "spider-1" and obj["status"] == "solved"
    assert {"deal": True} in obj["moves"]
    board = castle.SpiderDeal.from_number("spider-1", 1).to_text()
    done = subprocess.run(
        [sys.executable, "-m", "castle", "solve", "-"],
        input=board,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and "Spider (1 suit) board from stdin: solved" in done.stdout
