"""The command line's reference page, made from castle's own argparse parsers.

The site's hook (tools/mkdocs_hooks.py) builds it at every ``mkdocs build``, so the page is
always what ``castle COMMAND --help`` prints: nothing is checked in that could drift.

    python tools/cli_reference.py          # the page's Markdown, on stdout
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager

from castle.cli import build_parser

#: The page's place in the site (under docs/).
PAGE = "reference/cli.md"

#: The width the help is wrapped to, whatever the terminal that builds the site: a classic
#: terminal's, which the site's column shows whole.
WIDTH = 80

INTRO = """\
# Command line reference

Every command of `castle` and what its `--help` prints. This page is made from the command
line's own parsers each time the site is built, so it is always the help of this version.
The [command line guide](../guide/command-line.md) tells the same with examples and figures.
"""


def commands(
    parser: argparse.ArgumentParser, prog: str = "castle"
) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """``(command line, parser)`` for ``parser`` and each of its subcommands, depth first,
    in the order ``--help`` lists them."""
    yield prog, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from commands(sub, f"{prog} {name}")


@contextmanager
def _columns(width: int) -> Iterator[None]:
    # argparse wraps help to the terminal's width, read from $COLUMNS.
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(width)
    try:
        yield
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before


def markdown() -> str:
    """The reference page: a section per command, its help as ``castle ... --help`` prints
    it."""
    parts = [INTRO]
    with _columns(WIDTH):
        for line, parser in commands(build_parser()):
            parts.append(f"## `{line}`\n\n```text\n{parser.format_help().rstrip()}\n```\n")
    return "\n".join(parts)


if __name__ == "__main__":
    print(markdown(), end="")
