"""Make the verdict table the package ships for a variant (castle/solving/verdicts/VARIANT.bin; see
castle.solving.known) from a survey file that holds every deal of 1..N:

    python tools/verdict_table.py --db bc-1m.db --variant beleaguered-castle --deals 1000000

Every deal of the range must be stored (a deal missing: exit 1, nothing written); those still
unknown are listed in the table, and ``known_verdict`` answers None for them. Printed: the
counts, and the file's size.

With ``--onto-shipped``, the survey file need hold only the deals the shipped table leaves
unknown (a retry of them, ``castle survey run --deals LIST``): its verdicts decide those deals,
and the rest of the table stays as shipped. A deal the file decides that the table had decided
otherwise stops it (exit 1, nothing written):

    python tools/verdict_table.py --db sa-retry.db --variant streets-and-alleys --onto-shipped
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from castle.solving.known import VerdictTable, shipped_table
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


def onto_shipped(store: SurveyStore, variant: str) -> VerdictTable:
    """The shipped table of ``variant`` with the deals it leaves unknown decided as ``store``
    holds them; ValueError when the file contradicts a verdict the table has."""
    shipped = shipped_table(variant)
    if shipped is None:
        raise ValueError(f"no table is shipped for {variant}")
    bits = bytearray(shipped.bits)
    unknown = set(shipped.unknown)
    statuses = store.statuses(variant, 1, shipped.deals)
    for deal, status in sorted(statuses.items()):
        if status == "unknown":
            continue
        solved = status == "solved"
        if deal not in unknown:
            if (shipped.verdict(deal) == "solved") != solved:
                raise ValueError(f"{variant} deal {deal}: the file says {status}, the table not")
            continue
        unknown.discard(deal)
        if solved:
            bits[(deal - 1) // 8] |= 1 << ((deal - 1) % 8)
        else:
            bits[(deal - 1) // 8] &= ~(1 << ((deal - 1) % 8)) & 0xFF
    return VerdictTable(variant, shipped.deals, bytes(bits), frozenset(unknown))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="the survey file")
    parser.add_argument("--variant", required=True, help="a castle variant")
    parser.add_argument("--deals", type=int, help="the table's last deal")
    parser.add_argument(
        "--onto-shipped",
        action="store_true",
        help="decide the shipped table's unknown deals from the file; keep the rest",
    )
    args = parser.parse_args()
    if (args.deals is None) == (not args.onto_shipped):
        parser.error("give --deals N, or --onto-shipped")
    try:
        store = SurveyStore.open(args.db)
        if args.onto_shipped:
            table = onto_shipped(store, args.variant)
        else:
            table = table_of(store, args.variant, args.deals)
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
