"""The command line on the free-cell games: ``castle solve`` of a numbered deal, a board file
in fc-solve's layout and a batch; ``castle survey`` and its report; bad input as one line;
``castle play`` playing them in the line mode, ``castle autoplay`` refusing them."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import castle
import pytest
from castle import CellsDeal
from castle.cli import main
from castle.solving.cells import Place, replays
from castle.surveys.survey_store import SurveyStore

MOVE_LINE = re.compile(
    r"^ +(\d+)\. (\S\S)  (column \d+|cell \d) (?:→|->) (column \d+|cell \d|foundation)$"
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def moves_of(out: str) -> list[castle.CellsMove]:
    """The moves ``castle solve`` listed, read back as free-cell moves."""
    moves = []
    for line in out.splitlines():
        match = MOVE_LINE.match(line)
        if match is None:
            continue
        card, src, dst = match.group(2), match.group(3), match.group(4)
        moves.append(castle.CellsMove(castle.Card.parse(card), place(src), place(dst)))
    return moves


def place(text: str) -> Place:
    kind, _, number = text.partition(" ")
    index = int(number) - 1 if number else None
    return Place(kind, index)  # type: ignore[arg-type]


def test_solve_a_numbered_deal_lists_a_win_that_replays(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", "--variant", "FreeCell", "--deal", "617")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "FreeCell deal 617: solved"
    assert "safe moves to the foundations" in lines[1]
    moves = moves_of(out)
    assert moves and len(moves) == int(re.search(r"; ([\d,]+) moves:", out).group(1))  # type: ignore[union-attr]
    assert replays(CellsDeal.from_number("freecell", 617), moves)


def test_solve_a_board_file_in_fc_solves_layout(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    board = tmp_path / "board.txt"
    deal = CellsDeal.from_number("bakers-game", 10)
    board.write_text(deal.to_text())
    code, out, err = run(capsys, "solve", "--variant", "bakers-game", str(board), "--json")
    assert (code, err) == (0, "")
    answer = json.loads(out)
    assert (answer["variant"], answer["deal"]) == ("bakers-game", None)
    assert answer == castle.solve(CellsDeal.from_text(deal.to_text(), "bakers-game")).to_json(
        CellsDeal.from_text(deal.to_text(), "bakers-game")
    ) | {"seconds": answer["seconds"]}
    # A card in a cell says the board is a free-cell game's: no --variant needed (FreeCell's).
    start = CellsDeal.from_number("freecell", 617)
    to_cell = next(m for m in start.core.legal_moves() if m[3] == "cell")
    moved = CellsDeal(start.core.play(*to_cell))
    assert moved.cells[0] is not None
    in_a_cell = tmp_path / "in-a-cell.txt"
    in_a_cell.write_text(moved.to_text())
    code, out, err = run(capsys, "solve", str(in_a_cell))
    assert (code, err) == (0, "") and out.startswith(f"FreeCell board from {in_a_cell}: ")
    # Without one, the text cannot tell: a layout of 7 7 7 7 6 6 6 6 is Streets and Alleys'.
    code, out, err = run(capsys, "solve", str(board))
    assert code == 0 and out.startswith(f"Streets and Alleys board from {board}: ")


def test_a_batch_writes_json_lines_in_deal_order(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "solve", "--variant", "freecell", "--deals", "11980-11984", "--json"
    )
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["deal"] for line in lines] == list(range(11980, 11985))
    statuses = {line["deal"]: line["status"] for line in lines}
    assert statuses[11982] == "unsolvable"
    assert all(s == "solved" for d, s in statuses.items() if d != 11982)
    for line in lines:
        assert line["variant"] == "freecell"
        for move in line["moves"]:
            assert list(move) == ["card", "from", "to"]
            assert list(move["from"]) in (["column"], ["cell"])
            assert move["to"] == "foundation" or list(move["to"]) in (["column"], ["cell"])
    assert "5 deals" in err


def test_a_survey_stores_the_verdicts_and_reports_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "fc.db"
    code, out, err = run(
        capsys, "survey", "--variant", "freecell", "--deals", "11981-11983", "--db", str(db)
    )
    assert code == 0, err
    assert "FreeCell survey of deals 11981-11983" in out
    with SurveyStore.open(db) as store:
        assert store.statuses("freecell", 1, 20000) == {
            11981: "solved",
            11982: "unsolvable",
            11983: "solved",
        }
    code, out, err = run(capsys, "survey", "report", "--db", str(db))
    assert code == 0 and "FreeCell" in out
    code, out, err = run(
        capsys, "survey", "--variant", "freecell", "--deals", "11981-11983", "--db", str(db)
    )
    assert code == 0 and "all 3 deals stored already" in out


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["solve", "--variant", "freecell", "--deal", str(2**33)],
            "out of range (1 to 8589934591)",
        ),
        (["solve", "--variant", "freecell", "--deals", f"{2**33 - 2}-{2**33}"], "run from 1 to"),
        (
            ["survey", "--variant", "freecell", "--deals", f"{2**33 - 5}-{2**33}", "--db", "x.db"],
            "run from 1",
        ),
        (["solve", "--variant", "freecell", "--deal", "1", "--spill-dir", "."], "--spill-dir"),
        (["survey", "--variant", "spider", "--deals", "1-2", "--db", "x.db"], "unknown variant"),
        (
            ["play", "--variant", "freecell", "--deal", "0"],
            "out of range: deals are numbered from 1",
        ),
        (["solve", "--variant", "freecell", "--deal", "-3"], "deals are numbered from 1"),
        (["autoplay", "--variant", "eight-off", "--deals", "1-2"], "does not play the free-cell"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    said: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.startswith("castle: error: ") and said in err and err.count("\n") == 1
    assert not (tmp_path / "x.db").exists()


def test_a_bad_board_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = tmp_path / "bad.txt"
    board.write_text(CellsDeal.from_number("freecell", 1).to_text().replace("JD", "ZZ", 1))
    code, out, err = run(capsys, "solve", "--variant", "freecell", str(board))
    assert (code, out) == (2, "")
    assert err.startswith(f"castle: error: {board}, line ") and "'ZZ'" in err
    assert err.count("\n") == 1


def test_help_lists_the_free_cell_variants(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--help"], ["solve", "--help"], ["survey", "run", "--help"]):
        code, out, _ = run(capsys, *argv)
        assert code == 0
        flat = " ".join(out.split())
        assert all(variant in flat for variant in castle.CELLS_VARIANTS), argv


def test_play_plays_a_free_cell_game_in_the_line_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Eight Off deal 1: its cells numbered 9-16 after the columns (or c1-c8), four filled by
    # the deal.
    monkeypatch.setattr("sys.stdin", io.StringIO("8 c2\n10 2\nq\n"))
    argv = ["play", "--variant", "eight-off", "--deal", "1", "--plain"]
    code, out, _ = run(capsys, *argv, "--data-dir", str(tmp_path))
    assert code == 0
    lines = out.splitlines()
    assert "Cells: 9: 6S 10: - 11: 9C 12: - 13: 2H 14: - 15: 6H 16: -" in lines
    assert "Cells: 9: 6S 10: TC 11: 9C 12: - 13: 2H 14: - 15: 6H 16: -" in lines
    assert "8: 5H 3H 3C 7S 7D" in lines  # TC went into cell 2
    assert "not done: TC does not fit on 8S (one rank lower, in suit)" in lines
    assert "saved: `castle play` continues this game" in lines
