"""``castle.__version__``: the installed distribution's version, which maturin takes from
Cargo.toml. Its own module, read on first use: importlib.metadata is slow to import."""

from __future__ import annotations

from importlib import metadata

__version__ = metadata.version("castle-solitaire")

__all__ = ["__version__"]
