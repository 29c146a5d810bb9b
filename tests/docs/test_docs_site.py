"""The documentation site (mkdocs.yml, docs/): its references cover the whole API and command
line, its nav every page, and the README's links lead to pages that exist. The strict build
itself (every link and reference resolved) runs in CI: `mkdocs build --strict`."""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import castle
import pytest
from castle.cli import build_parser, main
from paths import ROOT

DOCS = ROOT / "docs"
API = DOCS / "reference" / "api.md"


def tool(name: str) -> ModuleType:
    """A module of tools/ (not a package: the site's hook loads it from there too)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


cli_reference = tool("cli_reference")


# --- the Python API reference -----------------------------------------------------------------


def directives() -> list[str]:
    """What the API page has mkdocstrings render: the path of each ``::: castle...``."""
    return re.findall(r"^::: (castle(?:\.\w+)*)$", API.read_text(), re.M)


def resolve(path: str) -> object:
    """The object a directive's path names, as Python finds it (a module where there is one,
    else the name in its parent)."""
    try:
        return importlib.import_module(path)
    except ModuleNotFoundError:
        parent, _, name = path.rpartition(".")
        return getattr(importlib.import_module(parent), name)


def test_every_public_name_is_in_the_api_reference() -> None:
    documented = {path.rpartition(".")[2] for path in directives()}
    missing = sorted(set(castle.__all__) - documented)
    assert not missing, f"docs/reference/api.md lacks a ::: castle... for {missing}"


def test_the_api_reference_documents_the_public_objects_each_once() -> None:
    paths = directives()
    names = [path.rpartition(".")[2] for path in paths]
    assert len(names) == len(set(names))
    for path, name in zip(paths, names):
        assert name in castle.__all__, path
        # The object itself, not another of its name (the module castle.solve, say).
        assert resolve(path) is getattr(castle, name), path


# --- the command line reference -----------------------------------------------------------------


def subcommands() -> list[str]:
    """Every command line of castle's parsers (``castle``, ``castle solve``, ``castle survey
    run``...), read from the parsers' subcommand actions."""
    lines = []
    todo = [("castle", build_parser())]
    while todo:
        line, parser = todo.pop()
        lines.append(line)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                todo += [(f"{line} {name}", sub) for name, sub in action.choices.items()]
    return lines


def sections(markdown: str) -> dict[str, str]:
    """The reference page's sections: the command line of each, and its help."""
    found = re.findall(r"^## `(.+?)`\n\n```text\n(.*?)\n```$", markdown, re.M | re.S)
    return dict(found)


def test_the_cli_reference_has_every_command() -> None:
    lines = subcommands()
    assert {"castle solve", "castle survey run", "castle survey report", "castle serve"} <= set(
        lines
    )
    assert sorted(sections(cli_reference.markdown())) == sorted(lines)


@pytest.mark.parametrize("line", subcommands())
def test_the_cli_reference_gives_each_command_its_help(
    line: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", str(cli_reference.WIDTH))
    assert main([*line.split()[1:], "--help"]) == 0
    printed = capsys.readouterr().out.rstrip()
    assert sections(cli_reference.markdown())[line] == printed


def test_the_cli_reference_is_generated_not_checked_in() -> None:
    # The hook adds it at each build; a copy in docs/ would drift from the parsers.
    assert not (DOCS / cli_reference.PAGE).exists()
    assert cli_reference.PAGE in (ROOT / "mkdocs.yml").read_text()


# --- the pages ------------------------------------------------------------------------------------


def test_the_nav_has_every_page_and_only_pages_that_exist() -> None:
    config = (ROOT / "mkdocs.yml").read_text()
    nav = re.findall(r'^ *- (?:"[^"]*"|[^:"]+): (\S+\.md)$', config, re.M)
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    assert sorted(nav) == sorted(pages | {cli_reference.PAGE})


def test_the_readmes_links_lead_to_files_that_exist() -> None:
    links = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", (ROOT / "README.md").read_text())
    assert any(link.startswith("docs/guide/") for link in links)
    for link in links:
        assert (ROOT / link).exists(), link


# --- the site itself --------------------------------------------------------------------------

#: What a page may load: its own files (a path), or data it carries (``data:``).
FOREIGN = re.compile(
    r"""<(?:link|script|img|iframe|source)\b[^>]*?\b(?:href|src)=["']?((?:https?:)?//[^"' >]+)"""
    r"""|@import\s+(?:url\()?["']?((?:https?:)?//[^"')]+)""",
    re.I,
)


def test_the_site_loads_nothing_from_another_host(tmp_path: Path) -> None:
    # The strict build as CI makes it; every page and style sheet read as a browser would.
    pytest.importorskip("mkdocs", reason="the docs extra: pip install '.[docs]'")
    site = tmp_path / "site"
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    loads = {
        f"{page.relative_to(site)}: {url}"
        for page in [*site.rglob("*.html"), *site.rglob("*.css")]
        for match in FOREIGN.finditer(page.read_text(encoding="utf-8"))
        for url in match.groups()
        if url
    }
    assert not loads, "pages load from other hosts:\n" + "\n".join(sorted(loads))
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "fonts.googleapis" not in index and "Made with" not in index
