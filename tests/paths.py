"""Where the tests find the repository's files, from any folder of tests/."""

from __future__ import annotations

from pathlib import Path

#: The repository's root.
ROOT = Path(__file__).resolve().parents[1]
#: The tests' data files.
DATA = ROOT / "tests" / "data"
