"""The free-cell games (docs/rules.md §6) in the package: deals by number and board text,
their moves as text and JSON, the solver's answers (each win replayed by the core's rules),
and the limits it takes as ``castle.solve`` does."""

from __future__ import annotations

import json
import threading
from collections import Counter

import castle
import pytest
from castle import (
    BoardError,
    Card,
    CellsDeal,
    CellsMove,
    CellsSolution,
    LimitError,
    VariantError,
    _core,
)
from castle.solving.cells import TO_FOUNDATION, Place, cells_rules, replays

#: Microsoft's FreeCell deal 1, row by row as it is printed everywhere.
MS_DEAL_1 = """\
JD 2D 9H JC 5D 7H 7C 5H
KD KC 9S 5S AD QC KH 3H
2S KS 9D QD JS AS AH 3C
4C 5C TS QH 4H AC 4D 7S
3S TD 4S TH 8H 2C JH 7D
6D 8S 8D QS 6C 3D 8C TC
6S 9C 2H 6H"""


def cards(text: str) -> list[Card]:
    return [Card.parse(token) for token in text.split()]


def test_freecell_deal_1_is_microsofts() -> None:
    deal = CellsDeal.from_number("freecell", 1)
    rows = [cards(line) for line in MS_DEAL_1.splitlines()]
    columns = [[row[i] for row in rows if i < len(row)] for i in range(8)]
    assert deal.columns == columns
    assert deal.cells == [None] * 4
    assert deal.foundations == {"C": 0, "D": 0, "H": 0, "S": 0}
    assert (deal.variant, deal.number, deal.is_won) == ("freecell", 1, False)


@pytest.mark.parametrize("variant", castle.CELLS_VARIANTS)
def test_every_variant_deals_the_52_cards_as_its_rules_say(variant: str) -> None:
    rules = cells_rules(variant)
    deal = CellsDeal.from_number(variant, 617)
    assert len(deal.columns) == rules.columns and len(deal.cells) == rules.cells
    dealt = [c for col in deal.columns for c in col] + [c for c in deal.cells if c is not None]
    dealt += [
        Card(rank, suit) for suit, top in deal.foundations.items() for rank in range(1, top + 1)
    ]
    assert Counter(dealt) == Counter(castle.CARDS)
    assert deal == CellsDeal.from_number(variant, 617) != CellsDeal.from_number(variant, 618)
    assert len({deal, CellsDeal.from_number(variant, 617)}) == 1


def test_the_variants_deals_differ_in_cells_and_columns() -> None:
    eight_off = CellsDeal.from_number("eight-off", 5)
    assert [len(c) for c in eight_off.columns] == [6] * 8
    assert [c is not None for c in eight_off.cells] == [True, False] * 4
    seahaven = CellsDeal.from_number("seahaven-towers", 5)
    assert [len(c) for c in seahaven.columns] == [5] * 10
    assert [c is not None for c in seahaven.cells] == [False, True, True, False]
    siegecraft = CellsDeal.from_number("siegecraft", 5)
    assert siegecraft.foundations == {"C": 1, "D": 1, "H": 1, "S": 1}  # aces up, as castle's


def test_board_text_round_trips() -> None:
    for variant in castle.CELLS_VARIANTS:
        deal = CellsDeal.from_number(variant, 11982)
        text = deal.to_text()
        assert text.startswith("Foundations: ") and "\nFreecells:" in text
        back = CellsDeal.from_text(text, variant)
        assert back == deal and back.number is None and back.to_text() == text
    # Without a variant, FreeCell's; lower case, 10 for T and no header lines read too.
    text = CellsDeal.from_number("freecell", 1).to_text()
    body = "\n".join(text.splitlines()[2:])
    loose = body.lower().replace("t", "10")
    assert (
        CellsDeal.from_text(loose)
        == CellsDeal.from_text(text)
        == CellsDeal.from_number("freecell", 1)
    )
    assert repr(CellsDeal.from_number("freecell", 1)) == "CellsDeal.from_number('freecell', 1)"


def test_bad_board_text_names_line_and_token() -> None:
    text = CellsDeal.from_number("freecell", 1).to_text()
    with pytest.raises(BoardError) as info:
        CellsDeal.from_text(text.replace("JD", "ZZ", 1))
    assert info.value.token == "ZZ" and info.value.line is not None
    with pytest.raises(BoardError):
        CellsDeal.from_text(text.replace("JD", "QD", 1))  # two QD, no JD
    spider = castle.SpiderDeal.from_number("spider", 1).to_text()
    with pytest.raises(BoardError, match="this is a Spider board, not a free-cell board"):
        CellsDeal.from_text(spider)
    with pytest.raises(VariantError, match="unknown free-cell variant"):
        CellsDeal.from_text(text, "citadel")


def test_deal_numbers_run_to_the_variants_last() -> None:
    last = cells_rules("freecell").last_deal
    assert last == 2**33 - 1
    assert CellsDeal.from_number("freecell", last).number == last
    for bad in (0, -1, last + 1, 2**64, True, 1.0):
        with pytest.raises(BoardError):
            CellsDeal.from_number("freecell", bad)  # type: ignore[arg-type]
    with pytest.raises(VariantError, match="unknown free-cell variant"):
        CellsDeal.from_number("citadel", 1)
    assert CellsDeal.random(seed=3) == CellsDeal.random("freecell", seed=3)
    assert CellsDeal.random(seed=3).variant == "freecell"


def test_deal_refuses_the_other_families_variants_naming_their_class() -> None:
    with pytest.raises(VariantError, match=r"'freecell' is not a castle game.*castle\.CellsDeal"):
        castle.Deal.from_number("freecell", 617)
    with pytest.raises(VariantError, match=r"castle\.SpiderDeal"):
        castle.Deal.from_number("spider-2", 1)
    with pytest.raises(VariantError, match="unknown variant 'nonesuch'"):
        castle.Deal.from_number("nonesuch", 1)


def test_moves_as_text_and_json() -> None:
    seven = Card(7, "H")
    to_cell = CellsMove(seven, Place("column", 3), Place("cell", 1))
    assert str(to_cell) == "7H from column 4 to cell 2"
    assert to_cell.to_json() == {"card": "7H", "from": {"column": 3}, "to": {"cell": 1}}
    up = CellsMove(Card(1, "S"), Place("cell", 0), TO_FOUNDATION)
    assert str(up) == "AS from cell 1 to foundation" and up.to_foundation
    assert up.to_json() == {"card": "AS", "from": {"cell": 0}, "to": "foundation"}
    assert up.core == (Card(1, "S").index, "cell", 0, "foundation", -1)
    assert json.loads(json.dumps(to_cell.to_json())) == to_cell.to_json()


def test_a_win_replays_through_the_core() -> None:
    deal = CellsDeal.from_number("freecell", 617)
    solution = castle.solve(deal)
    assert isinstance(solution, CellsSolution)
    assert solution.status == "solved" and solution.limit is None and solution.states > 0
    assert _core.cells_replays(deal.core, [m.core for m in solution.moves])
    assert replays(deal, solution.moves)
    # One move taken out, or the last left off, no longer wins.
    assert not replays(deal, solution.moves[:-1])
    assert not replays(deal, solution.moves[1:])
    # Every card goes up once: 52 moves to the foundations (none are up in a FreeCell deal).
    assert sum(m.to_foundation for m in solution.moves) == 52
    out = solution.to_json(deal)
    assert (out["variant"], out["deal"], out["status"]) == ("freecell", 617, "solved")
    assert out["moves"] == [m.to_json() for m in solution.moves]


def test_a_solution_made_of_its_moves_is_the_same_answer() -> None:
    # castle.reference makes its answers from moves; the core's come as numbers: the two
    # must meet, move for move.
    solution = castle.solve(CellsDeal.from_number("bakers-game", 3))
    assert solution.status == "solved" and len(solution.moves) > 50
    again = CellsSolution.of_moves(
        solution.status, solution.moves, solution.states, solution.seconds
    )
    assert again == solution and again.moves == solution.moves
    assert {m.dst.kind for m in solution.moves} >= {"cell", "column", "foundation"}


def test_wins_of_no_move_one_move_and_two_read_back_whole() -> None:
    # The moves cross from the core as numbers, read back in one call: a lone move and
    # none at all are the shapes that call treats apart.
    columns = ":\n" * 7
    won = CellsDeal.from_text("Foundations: H-K C-K D-K S-K\nFreecells:\n" + ":\n" * 8)
    king = CellsDeal.from_text("Foundations: H-K C-K D-K S-Q\nFreecells:\n: KS\n" + columns)
    two = CellsDeal.from_text("Foundations: H-K C-K D-K S-J\nFreecells:\n: KS QS\n" + columns)
    up = TO_FOUNDATION
    assert castle.solve(won).moves == ()
    assert castle.solve(king).moves == (CellsMove(Card(13, "S"), Place("column", 0), up),)
    assert castle.solve(two).moves == (
        CellsMove(Card(12, "S"), Place("column", 0), up),
        CellsMove(Card(13, "S"), Place("column", 0), up),
    )


@pytest.mark.parametrize("variant", ["bakers-game", "seahaven-towers", "stronghold"])
def test_the_other_variants_wins_replay_too(variant: str) -> None:
    deal = CellsDeal.from_number(variant, 2)
    solution = castle.solve(deal, max_seconds=60)
    assert solution.status in ("solved", "unsolvable")
    if solution.status == "solved":
        assert replays(deal, solution.moves)


def test_short_finds_a_win_no_longer() -> None:
    deal = CellsDeal.from_number("freecell", 617)
    first = castle.solve(deal)
    short = castle.solve(deal, short=True)
    assert short.status == "solved" and replays(deal, short.moves)
    assert len(short.moves) <= len(first.moves)


def test_deal_11982_is_unsolvable() -> None:
    solution = castle.solve(CellsDeal.from_number("freecell", 11982))
    assert (solution.status, solution.moves, solution.limit) == ("unsolvable", (), None)
    assert solution.to_json()["status"] == "unsolvable"


def test_limits_stop_the_search_or_are_refused() -> None:
    deal = CellsDeal.from_number("freecell", 11982)
    stopped = castle.solve(deal, max_states=100)
    assert (stopped.status, stopped.limit) == ("unknown", "states")
    assert stopped.to_json()["limit"] == "states"
    for limits in ({"max_states": 0}, {"max_seconds": -1.0}, {"max_memory": 10}):
        with pytest.raises(LimitError):
            castle.solve(deal, **limits)
    with pytest.raises(LimitError, match="spill_dir"):
        castle.solve(deal, spill_dir=".")  # type: ignore[call-overload]


def test_cancel_stops_the_search_and_progress_must_be_callable() -> None:
    deal = CellsDeal.from_number("freecell", 11982)
    cancel = threading.Event()
    cancel.set()
    stopped = castle.solve(deal, cancel=cancel)
    assert (stopped.status, stopped.limit, stopped.moves) == ("unknown", "cancelled", ())
    assert castle.solve(deal, cancel=threading.Event()).status == "unsolvable"
    with pytest.raises(TypeError):
        castle.solve(deal, progress=3)  # type: ignore[call-overload]


def test_progress_reports_about_once_a_second_and_its_exception_stops_the_search() -> None:
    deal = CellsDeal.from_number("freecell", 30021)  # over a million states to decide
    seen: list[castle.Progress] = []

    def report(progress: castle.Progress) -> None:
        seen.append(progress)
        raise KeyError("enough")

    try:
        answer = castle.solve(deal, progress=report, max_seconds=30)
    except KeyError:
        assert len(seen) == 1 and seen[0].states > 0 and seen[0].memory > 0
    else:  # a search quicker than the first report need not give one
        assert not seen and answer.seconds < 1.5
