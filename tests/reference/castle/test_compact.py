"""The reference's compact exact key (``castle/reference/castle/compact.py``, the translation of
``rust/src/castle/compact.rs``) and the complete pass keyed by it: the properties the Rust tests
check, on random play from random deals of every variant."""

from __future__ import annotations

import random
from collections.abc import Sequence

import castle
import pytest
from castle.cards import CARDS, RANKS, SUITS, Card
from castle.reference.castle import compact as compact_module
from castle.reference.castle import hand_off, search, walk
from castle.reference.castle.compact import (
    DEALT,
    ON_FOUNDATION,
    PRESENT,
    Compact,
    CompactKey,
    card_code,
)
from castle.reference.castle.moves import all_legal, apply, undo
from castle.reference.castle.state import BOTTOM, NOT_IN_TABLEAU, State
from castle.reference.solver import Budget, Counter, Deadline
from castle.solving.solve import FOUNDATION, Move
from hypothesis import given, settings
from hypothesis import strategies as st

SA = "streets-and-alleys"


def laid_out(variant: str, rng: random.Random, midgame: bool) -> castle.Deal:
    """The cards laid out at random: dealt round the 8 columns, or (``midgame``) with the
    lowest few ranks of each suit already up and the rest in columns at random (some may be
    empty)."""
    lowest = 0 if variant == SA else 1  # the other two deal the aces up
    tops = {suit: rng.randint(lowest, 5) if midgame else lowest for suit in SUITS}
    rest = [card for card in CARDS if card.rank > tops[card.suit]]
    rng.shuffle(rest)
    columns: list[list[Card]] = [[] for _ in range(8)]
    for i, card in enumerate(rest):
        columns[rng.randrange(8) if midgame else i % 8].append(card)
    up = " ".join(f"{suit}-{RANKS[tops[suit] - 1]}" for suit in SUITS if tops[suit])
    lines = ([f"Foundations: {up}"] if up else []) + [
        " ".join(map(str, column)) if column else ":" for column in columns
    ]
    return castle.Deal.from_text("\n".join(lines) + "\n", variant)


@st.composite
def deals(draw: st.DrawFn) -> castle.Deal:
    """A deal of any variant: PySolFC's (both generators' ranges), or a random layout, or a
    random midgame board."""
    variant = draw(st.sampled_from(castle.VARIANTS))
    kind = draw(st.sampled_from(["number", "layout", "midgame"]))
    if kind == "number":
        number = draw(st.one_of(st.integers(1, 31_999), st.integers(32_000, 2**31 - 1)))
        return castle.Deal.from_number(variant, number)
    return laid_out(variant, draw(st.randoms(use_true_random=False)), kind == "midgame")


def kept_after(
    compact: Compact, kept: CompactKey, state: State, move: Move, undone: bool
) -> CompactKey:
    """The kept key after ``move`` was made (or taken back): one card moved, onto what the
    columns now show under it (read from the columns, not from the state's exact key)."""
    to = move.src if undone else move.dst
    if to == FOUNDATION:
        return compact.place(kept, move.card, NOT_IN_TABLEAU)
    column = state.columns[int(to)]
    under = column[-2].index + 1 if len(column) >= 2 else BOTTOM
    return compact.place(kept, move.card, under)


def check_position(compact: Compact, state: State, key: CompactKey) -> None:
    """``key`` is ``state``'s compact key, from the columns and from the exact key, and reads
    back to the same position with its columns in the canonical order."""
    assert key == compact.encode(state)
    assert key == compact.encode_key(state.key())
    back = compact.decode(key)
    assert back.key() == state.key()
    assert back.foundations == state.foundations
    assert compact.encode(back) == key
    filled = [column for column in back.columns if column]
    assert back.columns == filled + [[]] * (len(back.columns) - len(filled))
    bottoms = [column[0].index for column in filled]
    assert bottoms == sorted(bottoms)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(deals(), st.randoms(use_true_random=False))
def test_the_kept_key_identifies_exactly_the_positions_the_exact_key_does(
    deal: castle.Deal, rng: random.Random
) -> None:
    # Random play, every legal move (into any empty column too), now and then a move taken
    # back: at each position the key kept move by move is the position's, it reads back, and
    # over the whole walk compact keys and exact keys match one to one.
    compact = Compact(deal)
    by_exact: dict[bytes, CompactKey] = {}
    by_compact: dict[CompactKey, bytes] = {}
    for _walk in range(4):
        state = State.from_deal(deal)
        kept = compact.encode(state)
        line: list[Move] = []
        for _step in range(150):
            check_position(compact, state, kept)
            exact = state.key()
            assert by_exact.setdefault(exact, kept) == kept
            assert by_compact.setdefault(kept, exact) == exact
            legal: list[Move] = []
            all_legal(state, legal)
            if not legal or (line and rng.randrange(8) == 0):
                if not line:
                    break
                move = line.pop()
                undo(state, move)
                kept = kept_after(compact, kept, state, move, undone=True)
                continue
            move = rng.choice(legal)
            apply(state, move)
            kept = kept_after(compact, kept, state, move, undone=False)
            line.append(move)
    assert len(by_exact) == len(by_compact)


@settings(max_examples=40, deadline=None)
@given(deals(), st.randoms(use_true_random=False))
def test_no_move_lowers_the_layer(deal: castle.Deal, rng: random.Random) -> None:
    # Forward random play: the layer starts at 0, no move lowers it, one move raises it by at
    # most two (a card leaving a card it was dealt on, not one rank higher, for its
    # foundation). And it is what it says: counted from the position itself.
    compact = Compact(deal)
    state = State.from_deal(deal)
    dealt = state.key()
    layer = compact.layer(compact.encode(state))
    assert layer == 0
    for _step in range(200):
        legal: list[Move] = []
        all_legal(state, legal)
        if not legal:
            break
        apply(state, rng.choice(legal))
        now = state.key()
        up = sum(u == NOT_IN_TABLEAU != d for u, d in zip(now, dealt))
        left = sum(
            u != d and 0 < d != NOT_IN_TABLEAU and CARDS[d - 1].rank != CARDS[i].rank + 1
            for i, (u, d) in enumerate(zip(now, dealt))
        )
        following = compact.layer(compact.encode(state))
        assert following == up + left
        assert layer <= following <= layer + 2, (layer, following)
        layer = following


@pytest.mark.parametrize("variant", castle.VARIANTS)
def test_the_deal_itself_is_all_dealt_codes(variant: str) -> None:
    for number in (1, 5, 40_000):
        deal = castle.Deal.from_number(variant, number)
        compact = Compact(deal)
        state = State.from_deal(deal)
        key = compact.encode(state)
        # All zero codes, only PRESENT set: never the all-zero key.
        assert key == compact.dealt_key() == PRESENT != 0
        assert all(card_code(key, card) == DEALT for card in CARDS)
        # A card taken off the tableau changes its code and nothing else's.
        card = state.pop(0)
        moved = compact.encode(state)
        assert moved == compact.place(key, card, NOT_IN_TABLEAU) != 0
        for other in CARDS:
            assert card_code(moved, other) == (ON_FOUNDATION if other == card else DEALT)


def test_the_bits_are_the_rust_keys() -> None:
    # CompactKey { low: u128, high: u32 }: cards 0..42 three bits each from bit 0 of `low`,
    # cards 42..52 from bit 0 of `high` (bit 128 here), PRESENT its bit 31.
    deal = castle.Deal.from_number(SA, 1)
    compact = Compact(deal)
    assert PRESENT == 1 << 159
    for index, shift in ((0, 0), (41, 123), (42, 128), (51, 155)):
        card = CARDS[index]
        assert compact.place(PRESENT, card, NOT_IN_TABLEAU) == PRESENT | ON_FOUNDATION << shift
    everything_up = compact.encode(State([[] for _ in deal.columns], {}))
    assert everything_up == PRESENT | sum(ON_FOUNDATION << 3 * i for i in range(42)) | sum(
        ON_FOUNDATION << 128 + 3 * i for i in range(10)
    )
    assert everything_up < 1 << 160


# Deals whose complete pass runs after the quick and beam passes ran dry, and proves
# "unsolvable" in 1,100 to 1,700 positions.
COMPLETE_PASS_DEALS = [("beleaguered-castle", 65), (SA, 31), ("citadel", 65)]


@pytest.mark.parametrize(("variant", "number"), COMPLETE_PASS_DEALS)
def test_the_complete_pass_keeps_each_positions_key(
    variant: str, number: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every key the complete pass keeps (the first position's, and each child's from its
    # parent's) is its position's, and no two positions share one: the pass expands exactly
    # the positions an exact key would. Its verdict, states and moves
    # are the Rust core's.
    deal = castle.Deal.from_number(variant, number)
    compact = Compact(deal)
    by_exact: dict[bytes, CompactKey] = {}
    by_compact: dict[CompactKey, bytes] = {}
    child_key = compact_module.child_key

    def checked(
        _compact: Compact, key: CompactKey, state: State, line: Sequence[Move]
    ) -> CompactKey:
        child = child_key(_compact, key, state, line)
        assert child == compact.encode(state)
        assert by_exact.setdefault(state.key(), child) == child
        assert by_compact.setdefault(child, state.key()) == state.key()
        return child

    # The walk keys each child; the hand-off to the layers keys the seeds.
    monkeypatch.setattr(walk, "child_key", checked)
    monkeypatch.setattr(hand_off, "child_key", checked)
    counter = Counter()
    end = search.search(deal, "complete", Budget(None, Deadline()), counter)
    assert end.kind == "exhausted"
    # Each position it met was expanded once: one compact key each.
    assert len(by_compact) == len(by_exact) == counter.expanded > 1000
    fast = castle.solve(deal)
    slow = search.solve(deal)
    assert (slow.status, slow.states, slow.moves) == (fast.status, fast.states, fast.moves)
    assert fast.status == "unsolvable"
