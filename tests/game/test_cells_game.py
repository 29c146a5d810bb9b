"""castle.CellsGame: the free-cell games as a person plays them: cells, runs moved as a unit
(counted as their single moves), the cards that go up by themselves, refusals, undo and redo,
hints that win, saves and statistics."""

from __future__ import annotations

import json
from pathlib import Path

import castle
import pytest
from castle import FOUNDATION, CellsDeal, CellsGame, IllegalMoveError, SaveError, SaveStore
from castle.game.cells_game import settled
from castle.game.new_game import new_game
from castle.game.played import load_game
from castle.solving.cells import replays

#: A FreeCell position: a three-card run (8S 7H 6C) on top of column 2, two empty columns,
#: and nothing goes up by itself (the 2s lie at the bottom).
BOARD = (
    "Foundations: H-A C-A D-A S-A\n"
    "Freecells: - - - -\n"
    ": 2C 3D 4S 5H KS QH JC TD 9S 8D\n"
    ": KH QC JD TS 9C 8S 7H 6C\n"
    ": 2D 3C 4H 5S KD QS JH TC 9D 8C\n"
    ": 2H 3S 4D 5C KC QD JS TH 9H 8H\n"
    ": 2S 3H 4C 5D 7S 6D\n"
    ": 6H 7D 6S 7C\n"
    ":\n"
    ":\n"
)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def game_of(board: str = BOARD, variant: str = "freecell", **kw: object) -> CellsGame:
    return CellsGame(CellsDeal.from_text(board, variant), clock=Clock(), **kw)  # type: ignore[arg-type]


def test_the_places_are_the_columns_then_the_cells() -> None:
    game = game_of()
    piles = game.piles()
    assert len(piles) == 8 + 4
    assert [len(cards) for _, cards in piles[8:]] == [0, 0, 0, 0]
    assert game.top_row().cells == 4
    assert game.movable(1) == 3  # 8S 7H 6C
    assert game.movable(8) == 0


def test_a_card_goes_to_a_cell_and_back() -> None:
    game = game_of()
    game.move(0, 8)  # 8D into cell 1
    assert game.cells[0] == castle.Card(8, "D") and game.moves == 1
    assert game.movable(8) == 1 and game.targets(8, 1)
    game.move(8, 6)  # into an empty column
    assert game.columns[6] == [castle.Card(8, "D")] and game.cells[0] is None
    game.undo()
    assert game.cells[0] == castle.Card(8, "D")


def test_a_run_moves_as_a_unit_counted_as_its_single_moves() -> None:
    game = game_of()
    assert 6 in game.targets(1, 3)  # 8S 7H 6C into an empty column
    action = game.move(1, 6, 3)
    assert [str(c) for c in game.columns[6]] == ["8S", "7H", "6C"]
    assert len(action.moves) > 1 and game.moves == len(action.moves)
    assert all(m.card in game.columns[6] for m in action.moves)
    game.undo()
    assert [str(c) for c in game.columns[1]][-3:] == ["8S", "7H", "6C"]


def test_a_run_too_long_for_the_free_cells_is_refused_with_the_limit() -> None:
    # The four kings in the cells: no free cell, one other empty column, so two cards.
    full = (
        "Foundations: H-A C-A D-A S-A\nFreecells: KS KH KD KC\n"
        ": 2C 3D 4S 5H QH JC TD 9S 8D\n: QC JD TS 9C 8S 7H 6C\n"
        ": 2D 3C 4H 5S QS JH TC 9D 8C\n: 2H 3S 4D 5C QD JS TH 9H 8H\n"
        ": 2S 3H 4C 5D 7S 6D\n: 6H 7D 6S 7C\n:\n:\n"
    )
    game = game_of(full)
    before = game.position
    with pytest.raises(IllegalMoveError, match="3 cards need more free cells or empty columns"):
        game.move(1, 6, 3)
    assert 6 in game.targets(1, 2) and 6 not in game.targets(1, 3)
    assert game.position == before and game.moves == 0


def test_refusals_say_why_and_change_nothing() -> None:
    game = game_of()
    before = game.position
    with pytest.raises(IllegalMoveError, match="does not fit on 8D"):
        game.move(1, 0)
    with pytest.raises(IllegalMoveError, match="cell 1 is empty"):
        game.move(8, 0)
    with pytest.raises(IllegalMoveError, match="not a run built down in alternating colours"):
        game.move(3, 6, 2)
    with pytest.raises(IllegalMoveError, match="a cell holds one card"):
        game.move(1, 8, 2)
    with pytest.raises(IllegalMoveError, match="does not fit its foundation yet"):
        game.move(0, FOUNDATION)
    with pytest.raises(IllegalMoveError, match="place must be a column 0 to 7 or a cell 8 to 11"):
        game.move(12, 0)
    game.move(0, 8)
    with pytest.raises(IllegalMoveError, match="cell 1 is full"):
        game.move(2, 8)
    assert game.moves == 1 and game.position != before


def test_taps_send_a_card_where_it_goes_best() -> None:
    game = game_of()
    game.tap(1)  # 6C: nowhere on a card, no lone card: into an empty column
    assert game.columns[6] == [castle.Card(6, "C")]
    game.double_tap(0)  # 8D does not go up: into a free cell
    assert game.cells[0] == castle.Card(8, "D")
    with pytest.raises(IllegalMoveError, match="does not fit its foundation yet"):
        game.double_tap(8)


def test_cards_nothing_could_go_on_go_up_by_themselves_with_the_move() -> None:
    board = (
        "Foundations: H-T C-J D-J S-J\nFreecells: - - - -\n"
        ": JH QC\n: KH QH\n: KC\n: KD QD\n: KS QS\n:\n:\n:\n"
    )
    game = game_of(board)
    assert game.foundations == {"C": 11, "D": 12, "H": 10, "S": 11}  # QD, before any move
    assert game.moves == 0 and not game.can_undo
    action = game.move(0, 8)  # QC to a cell: every card left goes up after it
    assert game.is_won and game.moves == len(action.moves) == 9
    assert [m.to_foundation for m in action.moves] == [False] + [True] * 8


def test_a_deal_is_won_by_its_hints_and_the_win_recorded(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = new_game("freecell", store, 1)
    assert isinstance(game, CellsGame)
    for _ in range(200):
        if game.is_won:
            break
        hint = game.hint(max_seconds=30)
        assert hint.status == "solved" and hint.move is not None
        step = game.playing(hint.move)
        assert step.src is not None and step.dst is not None
        game.drop(step.src, step.dst, step.count)
    assert game.is_won and game.progress == 52
    played = [m for action in game.history for m in action.moves]
    assert replays(game.deal, settled(game.deal)[1] + played)
    assert store.record("freecell").wins == 1


def test_saves_round_trip_exactly(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = new_game("freecell", store, 617)
    assert isinstance(game, CellsGame)
    for _ in range(6):
        hint = game.hint(max_seconds=30)
        assert hint.move is not None
        step = game.playing(hint.move)
        assert step.src is not None and step.dst is not None
        game.drop(step.src, step.dst)
    game.undo()
    saved = json.loads(json.dumps(game.to_save()))
    again = CellsGame.from_save(saved)
    assert again.to_save() == {**saved, "seconds": again.seconds}
    assert again.position == game.position and again.history == game.history
    assert again.moves == game.moves and again.can_redo
    loaded = load_game(store)
    assert isinstance(loaded, CellsGame) and loaded.position == game.position


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda d: d.update(done=[[[0, "column", 0, "cell", 9]]]), "not legal there"),
        (lambda d: d.update(done=[[[0, "pile", 0, "cell", 0]]]), "not a move"),
        (lambda d: d.update(done="moves"), "expected a list"),
        (lambda d: d.update(board="Foundations: nonsense"), "not a castle free-cell save|board"),
        (lambda d: d.update(format="castle-game"), "not a castle-cells-game save"),
    ],
)
def test_a_damaged_save_is_a_clear_error(change: object, why: str) -> None:
    game = game_of()
    game.move(0, 8)
    data = json.loads(json.dumps(game.to_save()))
    change(data)  # type: ignore[operator]
    with pytest.raises(SaveError, match=why):
        CellsGame.from_save(data)


def test_a_damaged_save_is_set_aside_not_lost(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = new_game("freecell", store, 5)
    game.tap(0)
    data = game.to_save()
    data["done"] = [[[51, "column", 0, "foundation", -1]]]  # KS up at once
    store.game_path.write_text(json.dumps(data))
    assert load_game(store) is None
    assert any("not legal" in notice for notice in store.notices)
    assert list(tmp_path.glob("game.json.corrupt-*"))  # kept, aside


def test_every_free_cell_game_has_its_level() -> None:
    for variant in castle.CELLS_VARIANTS:
        game = new_game(castle.game.levels.level_for_variant(variant).id, None, 3)
        assert isinstance(game, CellsGame) and game.variant == variant
        assert len(game.piles()) == len(game.columns) + len(game.cells)
