"""How castle words counts for people (the game's messages and every front end's)."""

from __future__ import annotations


def plural(n: int, what: str) -> str:
    """``1 move``, ``2 moves``."""
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def clock_text(seconds: float) -> str:
    """Seconds played as a clock shows them: ``3:07``."""
    minutes, seconds = divmod(int(seconds), 60)
    return f"{minutes}:{seconds:02d}"


__all__ = ["clock_text", "plural"]
