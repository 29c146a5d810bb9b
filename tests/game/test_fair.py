"""The fair Spider hint (castle.game.fair): it reads no hidden card, never loops, wins the saved
game where the old hint looped, and once nothing is hidden it is the solver's plan."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import castle
import pytest
from castle import SaveStore, SpiderDeal, SpiderGame, _core
from castle.game.fair import FairEffort, dealt_anew, fair_advice, fair_exits
from castle.game.spider_game import NO_MOVE_HELPS, _core_move
from castle.surveys.autoplay import autoplay_spider, play
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import DATA

#: A small effort, so that a test plays whole games in seconds.
QUICK = FairEffort(worlds=3, width=20, states=600, quiet=400, threads=1)


def core(move: castle.SpiderMove) -> tuple[str, int | None, int | None, int]:
    """A move as the player chooses it: its kind, columns and size (a deal's cards are what
    the stock holds, not the player's choice)."""
    return (move.kind, move.src, move.dst, len(move.cards))


def play_by_hints(
    game: SpiderGame, effort: FairEffort, most: int = 1_500, seed: int = 0
) -> castle.Hint[castle.SpiderMove]:
    """Presses the fair hint (drawing its worlds from ``seed``) until the game is won or the
    hint has no move; every position met must be new. Returns the last hint."""
    seen = {game.position.to_text()}
    hint = game.hint(fair=True, seed=seed, effort=effort)
    while hint.move is not None and not game.is_won:
        play(game, hint.move)
        text = game.position.to_text()
        assert text not in seen, f"position repeated after {game.moves} moves"
        seen.add(text)
        assert game.moves < most
        if not game.is_won:
            hint = game.hint(fair=True, seed=seed, effort=effort)
    return hint


def test_the_saved_game_where_the_hint_looped_is_won_by_the_fair_hint(tmp_path: Path) -> None:
    # Spider (1 suit), deal 373912594: the old hint moved T♠ between columns 3 and 6 for ever.
    shutil.copy(DATA / "spider-fair-loop" / "game.json", tmp_path / "game.json")
    game = castle.Game.resume(SaveStore(tmp_path))
    assert isinstance(game, SpiderGame)
    assert not game.position.stock and sum(len(c.down) for c in game.columns) == 0
    first = game.hint(fair=True)
    # Nothing is hidden: the hint is the solver's win, with its length.
    assert first.status == "solved" and first.left > 0
    play_by_hints(game, FairEffort())
    assert game.is_won


def test_a_world_dealt_anew_keeps_the_view_and_the_cards() -> None:
    deal = SpiderDeal.from_number("spider", 7)
    world = dealt_anew(deal, random.Random(3))

    def hidden(position: SpiderDeal) -> list[str]:
        return sorted(
            str(c) for c in [*position.stock, *(c for col in position.columns for c in col.down)]
        )

    assert world != deal and world.variant == deal.variant and hidden(world) == hidden(deal)
    for mine, theirs in zip(world.columns, deal.columns):
        assert mine.up == theirs.up and len(mine.down) == len(theirs.down)
    assert len(world.stock) == len(deal.stock) and world.off == deal.off
    # The core places only the hidden cards themselves.
    with pytest.raises(ValueError, match="face-down and stock cards"):
        deal.core.with_hidden([0] * len(hidden(deal)))


@pytest.mark.slow
def test_a_way_on_the_quiet_search_misses_is_found_and_the_game_won() -> None:
    # One-suit deal 8: with two cards face down and the stock empty, the next card can be
    # turned up only twelve quiet moves on, deeper than the quiet searches look. Without the
    # solver's worlds the hint gives up there; with them it finds the way and wins. (Seed 8,
    # as castle autoplay plays deal 8.)
    given_up = SpiderGame(SpiderDeal.from_number("spider-1", 8))
    last = play_by_hints(given_up, FairEffort(rescue=0), seed=8)
    assert last.move is None and not given_up.is_won
    assert sum(len(c.down) for c in given_up.columns) == 2 and not given_up.position.stock
    # The way on comes from worlds drawn from what is in sight: fair, whatever lies face down.
    end, visited = given_up.position, given_up.since_shown()
    advice = fair_advice(end, visited=visited, seed=8)
    assert advice.moves and not advice.exact
    assert advice.worlds == 4 and 1 <= advice.won <= 4  # the worlds won by way of its exit
    for shuffle in range(3):
        other = fair_advice(dealt_anew(end, random.Random(shuffle)), visited=visited, seed=8)
        assert [core(m) for m in other.moves] == [core(m) for m in advice.moves]
    game = SpiderGame(SpiderDeal.from_number("spider-1", 8))
    play_by_hints(game, FairEffort(), seed=8)
    assert game.is_won


def test_once_nothing_is_hidden_the_fair_hint_is_the_solvers_plan() -> None:
    endgame = SpiderDeal.from_text(
        "Stock:\nOff: S S S S S S\n"
        "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS\n"
        "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S\nAS\n:\n:\n:\n:\n:\n:\n:\n",
        "spider-1",
    )
    advice = fair_advice(endgame)
    assert advice.exact and advice.moves
    assert advice.moves == castle.solve(endgame).moves[: len(advice.moves)]
    game = SpiderGame(endgame)
    play_by_hints(game, QUICK)
    assert game.is_won


@settings(max_examples=25, deadline=None)
@given(
    variant=st.sampled_from(["spider-1", "spider-2", "spider"]),
    number=st.integers(1, 10_000),
    walk=st.integers(0, 40),
    shuffle=st.integers(0, 2**32),
)
def test_the_fair_hint_reads_no_hidden_card(
    variant: str, number: int, walk: int, shuffle: int
) -> None:
    # A position reached by some legal play, then the same view with other hidden cards: the
    # same advice, move for move.
    rng = random.Random(number * 41 + walk)
    position = SpiderDeal.from_number(variant, number)
    for _ in range(walk):
        moves = position.core.legal_moves()
        if not moves:
            break
        position = SpiderDeal(position.core.play(*rng.choice(moves)))
    other = dealt_anew(position, random.Random(shuffle))
    assert [c.up for c in other.columns] == [c.up for c in position.columns]
    mine = fair_advice(position, seed=7, effort=QUICK)
    theirs = fair_advice(other, seed=7, effort=QUICK)
    assert [core(m) for m in mine.moves] == [core(m) for m in theirs.moves]
    assert (mine.won, mine.worlds, mine.exact) == (theirs.won, theirs.worlds, theirs.exact)


@pytest.mark.parametrize(("variant", "number"), [("spider-1", 3), ("spider-2", 5), ("spider", 1)])
def test_the_fair_hint_never_returns_to_a_position(variant: str, number: int) -> None:
    # Played to the end by the hint alone: won, or an honest "no move helps", never a shuffle.
    game = SpiderGame(SpiderDeal.from_number(variant, number))
    last = play_by_hints(game, QUICK)
    if not game.is_won:
        assert last.move is None and str(last) in (
            NO_MOVE_HELPS,
            str(castle.Hint("unsolvable", None)),
        )


def test_the_fair_hint_goes_back_only_when_that_is_the_one_way_forward() -> None:
    # Stock empty, column 10 empty, 5S alone on the face-down cards of column 1: it can only
    # turn one up by going into the empty column. The player puts the 9S of column 2 there
    # (on nothing else does a 9 fit); the one way on is the 9S back onto the TS, a position
    # played before, and then the 5S into the emptied column.
    shown = ["5S", "TS", "9S"] + ["QS", "9S"] * 7
    left = [f"{r}S" for r in "A23456789TJQK" for _ in range(8)]
    for card in [*shown, "KS"]:
        left.remove(card)
    columns = [" ".join([*left, "KS"]) + " | 5S", "TS 9S"] + ["QS 9S"] * 7 + [":"]
    position = SpiderDeal.from_text("Stock:\n" + "\n".join(columns) + "\n", "spider-1")
    game = SpiderGame(position)
    game.move(1, 9, 1)
    back = game.hint(fair=True, effort=QUICK)
    assert back.move is not None and core(back.move) == ("run", 9, 1, 1)
    play(game, back.move)
    assert game.position == position
    on = game.hint(fair=True, effort=QUICK)
    assert on.move is not None and core(on.move) == ("run", 0, 9, 1)


@settings(max_examples=15, deadline=None)
@given(number=st.integers(1, 10_000), walk=st.integers(0, 30))
def test_a_fair_plan_passes_no_position_played_since_a_card_was_shown(
    number: int, walk: int
) -> None:
    rng = random.Random(number + walk)
    game = SpiderGame(SpiderDeal.from_number("spider-2", number))
    for _ in range(walk):
        moves = game.position.core.legal_moves()
        if not moves:
            break
        game._act(*rng.choice(moves))
    visited = {p.to_text() for p in game.since_shown()}
    advice = fair_advice(game.position, visited=game.since_shown(), seed=1, effort=QUICK)
    at = game.position
    for move in advice.moves[:-1]:
        at = SpiderDeal(at.core.play(*_core_move(move)))
        assert at.to_text() not in visited


def test_autoplay_follows_the_hint_a_player_sees() -> None:
    deal = SpiderDeal.from_number("spider-1", 2)
    result = autoplay_spider(deal, fair=True, effort=QUICK)
    game = SpiderGame(deal)
    play_by_hints(game, QUICK)
    assert (result.won, result.moves) == (game.is_won, game.moves)


def test_an_effort_of_nothing_is_refused() -> None:
    with pytest.raises(ValueError, match="quiet"):
        FairEffort(quiet=0)
    with pytest.raises(ValueError, match="weights"):
        FairEffort(weights=(1, 2, 3))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="states"):
        FairEffort(states=True)
    with pytest.raises(ValueError, match="layer must be a whole number from 0"):
        FairEffort(layer=-1)
    assert FairEffort(layer=0).layer == 0  # 0: breadth first
    with pytest.raises(ValueError, match="reveal_quiet must be a whole number from 1"):
        FairEffort(reveal_quiet=0)
    with pytest.raises(ValueError, match="reveal must be a whole number from 0"):
        FairEffort(reveal=-1)
    with pytest.raises(ValueError, match="worlds must be a whole number from 0"):
        FairEffort(worlds=2**63)
    with pytest.raises(ValueError, match="threads must be a whole number from 1"):
        FairEffort(threads=0)
    with pytest.raises(ValueError, match="weights"):
        FairEffort(weights=(1, 2, 3, 4, True))
    with pytest.raises(ValueError, match="weights"):
        FairEffort(weights=(1, 2, 3, 4, 1_000))
    with pytest.raises(ValueError, match="reveal_options must be below 1000"):
        FairEffort(reveal_options=1_000)
    with pytest.raises(ValueError, match="reveal_options must be a whole number from 0"):
        FairEffort(reveal_options=-1)


@pytest.mark.parametrize(
    ("variant", "number", "options"),
    [("spider-2", 12, 0), ("spider", 4, 0), ("spider", 6, 16), ("spider", 7, 8)],
)
def test_a_choice_judged_by_the_card_it_turns_up_reads_no_hidden_card(
    variant: str, number: int, options: int
) -> None:
    # Along a game played by it (the ways on each card leaves counted, `options`): the same
    # advice with the hidden cards dealt anew, and a plan that shows something only with its
    # last move.
    effort = FairEffort(
        reveal=3,
        reveal_quiet=200,
        reveal_options=options,
        quiet=2_000,
        threads=1,
    )
    game = SpiderGame(SpiderDeal.from_number(variant, number))
    rng = random.Random(number)
    for _ in range(6):
        position = game.position
        mine = fair_advice(position, seed=3, effort=effort)
        theirs = fair_advice(dealt_anew(position, rng), seed=3, effort=effort)
        assert [core(m) for m in mine.moves] == [core(m) for m in theirs.moves]
        for move in mine.moves:
            before = sum(len(c.down) for c in game.columns), len(game.position.stock)
            play(game, move)
            if move is not mine.moves[-1]:
                assert (sum(len(c.down) for c in game.columns), len(game.position.stock)) == before


def test_the_choices_weighed_are_fair_plans_and_hold_the_players_own() -> None:
    # Four-suit deal 1's opening: the player judges its first four exits by their cards.
    deal = SpiderDeal.from_number("spider", 1)
    plans = fair_exits(deal, most=4)
    assert len(plans) == 4 and len(set(plans)) == 4
    assert fair_advice(deal).moves in plans
    # Each plan is legal in any world a player cannot tell from the deal, and its last move,
    # only it, turns a card up (the deal is not weighed while a card can be).
    for world in (deal, dealt_anew(deal, random.Random(5)), dealt_anew(deal, random.Random(6))):
        assert fair_exits(world, most=4) == plans
        for plan in plans:
            game = SpiderGame(world)
            for i, move in enumerate(plan):
                down = sum(len(c.down) for c in game.columns)
                play(game, move)
                shown = sum(len(c.down) for c in game.columns) < down
                assert shown == (i == len(plan) - 1)
    assert fair_exits(deal, most=1) == plans[:1]
    with pytest.raises(ValueError, match="at least 1"):
        fair_exits(deal, most=0)


def test_the_effort_crosses_as_one_mapping_of_the_players_settings() -> None:
    # A setting no deck's player has is no setting: the core refuses it by name.
    deal = SpiderDeal.from_number("spider", 3)
    for gone in ("rollout", "plies", "candidates", "reveal_deep", "mobility"):
        with pytest.raises(ValueError, match=f'no fair effort "{gone}"'):
            _core.spider_fair_effort_check({gone: 0})
        with pytest.raises(ValueError, match="no fair effort"):
            _core.spider_fair_advice(deal.core, [], 0, {gone: 0})
    # The four-suit player's own values, given, are its default; another value is read.
    own = FairEffort(quiet=20_000, layer=100, reveal=4, reveal_quiet=2_000, reveal_options=16)
    assert fair_advice(deal, effort=own) == fair_advice(deal)
    ranked = fair_advice(deal, effort=FairEffort(reveal=0))
    assert ranked.moves == fair_exits(deal, most=1)[0]
