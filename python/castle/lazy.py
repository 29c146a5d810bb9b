"""Names a package offers but imports on first use (PEP 562), so that ``import castle`` and
the ``castle`` command load only what they use: the player's modules (and the packages behind
them: platformdirs, Textual) wait until something asks for them. Type checkers see the names
through the package's ``if TYPE_CHECKING:`` imports; the import test follows the module names
given here."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping


def lazy_names(package: str, names: Mapping[str, str]) -> Callable[[str], object]:
    """The module ``__getattr__`` of ``package``: ``names`` maps each name to the module
    (in full) that defines it, or to itself when the name is a module of ``package``."""

    def __getattr__(name: str) -> object:
        module_name = names.get(name)
        if module_name is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = importlib.import_module(module_name)
        value = module if module_name == f"{package}.{name}" else getattr(module, name)
        # Set on the package, so that the next use is a plain attribute.
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__


__all__ = ["lazy_names"]
