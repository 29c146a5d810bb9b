"""Spider (docs/rules.md §4): the deal, board text, every rule, the solver's answers and the
reference's agreement with it."""

from __future__ import annotations

from collections import Counter

import castle
import pytest
from castle import BoardError, SpiderDeal, SpiderMove
from castle.reference import spider as ref
from castle.solving.settings import SolveSettings
from castle.solving.spider import solve_spider


@pytest.mark.parametrize(("variant", "suits"), [("spider", 4), ("spider-2", 2), ("spider-1", 1)])
def test_the_deal_follows_the_seed(variant: str, suits: int) -> None:
    deal = SpiderDeal.from_number(variant, 17)
    assert [len(c.down) for c in deal.columns] == [5, 5, 5, 5, 4, 4, 4, 4, 4, 4]
    assert all(len(c.up) == 1 for c in deal.columns)
    assert len(deal.stock) == 50 and not deal.off
    cards = Counter(c for col in deal.columns for c in col.down + col.up)
    cards.update(deal.stock)
    assert len({c.suit for c in cards}) == suits
    assert set(cards.values()) == {8 // suits} and sum(cards.values()) == 104
    assert deal == SpiderDeal.from_number(variant, 17) != SpiderDeal.from_number(variant, 18)


def test_board_text_round_trips_and_names_faults() -> None:
    deal = SpiderDeal.from_number("spider-2", 3)
    text = deal.to_text()
    assert text.startswith("Stock: ") and " | " in text
    back = SpiderDeal.from_text(text)
    assert back.variant == "spider-2" and back.to_text() == text and back.number is None
    with pytest.raises(BoardError) as e:
        SpiderDeal.from_text(text.replace("Stock: ", "Stock: 1Z ", 1))
    assert (e.value.line, e.value.token) == (1, "1Z")
    with pytest.raises(BoardError, match="in the Spider"):
        SpiderDeal.from_text("\n".join(text.splitlines()[:-1]) + "\n:\n")
    lines = text.splitlines()
    lines[1] = lines[1].split("|")[0] + "|"  # face-down cards with nothing face up
    with pytest.raises(BoardError, match="face-down cards and none face up"):
        SpiderDeal.from_text("\n".join(lines))


def test_a_lone_surrogate_in_spider_text_is_a_board_error() -> None:
    text = SpiderDeal.from_number("spider-2", 3).to_text()
    second = text.splitlines()[1]
    bad = text.replace(second, second.replace(" | ", " |\udcff", 1), 1)
    with pytest.raises(BoardError, match="not text") as e:
        SpiderDeal.from_text(bad)  # a UnicodeEncodeError from the core before
    assert e.value.line == 2 and e.value.token is not None and "\\udcff" in e.value.token
    with pytest.raises(BoardError, match="not text"):
        SpiderDeal.from_text(bad, "spider-2")


def test_deal_numbers_the_core_cannot_hold_are_board_errors() -> None:
    with pytest.raises(BoardError, match="out of range"):
        SpiderDeal.from_number("spider", 2**64)  # an OverflowError before
    assert SpiderDeal.from_number("spider", 2**63 - 1).number == 2**63 - 1


ENDGAME = (
    "Stock:\nOff: S S S S S S\n"
    "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S | AS\n"
    "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S\nAS\n:\n:\n:\n:\n:\n:\n:\n"
)


def test_rules_runs_kings_deals_and_runs_off() -> None:
    state = ref.SpiderState.from_deal(SpiderDeal.from_text(ENDGAME))
    # A king, with all below it, goes only to an empty column; the ace on 2S turns up the 2S.
    assert ref.is_legal(state, ref.run_move(state, 1, 3, 12))
    assert not ref.is_legal(state, ref.run_move(state, 1, 2, 12))
    ace = ref.run_move(state, 0, 1, 1)
    assert ace == SpiderMove("run", (castle.Card(1, "S"),), 0, 1)
    turned = ref.apply(state, ace)
    assert turned and state.cols[0].down == 11
    # The complete run may go off, or stay: both are moves the solver may choose.
    moves: list[SpiderMove] = []
    ref.generate(state, True, moves)
    assert ref.off_move(state, 1) in moves and ref.run_move(state, 1, 3, 12) in moves
    # A move must name the cards it carries.
    assert not ref.is_legal(state, SpiderMove("off", ref.off_move(state, 1).cards[1:], 1))
    assert not ref.is_legal(state, SpiderMove("run", (castle.Card(2, "S"),), 1, 3))
    # No deal with an empty column, nor from an empty stock.
    assert not ref.is_legal(state, ref.deal_move(state))
    dealt = ref.SpiderState.from_deal(SpiderDeal.from_number("spider", 3))
    assert ref.is_legal(dealt, ref.deal_move(dealt))
    assert not ref.is_legal(dealt, SpiderMove("deal", ()))
    dealt.cols[4].cards.clear()
    dealt.cols[4].down = 0
    assert not ref.is_legal(dealt, ref.deal_move(dealt))


def test_a_mixed_suit_run_does_not_move_as_a_unit() -> None:
    # After a deal every column shows two cards: they move as one only when the upper is one
    # rank below the lower and of its suit.
    state = ref.SpiderState.from_deal(SpiderDeal.from_number("spider-2", 1))
    ref.apply(state, ref.deal_move(state))
    for src, col in enumerate(state.cols):
        lower, upper = col.cards[-2], col.cards[-1]
        unit = lower.suit == upper.suit and lower.rank == upper.rank + 1
        assert (col.run_len() >= 2) == unit
        for dst, target in enumerate(state.cols):
            fits = dst != src and target.cards[-1].rank == lower.rank + 1
            assert ref.is_legal(state, ref.run_move(state, src, dst, 2)) == (unit and fits)


@pytest.mark.parametrize("number", [1, 4])
def test_one_suit_deals_are_won_and_the_wins_replay(number: int) -> None:
    deal = SpiderDeal.from_number("spider-1", number)
    solution = castle.solve(deal, max_seconds=30)
    assert solution.status == "solved"
    assert ref.replay(deal, solution.moves).is_won()
    kinds = {m.kind for m in solution.moves}
    assert kinds == {"run", "deal", "off"}
    shapes = {tuple(sorted(m.to_json())) for m in solution.moves}
    assert shapes == {("cards", "from", "to"), ("deal",), ("off",)}


#: Six runs off, a complete run on the table, three cards beside it, ten in the stock. Kept,
#: the run's cards can be spread over the empty columns, so that the stock can be dealt; taken
#: off, thirteen cards cannot fill ten columns, and the stock is never dealt.
KEPT_RUN = (
    "Stock: KS TS 5S 6S AS 4S QS 7S 3S 2S\nOff: S S S S S S\n"
    "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS\n:\n:\n9S\n8S\n:\n:\n:\n:\nJS\n"
)


def test_taking_a_run_off_can_lose_so_the_solver_never_does_it_by_itself() -> None:
    # Why no run goes off automatically (the turn-up is the solver's only automatic move):
    # here keeping the run wins and taking it off loses, as the complete search proves.
    kept = SpiderDeal.from_text(KEPT_RUN, "spider-1")
    won = castle.solve(kept)
    assert won.status == "solved"
    assert ref.replay(kept, won.moves).is_won()
    assert any(m.kind == "run" and m.src == 0 and len(m.cards) < 13 for m in won.moves)
    state = ref.SpiderState.from_deal(kept)
    ref.apply(state, ref.off_move(state, 0))
    taken_text = KEPT_RUN.replace("Off: S S S S S S\n", "Off: S S S S S S S\n").replace(
        "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS\n", ":\n"
    )
    off = SpiderDeal.from_text(taken_text, "spider-1")
    assert ref.SpiderState.from_deal(off) == state  # the position after the run goes off
    assert castle.solve(off).status == "unsolvable"
    assert ref.solve(off).status == "unsolvable"


def test_bad_spider_input_is_a_clear_error() -> None:
    with pytest.raises(castle.VariantError):
        SpiderDeal.from_number("spider-3", 1)
    with pytest.raises(ValueError):
        SpiderDeal.from_number("spider", 0)
    with pytest.raises(castle.LimitError, match="short"):
        castle.solve(SpiderDeal.from_number("spider", 1), short=True)
    bad: list[object] = [0, -3, True, 2.5, 2_000_000]
    for width in bad:
        with pytest.raises(ValueError, match="beam_width"):
            solve_spider(SpiderDeal.from_number("spider", 1), SolveSettings(), beam_width=width)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="beam_width"):
            ref.solve(SpiderDeal.from_number("spider", 1), beam_width=width)  # type: ignore[arg-type]
