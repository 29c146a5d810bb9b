"""A saved game comes back whole: random play with undos, redos and save round trips, for
castle and Spider games alike. Two copies of a game take the same actions, one kept in memory
and one written to its save and read back at random moments; every action must do the same to
both (the same move, or the same refusal), and the saves must agree at every step."""

from __future__ import annotations

import json
import random
from functools import partial
from typing import Any, Callable, Union

import castle
from castle import Deal, Game, SpiderDeal, SpiderGame
from castle.solve import Target
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
