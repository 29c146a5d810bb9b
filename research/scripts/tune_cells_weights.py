"""A coordinate descent over the free-cell solver's dive weights (``DIVE_WEIGHTS`` in
rust/src/cells/order.rs), as the lab program ``cellslab`` measures them: the sum over FreeCell
deals of the logarithm of the positions each takes (every deal counts alike, so a few deals
that take long do not rule it). Each weight of each dive in turn moves by 1, -1, 2 or -2; the
first move that lowers the sum by more than ``--margin`` is kept. Check what it finds on deals
it did not see (``DIVES=... cellslab freecell 32001-40000 10``)::

    cargo build --release -p castle-lab --bin cellslab
    nice python research/scripts/tune_cells_weights.py --deals 1-8000 --rounds 2 \\
        --cellslab target/release/cellslab

Weights are written as ``cellslab`` reads them (``DIVES``): letters and numbers, ``o4a2u0f3e6l2r3``.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import subprocess

LETTERS = "oaufelr"
START = [
    "o4a2u0f3e6l2r3",
    "o6a1u2f4e8l0r4",
    "o4a4u0f1e6l4r0",
    "o4a2u0f3e6l8r0",
    "o2a2u1f3e10l6r0",
    "o4a2u0f6e12l2r3",
    "o10a2u2f3e6l2r3",
    "o4a2u0f3e6l2r3",
]


def parse(text: str) -> list[int]:
    return [int(x) for x in re.findall(r"\d+", text)]


def text(weights: list[int]) -> str:
    return "".join(f"{letter}{x}" for letter, x in zip(LETTERS, weights))


def score(cellslab: str, deals: str, dives: list[list[int]]) -> tuple[float, int]:
    """The sum of log(positions + 1) over ``deals``, and the positions."""
    env = dict(os.environ, DIVES=",".join(text(w) for w in dives), EACH="1")
    out = subprocess.run(
        [cellslab, "freecell", deals, "10"], env=env, capture_output=True, text=True, check=True
    ).stdout
    states = [
        int(w[3]) for w in map(str.split, out.splitlines()) if len(w) > 3 and w[2] == "states"
    ]
    return sum(math.log(s + 1) for s in states), sum(states)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1-8000")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--margin", type=float, default=5.0)
    parser.add_argument("--cellslab", default="target/release/cellslab")
    parser.add_argument("--start", default=",".join(START), help="the dives to start from")
    args = parser.parse_args()
    dives = [parse(w) for w in args.start.split(",")]
    best, total = score(args.cellslab, args.deals, dives)
    print("start", round(best, 1), total, flush=True)
    for round_ in range(args.rounds):
        for d in range(len(dives)):
            for k in range(len(LETTERS)):
                for delta in (1, -1, 2, -2):
                    trial = [list(w) for w in dives]
                    trial[d][k] += delta
                    if trial[d][k] < 0:
                        continue
                    s, t = score(args.cellslab, args.deals, trial)
                    if s < best - args.margin:
                        best, dives = s, trial
                        print(round_, d, LETTERS[k], delta, round(s, 1), t, flush=True)
                        break
    print("final", round(best, 1), ",".join(text(w) for w in dives), flush=True)


if __name__ == "__main__":
    main()
