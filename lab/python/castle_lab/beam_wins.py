"""Wide beams on deals a table leaves unknown: each win replayed and stored in a survey file.

    nice python -m castle_lab.beam_wins --variant streets-and-alleys --deals LIST \\
        --db beams.db --csv beams.csv [--widths 256000,1024000] [--max-states 80000000] \\
        [--max-memory 8GiB]

The solve's tries reach a beam 256,000 positions wide only after minutes (their widths grow
with the table); one such beam alone takes a minute or two. Each deal gets a beam of each width in
turn until one wins. A win's moves are replayed through ``castle.reference`` (the pure-Python
rules, which share no code with the beam) and only then stored as ``solved`` in the survey file
(``tools/verdict_table.py --onto-shipped`` takes it from there, as from a retry's file). A beam
proves nothing, so no other verdict is stored: every try is a CSV row as it ends (``variant,
deal, width, status, states, seconds, limit``: ``dry`` when the beam ran out of positions), and
a run stopped or killed resumes with the same command.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from castle import Deal
from castle.cli.args import parse_size
from castle.solving.deal import parse_deal_range
from castle.surveys.results_file import utc_now
from castle.surveys.survey_store import SurveyError, SurveyStore, Verdict

from castle_lab import beam, rows
from castle_lab.rows import replays

COLUMNS = ("variant", "deal", "width", "status", "states", "seconds", "limit")


def one_beam(variant: str, number: int, width: int, args: argparse.Namespace) -> dict[str, object]:
    """One beam on the deal, its win (if any) replayed and stored."""
    deal = Deal.from_number(variant, number)
    start = time.process_time()
    status, moves, states, limit = beam(deal.core, width, args.max_states, args.max_memory)
    seconds = time.process_time() - start
    if status == "solved" and not replays(deal, moves):
        status = "solved-but-does-not-replay"
    elif status == "solved":
        with SurveyStore.open(args.db) as store:
            store.put([won_verdict(variant, number, states, seconds, len(moves), args)])
    return {
        "variant": variant,
        "deal": number,
        "width": width,
        "status": status,
        "states": states,
        "seconds": round(seconds, 2),
        "limit": limit or "",
    }


def won_verdict(
    variant: str, number: int, states: int, seconds: float, moves: int, args: argparse.Namespace
) -> Verdict:
    return Verdict(
        variant, number, "solved", states, seconds, moves, None,
        args.max_states, None, args.max_memory, utc_now(), None,
    )  # fmt: skip


def widths(text: str) -> list[int]:
    """``256000,1024000``: the widths, each a positive number."""
    try:
        found = [int(w) for w in text.split(",")]
    except ValueError:
        found = []
    if not found or min(found) < 1:
        raise argparse.ArgumentTypeError(f"not widths: {text!r} (e.g. 256000,1024000)")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", required=True)
    parser.add_argument("--deals", type=parse_deal_range, required=True)
    parser.add_argument("--db", type=Path, required=True, help="the survey file for the wins")
    parser.add_argument("--csv", type=Path, required=True, help="every beam, as it ends")
    parser.add_argument("--widths", type=widths, default=[256_000], help="e.g. 256000,1024000")
    parser.add_argument("--max-states", type=int, default=80_000_000)
    parser.add_argument("--max-memory", type=parse_size, default=parse_size("8GiB"))
    args = parser.parse_args(argv)
    try:
        with SurveyStore.open(args.db, create=True) as store:
            won = {v.deal for v in store.verdicts(args.variant) if v.status == "solved"}
    except SurveyError as e:
        print(f"beam_wins: {e}", file=sys.stderr)
        return 2
    seen = {(r["variant"], int(r["deal"]), int(r["width"])) for r in rows.read(args.csv)}
    bad = 0
    with rows.appended(args.csv, COLUMNS) as write:
        for number in args.deals:
            for width in args.widths:
                if number in won:
                    break
                if (args.variant, number, width) in seen:
                    continue
                row = one_beam(args.variant, number, width, args)
                write(row)
                print(
                    f"{args.variant} {number} beam {width}: {row['status']} {row['limit']}"
                    f" in {row['states']:,} states, {row['seconds']} s",
                    flush=True,
                )
                bad += row["status"] == "solved-but-does-not-replay"
                if row["status"] == "solved":
                    won.add(number)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
