"""The complete pass's tries (the orbit pass, the plain walk, then beams): the reference follows
the Rust core expansion for expansion when a try's plain walk wins and when the last tries'
beams do (the table full, before the layers), and the win comes sooner than the walk's."""

from __future__ import annotations

from typing import Any

import castle
import castle_lab
import pytest
from castle import reference
from castle.reference.castle import search
from castle.reference.castle.tries import PLAIN_LATE, PLAIN_MOST, Tries
from castle.reference.solver import Budget, Counter, Deadline, End
from castle.solving.solve import Move, make_move

#: The walk alone wins it after 4.9 million positions; with tries from 1,000 on, the plain walk
#: wins at the second tries (2,440 expansions in all).
LATE_WIN = ("beleaguered-castle", 2823)
TRIES_AT = 1_000


@pytest.mark.slow
def test_the_reference_follows_a_tries_plain_walk_to_its_win() -> None:
    deal = castle.Deal.from_number(*LATE_WIN)
    status, moves, states, _ = castle_lab.complete_pass(
        deal.core, 200_000, None, None, None, TRIES_AT
    )
    alone = castle_lab.complete_pass(deal.core, 100_000, None, None, None, 1 << 62)
    assert (status, alone[0]) == ("solved", "unknown")
    assert states < 5_000
    counter = Counter()
    end = search.search(
        deal, "complete", Budget(200_000, Deadline()), counter, orbits_after=TRIES_AT
    )
    assert (end.kind, counter.expanded) == ("won", states)
    assert end.path == [make_move(*m) for m in moves]
    assert reference.replay(deal, end.path).is_won()


def test_the_plain_walk_comes_back_on_the_hard_deals() -> None:
    # As the core's tries: twice the table up to its most once, then nothing until the table
    # is past PLAIN_LATE, then the table's size at each tries; never once it has run dry.
    tries = Tries(0)
    assert tries.plain_share(1_000) == 2_000
    assert tries.plain_share(PLAIN_MOST) == PLAIN_MOST
    tries.plain_had_most = True
    assert tries.plain_share(PLAIN_LATE // 4) is None
    assert tries.plain_share(PLAIN_LATE) == PLAIN_LATE
    assert tries.plain_share(4 * PLAIN_LATE) == 4 * PLAIN_LATE
    tries.plain = False
    assert tries.plain_share(PLAIN_LATE) is None


#: The walk alone wins it after 35,275 positions. With tries from 200 positions on and the
#: table full at 700, the last tries' beams win before the layers.
LAST_WIN = ("beleaguered-castle", 405)


def test_the_reference_follows_the_last_tries_to_their_win(monkeypatch: pytest.MonkeyPatch) -> None:
    deal = castle.Deal.from_number(*LAST_WIN)
    status, moves, states, _ = castle_lab.complete_pass(deal.core, 200_000, 700, None, None, 200)
    assert status == "solved"
    # Without the tries, the layers have not won within as many expansions.
    alone = castle_lab.complete_pass(deal.core, states, 700, None, None, 1 << 62)
    assert alone[0] == "unknown"
    # The reference's last tries are the ones that win.
    wins: list[bool] = []
    make_last = Tries.make_last

    def noted(self: Tries, *args: Any) -> End[Move] | None:
        end = make_last(self, *args)
        wins.append(end is not None and end.kind == "won")
        return end

    monkeypatch.setattr(Tries, "make_last", noted)
    counter = Counter()
    end = search.search(
        deal, "complete", Budget(200_000, Deadline()), counter, layers_after=700, orbits_after=200
    )
    assert (end.kind, counter.expanded, wins) == ("won", states, [True])
    assert end.path == [make_move(*m) for m in moves]
    assert reference.replay(deal, end.path).is_won()
