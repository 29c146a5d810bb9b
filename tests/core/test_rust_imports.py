"""The crate's `use`s run one way, as the package's imports do
(tests/package/test_imports.py): no file of rust/src uses, directly or through others, one that
uses it back. A file is a module (`castle/search.rs` is `crate::castle::search`, a `mod.rs` its
folder's); a `use` of an item counts as a use of the module that holds it. Test modules
(`#[cfg(test)] mod ...`) are left out: a test may reach anywhere."""

from __future__ import annotations

import re
from pathlib import Path

from graphs import cycles
from paths import ROOT

SRC = ROOT / "rust" / "src"

Module = tuple[str, ...]

USE = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", re.MULTILINE)
TEST_MODULE = re.compile(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{")


def module_of(path: Path) -> Module:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] in ("mod", "lib"):
        parts.pop()
    return tuple(parts)


def without_tests(text: str) -> str:
    """``text`` less its test modules (their braces matched)."""
    kept, at = [], 0
    for found in TEST_MODULE.finditer(text):
        if found.start() < at:
            continue
        kept.append(text[at : found.start()])
        depth, at = 1, found.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(text[at], 0)
            at += 1
    kept.append(text[at:])
    return "".join(kept)


def paths_of(tree: str) -> list[str]:
    """A use tree's paths: ``a::{b, c::{d, e}}`` is ``a::b``, ``a::c::d``, ``a::c::e``."""
    tree = re.sub(r"\s+", "", tree)
    if "{" not in tree:
        return [tree]
    head, _, rest = tree.partition("{")
    inner = rest[: rest.rindex("}")]
    parts, depth, part = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            parts.append(part)
            part = ""
            continue
        depth += {"{": 1, "}": -1}.get(ch, 0)
        part += ch
    parts.append(part)
    return [path for part in parts if part for path in paths_of(head + part)]


def uses(path: Path, modules: set[Module]) -> set[Module]:
    """The crate's modules that ``path`` uses (outside its tests)."""
    me = module_of(path)
    found: set[Module] = set()
    for statement in USE.finditer(without_tests(path.read_text(encoding="utf-8"))):
        for used in paths_of(statement.group(1)):
            segments = [s for s in used.split(" as ")[0].split("::") if s]
            if not segments:
                continue
            if segments[0] == "crate":
                base: Module = ()
            elif segments[0] == "self":
                base = me
            elif segments[0] == "super":
                base = me
                while segments and segments[0] == "super":
                    base, segments = base[:-1], segments[1:]
                segments = ["super", *segments]
            else:
                continue  # another crate's
            target = base
            for segment in segments[1:]:
                if (*target, segment) not in modules:
                    break
                target = (*target, segment)
            if target != me:
                found.add(target)
    return found


def graph() -> dict[Module, set[Module]]:
    paths = {module_of(p): p for p in SRC.rglob("*.rs")}
    return {module: uses(path, set(paths)) for module, path in paths.items()}


def named(edges: dict[Module, set[Module]]) -> dict[str, set[str]]:
    """The graph with each module named as Rust names it (``castle::search``)."""
    return {"::".join(m): {"::".join(w) for w in ws} for m, ws in edges.items()}


def test_the_crate_has_no_circle_of_uses() -> None:
    assert cycles(named(graph())) == []


def test_the_reader_sees_the_uses_it_must() -> None:
    """The graph is not empty for a reason that would hide circles: the search uses its moves
    and the solver's budget, a nested `super::` included, and a test module's uses are not
    counted."""
    edges = graph()
    assert ("castle", "moves") in edges[("castle", "search")]
    assert ("solver", "budget") in edges[("castle", "search")]
    quiet = edges[("spider", "fair", "quiet")]
    assert {("spider", "estimate"), ("spider", "fair", "view")} <= quiet
    assert paths_of("super::{a, b::{c, d}}") == ["super::a", "super::b::c", "super::b::d"]
    text = "use crate::x::Y;\n#[cfg(test)]\nmod tests {\n    use super::z::{W};\n}\n"
    assert "z" not in without_tests(text) and "crate::x::Y" in without_tests(text)
