"""The ``castle`` command line (``castle solve``, ``castle survey``, ...); see ``castle --help``."""

from __future__ import annotations

import argparse
import importlib
import io
import os
import sys
from collections.abc import Callable, Collection, Sequence
from typing import Any

import castle

from .commands import COMMANDS, as_typed, command_argv, named_command
from .errors import (
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    EXIT_USAGE,
    Parser,
    Terminated,
    UsageError,
)

MAIN_HELP = """\
Solve and play the castle patience games (Beleaguered Castle, Streets and Alleys,
Citadel), Spider (4, 2 or 1 suits: --variant spider, spider-2, spider-1) and the free-cell
games (--variant freecell, bakers-game, eight-off, seahaven-towers, siegecraft,
stronghold, private-lane; castle autoplay excepted). Every command plays Beleaguered
Castle unless --variant says otherwise.
"""

MAIN_EXIT = """\
exit status: 0 when done, 2 for bad input (one line on stderr says what is wrong);
castle COMMAND --help gives the rest of that command's own (a failure, Ctrl+C, SIGTERM)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    _prepare_streams()
    typed = list(sys.argv[1:] if argv is None else argv)
    try:
        words = command_argv(typed)
        # Only the command run is imported (inside this try, so that a Ctrl+C while it
        # loads ends quietly too): the other commands' packages cost it nothing.
        named = named_command(words)
        args = build_parser(() if named is None else (named,)).parse_args(words)
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    except UsageError as e:
        _error(f"error: {as_typed(str(e), typed)}")
        return EXIT_USAGE
    except Terminated:
        _error("terminated")
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        _error("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except SystemExit as e:  # --help and --version
        return e.code if isinstance(e.code, int) else int(e.code is not None)


def build_parser(commands: Collection[str] | None = None) -> Parser:
    """The ``castle`` parser: each command's module adds its own, with its ``run`` as the
    parsed arguments' ``run``. Only the modules of ``commands`` (default: all) are imported;
    the other commands are there by name and summary alone, for ``castle --help``."""
    # Each command's example, and under it what it does: the overview of every command.
    examples = [
        "commands, an example of each (castle COMMAND --help: its options, exit statuses and",
        "more examples):",
    ]
    for command in COMMANDS.values():
        examples += [f"  {command.example}", f"      {command.does}"]
    parser = Parser(
        prog="castle",
        description=MAIN_HELP,
        epilog="\n".join([*examples, "", MAIN_EXIT]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version, help="show program's version number and exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, command in COMMANDS.items():
        if commands is None or name in commands:
            module = importlib.import_module(command.module)
            module.add_parser(subparsers, command.summary).set_defaults(run=module.run)
        else:
            subparsers.add_parser(name, help=command.summary)
    return parser


class _Version(argparse.Action):
    """``--version``, read when asked (importlib.metadata is slow to import)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        print(f"castle {castle.__version__}")
        parser.exit()


def _prepare_streams() -> None:
    # A standard stream closed at start (`castle solve - <&-`) is None in Python: read it as
    # empty and write it nowhere, as the output of a console does already, not a traceback.
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))  # noqa: SIM115
    # Bytes that are not text in the line mode's commands: refused as any bad command (Python
    # does this itself under the C locale), not a UnicodeDecodeError. (A board on stdin is
    # read from its bytes, as a board file is.) Output a terminal cannot encode (the line
    # mode's "·" on an ASCII terminal) is written as "?", not a UnicodeEncodeError.
    for stream, errors in ((sys.stdin, "surrogateescape"), (sys.stdout, "replace")):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors=errors)


def _error(message: str) -> None:
    sys.stderr.write("castle: " + " ".join(message.split()) + "\n")
    sys.stderr.flush()


def _silence_stdout() -> None:
    # The reader went away; point stdout at devnull so the flush at exit cannot fail again.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


__all__ = ["build_parser", "main"]
