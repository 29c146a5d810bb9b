"""How the rate of winnable deals moves over the range of deals, from the verdict tables the
package ships (castle.solving.known): each variant's rate in blocks of deals, with its 95% interval.

    python tools/winnability_plot.py --block 20000 --out docs/winnability-1m.png

Printed: each variant's rate over its whole table, and its lowest and highest block.
"""

from __future__ import annotations

import argparse
import math
import sys

import castle
from castle.solving.known import shipped_table


def wilson(won: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of ``won`` of ``total``."""
    if total == 0:
        return 0.0, 1.0
    p = won / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    spread = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return centre - spread, centre + spread


def blocks(variant: str, size: int) -> list[tuple[int, int, int]]:
    """(first deal, won, decided) of each block of ``size`` deals of ``variant``'s table."""
    table = shipped_table(variant)
    assert table is not None
    out = []
    for first in range(1, table.deals + 1, size):
        verdicts = [table.verdict(n) for n in range(first, min(table.deals, first + size - 1) + 1)]
        decided = [v for v in verdicts if v is not None]
        out.append((first, decided.count("solved"), len(decided)))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--block", type=int, default=20_000, help="deals a block")
    parser.add_argument("--out", required=True, help="the plot (PNG)")
    args = parser.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    variants = [v for v in castle.VARIANTS if shipped_table(v) is not None]
    fig, ax = plt.subplots(figsize=(10, 4.5))
    for variant in variants:
        rows = blocks(variant, args.block)
        xs = [first + args.block / 2 for first, _, _ in rows]
        rates = [100 * won / decided for _, won, decided in rows]
        lows, highs = zip(*(wilson(won, decided) for _, won, decided in rows))
        (line,) = ax.plot(xs, rates, label=castle.variants.NAMES[variant])
        ax.fill_between(
            xs, [100 * x for x in lows], [100 * x for x in highs], color=line.get_color(), alpha=0.2
        )
        won = sum(w for _, w, _ in rows)
        decided = sum(d for _, _, d in rows)
        low, high = wilson(won, decided)
        block_rates = sorted(zip(rates, xs))
        print(
            f"{variant}: {100 * won / decided:.2f}% of {decided:,} decided "
            f"(95% interval {100 * low:.2f}-{100 * high:.2f}%); blocks of {args.block:,} from "
            f"{block_rates[0][0]:.2f}% to {block_rates[-1][0]:.2f}%"
        )
    ax.set_xlabel(f"deal number (blocks of {args.block:,}; shaded: 95% interval)")
    ax.set_ylabel("winnable deals (%)")
    ax.set_title("Winnable deals of PySolFC's numbered deals, by block")
    ax.grid(alpha=0.3)
    # Between the castle games' lines (about 70% and 85%), where no line runs.
    ax.legend(loc="center right", bbox_to_anchor=(1.0, 0.7))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    return 0


if __name__ == "__main__":
    sys.exit(main())
