"""castle.SpiderGame and Spider in the player: score, refusals, saves, and a Spider game won
through the API, the full-screen player's keys and the line mode."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import castle
import pytest
from castle import IllegalMoveError, LevelRecord, SaveStore, SpiderDeal, SpiderGame, Table
from castle.actions import Advise, PlayHint
from castle.surveys.autoplay import play

DEAL = SpiderDeal.from_number("spider-1", 1)
ENDGAME = SpiderDeal.from_text(
    "Stock:\nOff: S S S S S S\n"
    "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S | AS\n"
    "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S\nAS\n:\n:\n:\n:\n:\n:\n:\n"
)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_classic_score_and_undo() -> None:
    game = SpiderGame(ENDGAME, clock=Clock())
    assert game.score == 500
    game.move(0, 1)  # AS onto 2S: the column under it turns up its 2S
    assert game.columns[0].up[-1] == castle.Card(2, "S") and game.score == 499
    game.take_off(1)
    assert game.score == 499 - 1 + 100 and game.off == ["S"] * 7
    game.undo()  # the run's points go, and the undo is a move
    assert game.score == 500 - 3 and game.off == ["S"] * 6
    game.redo()
    assert game.score == 500 - 4 + 100


def test_refusals_change_nothing() -> None:
    game = SpiderGame(ENDGAME, clock=Clock())
    before = game.position
    with pytest.raises(IllegalMoveError, match="stock is empty"):
        game.deal_row()
    with pytest.raises(IllegalMoveError, match="no complete K-A run"):
        game.take_off(1)
    with pytest.raises(IllegalMoveError, match="does not fit on AS"):
        game.move(1, 2, 1)
    with pytest.raises(IllegalMoveError, match="source column must be 0 to 9"):
        game.move(10, 2)
    assert game.position == before and game.moves == 0
    dealt = SpiderGame(SpiderDeal.from_number("spider", 4), clock=Clock())
    dealt.deal_row()
    mixed = next(
        i for i, c in enumerate(dealt.columns) if c.up[-2].suit != c.up[-1].suit
    )  # two cards of different suits on top: no unit
    with pytest.raises(IllegalMoveError, match="not a run of one suit"):
        dealt.move(mixed, (mixed + 1) % 10, 2)
    assert dealt.moves == 1


def test_a_spider_game_is_won_through_the_api(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    game = SpiderGame.new("spider-1", deal=DEAL, store=store, clock=Clock())
    solution = castle.solve(DEAL)
    for move in solution.moves:
        play(game, move)
    assert game.is_won and game.moves == len(solution.moves)
    assert game.score == 500 - len(solution.moves) + 800
    assert store.record("spider-1") == LevelRecord(1, 0, 1, 1)


def test_a_spider_save_resumes_exactly_and_a_bad_one_is_set_aside(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    clock = Clock()
    game = SpiderGame.new("spider-1", deal=DEAL, store=store, clock=clock)
    for move in castle.solve(DEAL).moves[:15]:
        clock.now += 1
        play(game, move)
    game.undo()
    again = castle.Game.resume(SaveStore(tmp_path), clock=clock)
    assert isinstance(again, SpiderGame)
    assert again.history == game.history and again.position == game.position
    assert (again.moves, again.undos, again.seconds) == (game.moves, game.undos, 15)
    again.redo()
    data = json.loads(store.game_path.read_text())
    data["done"][3] = ["run", 0, 0, 1]
    store.game_path.write_text(json.dumps(data))
    assert castle.Game.resume(store) is None and "Spider save" in store.notices[0]


def test_following_the_thoughtful_spider_hint_wins_with_one_search() -> None:
    game = castle.SpiderGame(castle.SpiderDeal.from_number("spider-1", 1))
    hints: list[castle.Hint[castle.SpiderMove]] = []
    while not game.is_won and len(hints) < 500:
        hint = game.hint(max_seconds=30)
        hints.append(hint)
        assert hint.move is not None
        play(game, hint.move)
    assert game.is_won
    assert [h.searched for h in hints] == [True] + [False] * (len(hints) - 1)


@pytest.mark.slow
def test_a_fair_hint_stops_when_cancelled() -> None:
    # Spider (4 suits) deal 4 at move 122, as its fair hint plays it: there the hint's search
    # takes seconds (its solver plays sampled worlds). Set 0.3 s in, the cancel stops it.
    game = SpiderGame(SpiderDeal.from_number("spider", 4))
    table = Table(game)
    while game.moves < 122:
        table.act(Advise())
        assert table.act(PlayHint()).done
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    began = time.monotonic()
    hint = game.hint(fair=True, cancel=cancel)
    assert time.monotonic() - began < 2.0
    assert hint.move is None and hint.status == "unknown" and hint.why is None
    uncancelled = game.hint(fair=True)  # the same position, let think: an answer
    assert uncancelled.move is not None or uncancelled.why is not None
