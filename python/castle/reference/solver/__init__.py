"""What both games' reference searches share (``rust/src/solver/``): what a search may spend
and why it stopped (``budget``), the end-of-search step (``outcome``) and the breadth-first walk
both ``shorten`` make (``walk``)."""

from __future__ import annotations

from .budget import Budget, Counter, Deadline, End, Start, Stop
from .outcome import finish
from .walk import walk

__all__ = ["Budget", "Counter", "Deadline", "End", "Start", "Stop", "finish", "walk"]
