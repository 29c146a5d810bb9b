"""What ``castle autoplay`` says of games played: the win rate with its interval, the player's
settings as the flags that give them, and what an autoplay file holds (``castle autoplay --db
FILE`` with no ``--deals``: :func:`report`)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import Any

from ..family import family_of
from ..surveys.autoplay_store import AutoplayStore
from ..surveys.stats import proportion
from ..variants import NAMES
from .errors import EXIT_OK
from .output import format_percent, make_console


def who_plays(variant: str, settings: Mapping[str, Any]) -> str:
    """``the fair hint``, ``the thoughtful solver`` (Spider) or ``the hints`` (castle)."""
    if "fair" not in family_of(variant).autoplay_settings:  # no fair player: the hints play
        return "the hints"
    return "the fair hint" if settings.get("fair") else "the thoughtful solver"


def won_text(won: int, played: int) -> str:
    """``won 134 of 200 (67.0%; 95% interval 60.2% to 73.1%)``; ``won 0 of 0`` alone."""
    rate = proportion(won, played)
    if rate is None:
        return f"won {won:,} of {played:,}"
    return (
        f"won {won:,} of {played:,} ({format_percent(rate.point)}; 95% interval "
        f"{format_percent(rate.low)} to {format_percent(rate.high)})"
    )


def settings_words(settings: Mapping[str, Any]) -> str:
    """``--fair --samples 3 --seed 0, --max-states default``: the settings as the flags that
    give them (a flag not given: ``default``; a switch off: ``no --fair``)."""
    given, default = [], []
    for name, value in sorted(settings.items()):
        flag = "--" + name.replace("_", "-")
        if name == "player":
            given.append(f"({value})")  # the player's version: no flag sets it
        elif value is True:
            given.append(flag)
        elif value is False:
            default.append(f"no {flag}")
        elif value is None:
            default.append(f"{flag} default")
        else:
            given.append(f"{flag} {value}")
    return ", ".join(filter(None, (" ".join(given), *default)))


def span_text(low: int, high: int, count: int) -> str:
    """``deals 1-300``, or ``250 deals of 1-300`` when some between are not there."""
    span = f"{low}-{high}" if high > low else f"{low}"
    return f"deals {span}" if count == high - low + 1 else f"{count:,} deals of {span}"


def report(args: argparse.Namespace) -> int:
    """``castle autoplay --db FILE`` (no --deals): each variant and settings the file holds
    games of (of --variant, if given), with the win rate; with --json, a JSON object each."""
    out = make_console()
    with AutoplayStore.open(args.db) as store:
        groups = store.groups(args.variant)
    if not groups:
        which = f" {NAMES.get(args.variant, args.variant)}" if args.variant else ""
        out.print(f"{args.db} holds no{which} games")
        return EXIT_OK
    for group in groups:
        settings = json.loads(group.settings)
        if args.json:
            rate = proportion(group.won, group.played)
            assert rate is not None
            line = {"variant": group.variant, "settings": settings, "played": group.played}
            line.update(won=group.won, percent=100 * rate.point)
            line.update(low=100 * rate.low, high=100 * rate.high)
            line.update(deals=[group.low_deal, group.high_deal])
            out.print(json.dumps(line))
            continue
        name = NAMES.get(group.variant, group.variant)
        out.print(
            f"{name}, played by {who_plays(group.variant, settings)} "
            f"({settings_words(settings)}): "
            f"{span_text(group.low_deal, group.high_deal, group.played)}, "
            f"{won_text(group.won, group.played)}"
        )
    return EXIT_OK


__all__ = ["report", "settings_words", "span_text", "who_plays", "won_text"]
