"""The verdicts other solvers agree on (tests/data/known-verdicts.tsv: PySolFC deals 1-200 of
each castle variant), read in one place for every test that holds castle to them."""

from __future__ import annotations

from paths import DATA

# A copy of the project's shared/data/known-verdicts.tsv: the tests need nothing outside.
PATH = DATA / "known-verdicts.tsv"


def known_verdicts() -> dict[tuple[str, int], str]:
    """Each deal's verdict (``winnable``, ``unwinnable`` or ``unknown``) by variant and number,
    in the file's order."""
    verdicts = {}
    for line in PATH.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            variant, number, verdict = line.split("\t")
            verdicts[variant, int(number)] = verdict
    return verdicts


def known(variant: str, numbers: range) -> dict[int, str]:
    """The verdicts of ``variant``'s deals in ``numbers``, by number."""
    return {n: v for (name, n), v in known_verdicts().items() if name == variant and n in numbers}
