"""docs/winnability.md's million-deal table says what the shipped tables hold: each variant's
counts, its rate and interval, and the unknown deals the page names."""

from __future__ import annotations

import re

import pytest
from castle.solving.known import VerdictTable, shipped_table
from castle.surveys.stats import winnability
from paths import ROOT

PAGE = ROOT / "docs" / "winnability.md"

ROW = re.compile(
    r"^(?P<name>[A-Z][A-Za-z ]+?)\s+1,000,000\s+(?P<solved>[\d,]+)\s+(?P<unsolvable>[\d,]+)"
    r"\s+(?P<unknown>[\d,]+)\s+(?P<rate>[\d.]+)%\s+(?P<low>[\d.]+)-(?P<high>[\d.]+)%\s+shipped$"
)


def million_rows() -> dict[str, dict[str, str]]:
    """The rows of the page's million-deal table, by variant."""
    rows = {}
    for line in PAGE.read_text().splitlines():
        if m := ROW.match(line):
            rows[m["name"].lower().replace(" ", "-")] = m.groupdict()
    return rows


def number(text: str) -> int:
    return int(text.replace(",", ""))


def table(variant: str) -> VerdictTable:
    shipped = shipped_table(variant)
    assert shipped is not None
    return shipped


@pytest.mark.parametrize("variant", ["beleaguered-castle", "citadel", "streets-and-alleys"])
def test_the_million_table_is_the_shipped_tables(variant: str) -> None:
    row = million_rows()[variant]
    shipped = table(variant)
    solved = shipped.solved_deals()
    unknown = len(shipped.unknown)
    assert (number(row["solved"]), number(row["unsolvable"]), number(row["unknown"])) == (
        solved,
        shipped.deals - solved - unknown,
        unknown,
    )
    rate = winnability(solved, shipped.deals - solved - unknown)
    assert rate is not None
    assert row["rate"] == f"{100 * rate.point:.2f}"
    assert (row["low"], row["high"]) == (f"{100 * rate.low:.2f}", f"{100 * rate.high:.2f}")


def test_the_deals_the_page_names_unknown_are_the_tables() -> None:
    """The page lists Beleaguered Castle's unknown deals (Streets and Alleys' are in its
    table's header)."""
    text = " ".join(PAGE.read_text().split())
    named = re.search(r"The deals still unknown\*\*, to be retried with more time: ([^;]+);", text)
    assert named is not None
    listed = {int(d) for d in re.findall(r"\d{3,}", named[1].replace(",", ""))}
    assert listed == set(table("beleaguered-castle").unknown)
