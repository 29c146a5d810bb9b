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


def load_bench(name: str, folder: Path = ROOT / "benches") -> ModuleType:
    """The script ``benches/NAME.py`` (or ``NAME.py`` in ``folder``: research/scripts) as a
    module (the scripts are not a package; their folder goes on the path, as when one runs,
    for the modules they share)."""
    if str(folder) not in sys.path:
        sys.path.append(str(folder))
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module
