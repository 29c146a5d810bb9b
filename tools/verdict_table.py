"""Make the verdict table the package ships for a variant (castle/solving/verdicts/VARIANT.bin; see
castle.solving.known) from a survey file that holds every deal of 1..N:

    python tools/verdict_table.py --db bc-1m.db --variant beleaguered-castle --deals 1000000

Every deal of the range must be stored (a deal missing: exit 1, nothing written); those still
unknown are listed in the table, and ``known_verdict`` answers None for them. Printed: the
counts, and the file's size.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from castle.solving.known import VerdictTable
from castle.surveys.survey_store import SurveyStore

#: Where the package's tables live.
TABLES = Path(__file__).resolve().parent.parent / "python" / "castle" / "solving" / "verdicts"

#: Rows read from the survey file at once.
CHUNK = 100_000


def table_of(store: SurveyStore, variant: str, deals: int) -> VerdictTable:
    """The table of deals ``1..deals`` of ``variant`` as ``store`` holds them; ValueError for
    a deal it does not hold."""
    bits = bytearray((deals + 7) // 8)
    unknown: set[int] = set()
    for low in range(1, deals + 1, CHUNK):
        high = min(deals, low + CHUNK - 1)
        statuses = store.statuses(variant, low, high)
        if len(statuses) != high - low + 1:
            missing = next(d for d in range(low, high + 1) if d not in statuses)
            raise ValueError(f"{variant} deal {missing} is not in the survey file")
        for deal, status in statuses.items():
            if status == "solved":
                bits[(deal - 1) // 8] |= 1 << ((deal - 1) % 8)
            elif status == "unknown":
                unknown.add(deal)
    return VerdictTable(variant, deals, bytes(bits), frozenset(unknown))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="the survey file")
    parser.add_argument("--variant", required=True, help="a castle variant")
    parser.add_argument("--deals", type=int, required=True, help="the table's last deal")
    args = parser.parse_args()
    try:
        table = table_of(SurveyStore.open(args.db), args.variant, args.deals)
    except ValueError as e:
        print(f"verdict_table: {e}", file=sys.stderr)
        return 1
    TABLES.mkdir(exist_ok=True)
    out = TABLES / f"{args.variant}.bin"
    out.write_bytes(table.to_bytes())
    print(
        f"{out}: deals 1-{table.deals}, {table.solved_deals()} solved, "
        f"{table.deals - table.solved_deals() - len(table.unknown)} unsolvable, "
        f"{len(table.unknown)} unknown; {out.stat().st_size:,} bytes"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
