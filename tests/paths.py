"""Where the tests find the repository's files, from any folder of tests/."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

#: The repository's root.
ROOT = Path(__file__).resolve().parents[1]
#: The tests' data files.
DATA = ROOT / "tests" / "data"


def load_bench(name: str) -> ModuleType:
    """The script ``benches/NAME.py`` as a module (the benches are scripts, not a package;
    their folder goes on the path, as when one runs, for the modules they share)."""
    if str(ROOT / "benches") not in sys.path:
        sys.path.append(str(ROOT / "benches"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "benches" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module
