"""The full-screen terminal player (``castle play``), built on Textual. ``CastleApp`` is
imported on first use: Textual is slow to import, and ``castle play --plain`` never needs it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names

if TYPE_CHECKING:
    from .app import CastleApp
else:
    __getattr__ = lazy_names(__name__, {"CastleApp": "castle.tui.app"})

__all__ = ["CastleApp"]
