"""How castle words counts for people (the game's messages and every front end's)."""

from __future__ import annotations


def plural(n: int, what: str) -> str:
    """``1 move``, ``2 moves``."""
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


__all__ = ["plural"]
