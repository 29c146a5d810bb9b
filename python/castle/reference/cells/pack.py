"""The solver: dives (``dive``) that take turns, as fc-solve's soft threads. Eight dig dives
(:attr:`~.dive.Steps.DIGS`, each ranked by its own weights, all but the first with a little
noise) share one table: a position one has entered, no other enters, so each keeps to ground
the others have not walked, and a dive lost below a bad step costs only its turns. Their steps
leave some positions out, so beside them one complete dive (:attr:`~.dive.Steps.ALL`) walks a
table of its own: when it has run out, each position it entered has had all its steps taken, so
the table holds every position reachable from the deal (as the safe moves leave it), and there
is no win.

Translation of ``rust/src/cells/pack.rs``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...solving.cells import CellsDeal, CellsMove
from ..solver import Budget, Counter, End, Stop
from .dive import Dive, Noise, Steps
from .order import Weights
from .state import Key

#: Positions a dig dive expands in one turn.
TURN = 300
#: Positions the complete dive expands in one turn: most deals are won by a dig dive, and the
#: complete dive's turns are spent on them for nothing.
COMPLETE_TURN = 100
#: The noise added to the estimates of every dig dive but the first (up to 7).
NOISE = 8


def pack(
    deal: CellsDeal, weights: Sequence[Weights], budget: Budget, counter: Counter
) -> End[CellsMove]:
    """Dig dives ranked by each of ``weights``, and the complete dive by the first, in turn
    (the first dig dive, the complete dive, then the other dig dives), round and round until
    one wins, the complete dive has run out (the deal is lost), or ``budget`` stops them."""
    # The dig dives' table, and the complete dive's.
    tables: dict[Steps, set[Key]] = {Steps.DIGS: set(), Steps.ALL: set()}
    dives = [Dive(deal, w, noise(i), Steps.DIGS) for i, w in enumerate(weights)]
    dives.insert(min(1, len(dives)), Dive(deal, weights[0], None, Steps.ALL))
    while True:
        i = 0
        while i < len(dives):
            dive = dives[i]
            end = dive.go(tables[dive.steps], turn(dive, budget, counter), counter)
            if end.kind == "exhausted" and dive.steps == Steps.ALL:
                return end
            if end.kind == "exhausted":
                # The order of the others is kept: the same turns as the core's.
                del dives[i]
            elif end.kind == "limit" and end.stop == Stop.STATES:
                if budget.max_states is not None and counter.expanded >= budget.max_states:
                    return end
                i += 1
            else:
                return end


def turn(dive: Dive, budget: Budget, counter: Counter) -> Budget:
    """``dive``'s turn: :data:`TURN` positions more for a dig dive, :data:`COMPLETE_TURN` for
    the complete dive, or up to the caller's limits."""
    cap = counter.expanded + (COMPLETE_TURN if dive.steps == Steps.ALL else TURN)
    return Budget(
        cap if budget.max_states is None else min(cap, budget.max_states), budget.deadline
    )


def noise(i: int) -> Noise | None:
    """The noise of the pack's dig dive ``i``: none for the first."""
    return Noise(NOISE, 0x9E37_79B9 * (i + 7)) if i > 0 else None
