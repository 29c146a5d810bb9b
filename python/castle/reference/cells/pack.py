"""The solver: dives (``dive``) that share one table, each a turn at a time, as fc-solve's soft
threads. A position one dive has entered no other enters, so each keeps to ground the others
have not walked, and a dive lost below a bad step costs only its turns. When every dive has run
out, each position entered has had all its steps taken by the dive that entered it: the table
is closed under the steps and holds every position reachable from the deal (as the safe moves
leave it), so there is no win.

Translation of ``rust/src/cells/pack.rs``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...solving.cells import CellsDeal, CellsMove
from ..solver import Budget, Counter, End, Stop
from .dive import Dive, Noise
from .order import Weights
from .state import Key

#: Positions a dive expands in one turn.
TURN = 500
#: The noise added to the estimates of every dive but the first (up to 7).
NOISE = 8


def pack(
    deal: CellsDeal, weights: Sequence[Weights], budget: Budget, counter: Counter
) -> End[CellsMove]:
    """Dives ranked by ``weights``, in turn, :data:`TURN` positions each, round and round until
    one wins, all have run out (the deal is lost), or ``budget`` stops them."""
    table: set[Key] = set()
    dives = [Dive(deal, w, noise(i)) for i, w in enumerate(weights)]
    while dives:
        i = 0
        while i < len(dives):
            end = dives[i].go(table, turn(budget, counter), counter)
            if end.kind == "exhausted":
                # The order of the others is kept: the same turns as the core's.
                del dives[i]
            elif end.kind == "limit" and end.stop == Stop.STATES:
                if budget.max_states is not None and counter.expanded >= budget.max_states:
                    return end
                i += 1
            else:
                return end
    return End("exhausted", [])


def turn(budget: Budget, counter: Counter) -> Budget:
    """A dive's turn: :data:`TURN` positions more, or up to the caller's limits."""
    cap = counter.expanded + TURN
    return Budget(
        cap if budget.max_states is None else min(cap, budget.max_states), budget.deadline
    )


def noise(i: int) -> Noise | None:
    """The noise of the pack's dive ``i``: none for the first."""
    return Noise(NOISE, 0x9E37_79B9 * (i + 7)) if i > 0 else None
