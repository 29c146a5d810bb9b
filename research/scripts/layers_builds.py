"""The layered pass of two builds on the same deal, both at once (one a core), in pairs: CPU
seconds of each and their ratio (docs/proofs.md); with --depth-first, the
depth-first pass instead.

    python research/scripts/layers_builds.py BEFORE/bin/python AFTER/bin/python \
        [--deal beleaguered-castle:2072] [--states 30000000] [--pairs 2] [--depth-first]

Each run is `castle_lab.complete_pass` in layers from the first position (`layers_after=1`),
with no memory bound, cut off after `--states` expansions, in a child process that reports its
own CPU time (user and system: the table's fresh pages are the system's work). With
--depth-first it is the depth-first pass alone: no layers, and no tries of the orbit pass, so
that every position counted is one the table looked up and entered (Beleaguered Castle 981 is
such a search of 9.7 million positions, to its end). The two children of a pair start
together, so that they share the machine's load; the states must be equal (the same search).
Each line gives both builds' positions a second of CPU. Each Python needs its build's lab module
(``castle_lab``, built with ``--release``: docs/guide/development.md).
"""

from __future__ import annotations

import argparse
import json
import subprocess

#: Run in the child: the pass's states and the CPU seconds it took, as JSON.
CHILD = """\
import json, sys, time
import castle_lab
from castle import _core
variant, number, states = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
depth_first = sys.argv[4] == "depth-first"
deal = _core.Deal.from_number(variant, number)
start = time.process_time()
layers_after, orbits_after = (None, 2**62) if depth_first else (1, None)
status, _, expanded, _ = castle_lab.complete_pass(
    deal, states, layers_after, None, None, orbits_after
)
print(json.dumps({"status": status, "states": expanded, "cpu": time.process_time() - start}))
"""


def pair(
    pythons: list[str], variant: str, number: int, states: int, kind: str
) -> list[dict[str, float]]:
    children = [
        subprocess.Popen(
            [python, "-c", CHILD, variant, str(number), str(states), kind],
            stdout=subprocess.PIPE,
            text=True,
        )
        for python in pythons
    ]
    answers = []
    for child in children:
        out, _ = child.communicate()
        if child.returncode != 0:
            raise SystemExit(f"a child failed (exit {child.returncode})")
        answers.append(json.loads(out))
    return answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="the Python of the build before")
    parser.add_argument("after", help="the Python of the build after")
    parser.add_argument("--deal", default="beleaguered-castle:2072", help="variant:number")
    parser.add_argument("--states", type=int, default=30_000_000)
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--depth-first", action="store_true", help="the depth-first pass")
    options = parser.parse_args()
    variant, number = options.deal.split(":")
    kind = "depth-first" if options.depth_first else "layers"
    print(
        f"{'pair':>4} {'before s':>9} {'after s':>9} {'after/before':>13} "
        f"{'before M/s':>11} {'after M/s':>10}  states"
    )
    for i in range(options.pairs):
        before, after = pair(
            [options.before, options.after], variant, int(number), options.states, kind
        )
        same = before["states"] == after["states"]
        print(
            f"{i + 1:4} {before['cpu']:9.2f} {after['cpu']:9.2f} "
            f"{after['cpu'] / before['cpu']:13.3f} "
            f"{before['states'] / before['cpu'] / 1e6:11.2f} "
            f"{after['states'] / after['cpu'] / 1e6:10.2f}  {after['states']:,.0f} "
            f"({'the same' if same else 'DIFFERENT'})"
        )


if __name__ == "__main__":
    main()
