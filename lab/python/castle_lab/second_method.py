"""Every "unsolvable" of a survey file checked by a second, exact method: the complete pass's
walk alone, with exact keys and no tries (so no orbit pass), going on in layers (on disk in
``--spill-dir`` when its table fills ``--max-memory``) until it runs out of moves.

    nice python -m castle_lab.second_method --db t10.db --variant streets-and-alleys \\
        [--deals 1-10000] [--min-states 131072] [--by-table] --csv second.csv \\
        [--max-states 100000000] [--max-memory 6GiB] [--spill-dir DIR]

The solve proves most deals lost by the orbit pass (``rust/src/castle/orbits.rs``), whose "no"
rests on an argument of over-approximation; this search shares nothing with it but the move
generator and the keys. Each deal checked is a CSV row as it ends (``variant, deal, states
(the survey's), second (unsolvable, solved or unknown), second_states, seconds, limit``), so
a run stopped or killed resumes with the same command. ``--min-states`` checks only the deals
the survey proved past so many states (the tries come at 2^17). A deal the second method
wins is a contradiction: its moves are replayed through ``castle.reference``, the row says
``solved`` and the exit status is 1. ``unknown`` rows (past ``--max-states``) are the deals
that do not fit; the summary lists them.

``--by-table`` names the proofs by the shipped verdict table instead: the deals the survey
left unknown at its state limit that the table (``castle.known_verdict``) says are
unsolvable. A survey of the table's range at ``--max-states 2097152`` so names its proofs
past 2^21 states when the file that proved them is gone.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from castle import Deal, known_verdict
from castle.cli.args import parse_size
from castle.solving.deal import parse_deal_range
from castle.surveys.survey_store import SurveyError, SurveyStore, Verdict

from castle_lab import complete_pass, rows
from castle_lab.rows import replays

COLUMNS = ("variant", "deal", "states", "second", "second_states", "seconds", "limit")

#: Past any table: the walk makes no tries at all.
NO_TRIES = 2**64 - 1


def proved(
    db: Path, variant: str, deals: range | None, least: int, by_table: bool = False
) -> list[tuple[int, int]]:
    """The survey's unsolvable deals of ``variant`` (in ``deals``) proved in more than
    ``least`` states: (deal, states), in deal order. ``by_table``: the deals it stopped at
    its state limit, past ``least``, that the shipped table says are unsolvable."""

    def wanted(v: Verdict) -> bool:
        if by_table:
            return (
                v.status == "unknown"
                and v.limit_hit == "states"
                and known_verdict(variant, v.deal) == "unsolvable"
            )
        return v.status == "unsolvable"

    with SurveyStore.open(db) as store:
        return [
            (v.deal, v.states)
            for v in store.verdicts(variant)
            if wanted(v) and v.states > least and (deals is None or v.deal in deals)
        ]


def check(variant: str, number: int, args: argparse.Namespace) -> dict[str, object]:
    deal = Deal.from_number(variant, number)
    start = time.process_time()
    status, moves, states, limit = complete_pass(
        deal.core, args.max_states, None, args.max_memory, args.spill_dir, NO_TRIES
    )
    seconds = time.process_time() - start
    if status == "solved":
        status = "solved" if replays(deal, moves) else "solved-but-does-not-replay"
    return {
        "second": status,
        "second_states": states,
        "seconds": round(seconds, 2),
        "limit": limit or "",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, required=True, help="a castle survey file")
    parser.add_argument("--variant", required=True)
    parser.add_argument("--deals", type=parse_deal_range, help="A-B; default: all in the file")
    parser.add_argument("--min-states", type=int, default=0)
    parser.add_argument(
        "--by-table", action="store_true", help="the proofs named by the shipped table"
    )
    parser.add_argument("--csv", type=Path, required=True)
    parser.add_argument("--max-states", type=int, default=100_000_000)
    parser.add_argument("--max-memory", type=parse_size, default=parse_size("6GiB"))
    parser.add_argument("--spill-dir", type=Path)
    args = parser.parse_args(argv)
    try:
        todo = proved(args.db, args.variant, args.deals, args.min_states, args.by_table)
    except SurveyError as e:
        print(f"second_method: {e}", file=sys.stderr)
        return 2
    seen = {(row["variant"], int(row["deal"])) for row in rows.read(args.csv)}
    contradictions = 0
    with rows.appended(args.csv, COLUMNS) as write:
        for i, (number, states) in enumerate(todo, 1):
            if (args.variant, number) in seen:
                continue
            row = {"variant": args.variant, "deal": number, "states": states}
            row.update(check(args.variant, number, args))
            write(row)
            contradictions += row["second"] != "unsolvable" and row["second"] != "unknown"
            print(
                f"[{i}/{len(todo)}] {args.variant} {number}: {row['second']} in"
                f" {row['second_states']:,} states, {row['seconds']} s",
                flush=True,
            )
    checked = [r for r in rows.read(args.csv) if r["variant"] == args.variant]
    counts: dict[str, int] = {}
    for r in checked:
        counts[r["second"]] = counts.get(r["second"], 0) + 1
    print(f"{args.variant}: {len(checked)} checked: {counts}")
    unknown = [r["deal"] for r in checked if r["second"] == "unknown"]
    if unknown:
        print(f"  do not fit ({args.max_states:,} states): {' '.join(unknown)}")
    return 1 if contradictions or any(r["second"].startswith("solved") for r in checked) else 0


if __name__ == "__main__":
    sys.exit(main())
