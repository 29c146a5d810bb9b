"""What every game in play keeps (castle.game.played), castle or Spider: a save finds its kind of
game, a game left unfinished is a loss, undo and the clock; and a saved game comes back whole:
random play with undos, redos and save round trips, for castle and Spider games alike. Two
copies of a game take the same actions, one kept in memory and one written to its save and read
back at random moments; every action must do the same to both (the same move, or the same
refusal), and the saves must agree at every step."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import Any, Callable, Union

import castle
import pytest
from castle import Deal, Game, IllegalMoveError, LevelError, SaveStore, SpiderDeal, SpiderGame
from castle.game.levels import level
from castle.game.played import load_game, record_unfinished_as_lost, resume
from castle.solving.solve import Target
from hypothesis import given, settings
from hypothesis import strategies as st

AnyGame = Union[Game, SpiderGame]
#: An action: a name for the message, and what it does to a game.
Action = tuple[str, Callable[[Any], object]]


def comparable(game: AnyGame) -> dict[str, Any]:
    """The save, less the seconds (the clocks of two copies differ by the time between)."""
    data = game.to_save()
    del data["seconds"]
    return data


def round_trip(game: AnyGame) -> AnyGame:
    data = json.loads(json.dumps(game.to_save()))
    if isinstance(game, SpiderGame):
        return SpiderGame.from_save(data)
    return Game.from_save(data)


def run(game: Any, src: int, dst: Target, count: int) -> object:
    return game.move(src, dst, count)


def take_off(game: SpiderGame, src: int) -> object:
    return game.take_off(src)


def castle_actions(game: Game, rng: random.Random) -> list[Action]:
    actions: list[Action] = [("undo", lambda g: g.undo()), ("redo", lambda g: g.redo())]
    for _, src, dst in game.position.core.legal_moves():
        target = castle.FOUNDATION if dst < 0 else dst
        actions.append((f"move {src} {target}", partial(run, src=src, dst=target, count=1)))
    column = rng.randrange(8)
    actions.append((f"tap {column}", lambda g: g.tap(column)))
    count = rng.randint(1, 4)
    src, dst = rng.randrange(8), rng.randrange(8)
    actions.append((f"run {src} {dst} {count}", lambda g: g.move(src, dst, count)))
    return actions


def spider_actions(game: SpiderGame, rng: random.Random) -> list[Action]:
    actions: list[Action] = [
        ("undo", lambda g: g.undo()),
        ("redo", lambda g: g.redo()),
        ("deal", lambda g: g.deal_row()),
    ]
    for kind, src, dst, count in game.position.core.legal_moves():
        if kind == "run":
            actions.append(
                (f"run {src} {dst} {count}", partial(run, src=src, dst=dst, count=count))
            )
        elif kind == "off":
            actions.append((f"off {src}", partial(take_off, src=src)))
    return actions


def act(game: AnyGame, do: Callable[[Any], object]) -> str:
    try:
        return f"did {do(game)}"
    except castle.IllegalMoveError as e:
        return f"refused: {e}"


def play_both(game: AnyGame, rng: random.Random, steps: int) -> None:
    kept, saved = game, round_trip(game)
    for step in range(steps):
        if rng.random() < 0.15:
            saved = round_trip(saved)
        if isinstance(kept, SpiderGame):
            actions = spider_actions(kept, rng)
        else:
            actions = castle_actions(kept, rng)
        # Undo and redo as often as the moves (the first two actions), in runs, so that the
        # redo stack is deep when the game is saved.
        undo, redo, moves = actions[0], actions[1], actions[2:]
        name, do = rng.choice([rng.choice(moves), undo, redo, undo, redo])
        for _ in range(rng.randint(1, 4) if name in ("undo", "redo") else 1):
            assert act(kept, do) == act(saved, do), (step, name)
        assert comparable(kept) == comparable(saved), (step, name)
    # Every future the game in memory has, the saved one has too: redo to the end.
    saved = round_trip(saved)
    while kept.can_redo:
        assert act(kept, lambda g: g.redo()) == act(saved, lambda g: g.redo())
    assert not saved.can_redo and comparable(kept) == comparable(saved)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(["spider-1", "spider-2", "spider"]))
def test_a_spider_game_comes_back_whole_from_its_save(seed: int, variant: str) -> None:
    rng = random.Random(seed)
    game = SpiderGame(SpiderDeal.from_number(variant, rng.randint(1, 10_000)))
    play_both(game, rng, 80)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    variant=st.sampled_from(["beleaguered-castle", "streets-and-alleys", "citadel"]),
)
def test_a_castle_game_comes_back_whole_from_its_save(seed: int, variant: str) -> None:
    rng = random.Random(seed)
    game = Game(Deal.from_number(variant, rng.randint(1, 10_000)))
    play_both(game, rng, 80)


def test_two_spider_moves_undone_both_redo_after_a_resume() -> None:
    # The case: two moves, both undone, saved and resumed: both redo.
    game = SpiderGame(SpiderDeal.from_number("spider-1", 1))
    runs = [m for m in game.position.core.legal_moves() if m[0] == "run"]
    _, src, dst, count = runs[0]
    game.move(src, dst, count)
    _, src, dst, count = next(m for m in game.position.core.legal_moves() if m[0] == "run")
    game.move(src, dst, count)
    game.undo()
    game.undo()
    resumed = round_trip(game)
    resumed.redo()
    resumed = round_trip(resumed)
    resumed.redo()
    game.redo()
    game.redo()
    assert resumed.position == game.position and comparable(resumed) == comparable(game)


# --- what every game keeps ----------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


DEAL_2 = Deal.from_number("beleaguered-castle", 2)


@pytest.mark.parametrize(
    ("kind", "deal"),
    [(Game, DEAL_2), (SpiderGame, SpiderDeal.from_number("spider-2", 5))],
)
def test_a_save_comes_back_as_its_kind_of_game_paused(
    tmp_path: Path, kind: type[Game] | type[SpiderGame], deal: Any
) -> None:
    clock = Clock()
    game = kind.new(deal=deal, store=SaveStore(tmp_path), clock=clock)
    clock.now += 7
    game.pause()
    clock.now += 50  # paused: these seconds are not played
    loaded = load_game(SaveStore(tmp_path), clock)
    assert type(loaded) is kind and loaded.deal == game.deal
    assert loaded.paused and loaded.seconds == 7
    clock.now += 5
    assert loaded.seconds == 7
    running = resume(SaveStore(tmp_path), clock=clock)
    assert running is not None and not running.paused
    clock.now += 5
    assert running.seconds == 12
    kept = resume(SaveStore(tmp_path), clock=clock, paused=True)
    assert kept is not None and kept.paused
    clock.now += 5
    assert kept.seconds == 7


def test_no_save_is_no_game(tmp_path: Path) -> None:
    assert load_game(SaveStore(tmp_path)) is None and resume(SaveStore(tmp_path)) is None


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        ({"format": "chess-game"}, "not a castle save"),
        ({"version": 2}, "format version 2"),
        ({"deal": 3}, "the board is not deal 3"),
        ({"deal": "2"}, "expected a deal number"),
        ({"board": 2}, "expected text"),
    ],
)
def test_a_save_that_is_no_game_is_set_aside_and_reported(
    tmp_path: Path, edit: dict[str, Any], said: str
) -> None:
    store = SaveStore(tmp_path)
    game = Game.new(deal=DEAL_2, store=store)
    game.move(6, 7)
    (tmp_path / "game.json").write_text(json.dumps({**game.to_save(), **edit}))
    assert load_game(store) is None
    assert len(store.notices) == 1 and said in store.notices[0]
    assert not (tmp_path / "game.json").exists()
    assert len(list(tmp_path.glob("game.json.corrupt-*"))) == 1


def test_a_game_left_unfinished_after_a_move_is_a_loss_at_its_level(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = Game.new("medium", deal=DEAL_2, store=store)
    assert not game.lost_if_left
    record_unfinished_as_lost(store)
    assert store.statistics() == {}  # no move made: nothing to lose
    game.move(6, 7)
    assert game.lost_if_left
    record_unfinished_as_lost(store)
    assert store.record("medium").losses == 1 and store.record("medium").wins == 0


def test_a_won_game_is_no_loss_and_is_over(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    clock = Clock()
    game = Game.new("medium", deal=DEAL_2, store=store, clock=clock)
    moves = iter(castle.solve(DEAL_2).moves)
    while not game.is_won:  # the last cards go up by themselves
        move = next(moves)
        clock.now += 1
        game.move(move.src, move.dst)
    assert game.is_won and store.record("medium").wins == 1
    assert not game.lost_if_left and not game.paused
    assert not (game.can_undo or game.can_redo or game.can_hint)
    with pytest.raises(IllegalMoveError, match="won"):
        game.undo()
    played_for = game.seconds
    clock.now += 60
    assert game.seconds == played_for  # the clock stopped at the win
    record_unfinished_as_lost(store)
    assert store.record("medium").losses == 0


def test_an_undo_counts_as_a_move_and_can_be_redone() -> None:
    game = Game(DEAL_2)
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        game.undo()
    game.move(6, 7)
    before = game.position
    game.undo()
    assert (game.moves, game.undos) == (2, 1) and game.can_redo and not game.can_undo
    assert game.position == DEAL_2 and game.position != before


def test_a_deal_is_named_by_its_number_or_as_custom() -> None:
    assert Game(DEAL_2).deal_name == "deal 2"
    custom = Deal.from_text(DEAL_2.to_text(), "beleaguered-castle")
    assert custom.number is None and Game(custom).deal_name == "a custom deal"


def test_each_game_starts_at_its_own_levels_only(tmp_path: Path) -> None:
    # One new() for both games: a level of the other family is refused before anything is
    # recorded, and each game's default level is its own.
    store = SaveStore(tmp_path)
    with pytest.raises(LevelError, match=r"Spider \(4 suits\) is not a level of castle\.Game"):
        Game.new("spider", store=store)
    with pytest.raises(LevelError, match=r"Medium is not a level of castle\.SpiderGame"):
        SpiderGame.new("medium", store=store)
    with pytest.raises(TypeError, match=r"Game\(\) takes a castle\.Deal, not SpiderDeal"):
        Game(SpiderDeal.from_number("spider", 1))  # type: ignore[arg-type]
    assert Game.new(rng=random.Random(1)).level == "easy"
    assert SpiderGame.new(rng=random.Random(1)).level == "spider"
    assert SpiderGame(SpiderDeal.from_number("spider-2", 1)).level == "spider-2"
    assert Game(Deal.from_number("citadel", 1)).level == "citadel"


@pytest.mark.parametrize("level_id", ["easy", "medium", "hard", "citadel", "spider-1", "spider"])
def test_the_headline_fits_80_columns_at_its_bounds(level_id: str) -> None:
    # The largest deal number, 99,999 moves (a Spider score of -99,499) and 100 hours less a
    # second: the terminal's status line shows it whole in 80 columns.
    now = [0.0]
    spider = level_id.startswith("spider")
    if spider:
        deal = SpiderDeal.from_number(level(level_id).variant, 2**31 - 1)
        game: Game | SpiderGame = SpiderGame(deal, level_id=level_id, clock=lambda: now[0])
    else:
        variant = level(level_id).variant
        game = Game(Deal.from_number(variant, 2**31 - 1), level_id=level_id, clock=lambda: now[0])
    now[0] = 100 * 3600 - 1
    game._moves = 99_999  # as many moves as the bound names, without playing them
    assert len(game.headline) <= 80, game.headline
    assert game.status == f"{game.headline} · {game.tally()}"


@pytest.mark.parametrize(
    ("saved", "imported"),
    [
        ("SpiderGame(castle.SpiderDeal.from_number('spider', 3))", "castle.Game.resume"),
        ("castle.Game(castle.Deal.from_number('beleaguered-castle', 2))", "castle.Game.resume"),
    ],
)
def test_a_save_of_any_kind_is_read_whatever_was_imported_first(
    tmp_path: Path, saved: str, imported: str
) -> None:
    # A fresh interpreter each: the save written, then read back through `imported` alone.
    write = (
        "import castle\nfrom castle import SpiderGame\n"
        f"game = {saved}\ngame.move(6, 7) if isinstance(game, castle.Game) else None\n"
        f"castle.SaveStore({str(tmp_path)!r}).save_game(game)\n"
    )
    subprocess.run([sys.executable, "-c", write], check=True, timeout=60)
    read = (
        "import castle\n"
        f"game = {imported}(castle.SaveStore({str(tmp_path)!r}))\n"
        "print(type(game).__name__, game.deal_name)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", read], capture_output=True, text=True, timeout=60, check=True
    )
    kind = "SpiderGame" if saved.startswith("Spider") else "Game"
    assert done.stdout.split() == [kind, "deal", saved.split(", ")[1].split(")")[0]], done.stderr
    assert not list(tmp_path.glob("*.corrupt-*"))  # nothing set aside
