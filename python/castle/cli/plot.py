"""``castle survey report --plot``: time and states per deal, drawn with matplotlib.

matplotlib is an optional extra (``pip install 'castle-solitaire[plot]'``); nothing else in
castle imports it, and this module imports it only when a plot is asked for.
"""

from __future__ import annotations

import importlib.util
import os
from array import array
from collections.abc import Mapping, Sequence

from ..surveys.stats import winnability
from ..variants import NAMES
from .errors import UsageError
from .output import format_percent

INSTALL_HINT = "pip install 'castle-solitaire[plot]'"
#: Verdict colours, as in the terminal: green, red, amber.
COLOURS = {"solved": "#2e7d32", "unsolvable": "#c62828", "unknown": "#f9a825"}
_BINS = 40

#: The formats ``--plot`` writes, by the file's suffix (matplotlib's, less those that need
#: LaTeX or are not images): the first is the one to suggest.
FORMATS = ("png", "jpg", "jpeg", "svg", "svgz", "pdf", "eps", "ps", "tif", "tiff", "webp", "gif")

#: Per variant, per verdict: the seconds and the states of each deal.
Samples = Mapping[str, Mapping[str, tuple["array[float]", "array[int]"]]]


def require_matplotlib() -> None:
    """Raise :class:`UsageError` (one line, exit 2) when matplotlib cannot be imported."""
    try:
        found = importlib.util.find_spec("matplotlib") is not None
    except (ImportError, ValueError):  # a broken or stubbed-out installation
        found = False
    if not found:
        raise UsageError(f"--plot needs matplotlib, which is not installed: {INSTALL_HINT}")


def plot_format(path: str) -> str:
    """The format ``path``'s suffix names (``png``, ``jpg``, ``svg``, ``pdf``...); a
    :class:`UsageError` when it names none that ``--plot`` writes."""
    suffix = os.path.splitext(path)[1].lower().lstrip(".")
    if suffix not in FORMATS:
        known = ", ".join(f".{f}" for f in FORMATS)
        if suffix:
            problem = f".{suffix} is not a picture format castle writes"
        else:
            problem = "the file's suffix names the format, and it has none"
        raise UsageError(f"--plot {path!r}: {problem}; use {known}")
    return suffix


def log_bins(values: Sequence[float], floor: float) -> list[float]:
    """``_BINS`` bins evenly spaced on a log scale, covering ``values`` (each >= ``floor``)."""
    low = max(min(values), floor)
    high = max(max(values), low)
    if high <= low * 1.01:
        low, high = low / 2, high * 2
    ratio = (high / low) ** (1 / _BINS)
    return [low * ratio**i for i in range(_BINS)] + [high * 1.0001]


def _whole(value: float, position: object = None) -> str:
    return f"{value:,.0f}" if value >= 1 else ""


def _two_five(value: float, position: object = None) -> str:
    text = _whole(value)
    return text if text[:1] in ("2", "5") else ""


def write_plot(path: str, samples: Samples) -> None:
    """An image (in the format :func:`plot_format` reads off ``path``) with a row per variant:
    histograms of seconds and of states per deal, stacked by verdict, on log scales."""
    image_format = plot_format(path)
    try:
        from matplotlib.figure import Figure
        from matplotlib.ticker import FuncFormatter, NullFormatter
    except ImportError as e:
        raise UsageError(f"--plot: cannot import matplotlib ({e}): {INSTALL_HINT}") from None

    rows = max(1, len(samples))
    figure = Figure(figsize=(12, 3.8 * rows), layout="constrained")
    axes = figure.subplots(rows, 2, squeeze=False)
    if not samples:
        axes[0][0].set_title("no deals stored")
    for row, (variant, by_status) in enumerate(samples.items()):
        statuses = [s for s in COLOURS if len(by_status[s][0])]
        seconds = [[max(t, 1e-7) for t in by_status[s][0]] for s in statuses]
        states = [[max(float(n), 1.0) for n in by_status[s][1]] for s in statuses]
        n = sum(len(values) for values in seconds)
        counts = {s: len(by_status[s][0]) for s in COLOURS}
        won = winnability(counts["solved"], counts["unsolvable"])
        title = f"{NAMES.get(variant, variant)}: {n:,} deals"
        if won is not None:
            title += (
                f", winnable {format_percent(won.point)} (95% interval "
                f"{format_percent(won.low)} to {format_percent(won.high)})"
            )
        for column, (values, floor, label) in enumerate(
            (
                (seconds, 1e-7, "seconds per deal"),
                (states, 1.0, "states expanded per deal"),
            )
        ):
            ax = axes[row][column]
            everything = [v for part in values for v in part]
            ax.hist(
                values,
                bins=log_bins(everything, floor),
                stacked=True,
                color=[COLOURS[s] for s in statuses],
                label=[f"{s} ({counts[s]:,})" for s in statuses],
            )
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_ylim(bottom=0.7)  # a bin of one deal stays visible
            ax.yaxis.set_major_formatter(FuncFormatter(_whole))
            # Over few decades, 2 and 5 (20, 50...) are labelled too.
            few = ax.get_ylim()[1] < 1000
            ax.yaxis.set_minor_formatter(FuncFormatter(_two_five) if few else NullFormatter())
            ax.set_xlabel(f"{label} (log scale)")
            ax.set_ylabel("deals (log scale)")
            ax.grid(True, which="major", alpha=0.3)
            if column == 0:
                ax.set_title(title, loc="left", fontsize="medium")
                ax.legend(fontsize="small")
    try:
        figure.savefig(path, format=image_format, dpi=100)
    except OSError as e:
        raise UsageError(f"cannot write --plot {path!r}: {e.strerror or e}") from None
