"""The package's imports run one way: no module imports, directly or through others, one that
imports it back, counting imports inside functions (the way a cycle is usually dodged) and the
modules named in full to be imported on first use (castle.lazy, the commands of castle.cli),
and those only a type checker runs (``if TYPE_CHECKING:``): a circle a type checker must
follow is a circle in the design."""

from __future__ import annotations

import ast
from pathlib import Path

import castle
from graphs import cycles

PACKAGE = Path(castle.__file__).resolve().parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, modules: set[str]) -> set[str]:
    """The package's modules that ``path`` imports, anywhere in it."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.add(node.value)  # a module imported by its name on first use
    return {m for m in found if m in modules and m != name}


def graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(paths)
    return {name: imports(path, modules) for name, path in paths.items()}


def test_the_package_has_no_import_cycle() -> None:
    edges = graph()
    # A package imports its own modules (castle/__init__ imports castle.solving.deal, which lives
    # in it): that is the package's shape, not a cycle between modules.
    for name in edges:
        edges[name] = {m for m in edges[name] if not name.startswith(f"{m}.")}
    assert len(edges) > 50
    assert cycles(edges) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


#: The package's parts, lowest first: a part imports only those below it or in its own layer.
#: Solving and the families are one layer: a family is made of solving's deals and solver
#: calls, and ``castle.solve`` and ``castle.known_verdict`` ask the deal's family.
LAYERS = (
    {"castle", "cards", "errors", "variants", "words", "lazy", "version"},
    {"solving", "family", "reference"},
    {"saves", "actions"},
    {"game"},
    {"table", "surveys"},
    {"cli", "serve", "tui", "__main__"},
)


def layer(module: str) -> int:
    part = module.split(".")[1] if "." in module else "castle"
    return next(i for i, parts in enumerate(LAYERS) if part in parts)


def test_the_parts_import_downward() -> None:
    upward = sorted(
        f"{name} imports {target}"
        for name, targets in graph().items()
        if name != "castle"  # the package's __init__ re-exports every part's public names
        for target in targets
        if layer(target) > layer(name)
    )
    assert not upward, upward
