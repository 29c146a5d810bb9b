"""The ``castle`` command line (``castle solve``, ``castle survey``, ...); see ``castle --help``."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .. import __version__
from .errors import (
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    EXIT_USAGE,
    Terminated,
    UsageError,
)

if TYPE_CHECKING:
    import argparse

    from .args import Parser

MAIN_HELP = """\
Solve and play the castle patience games (Beleaguered Castle, Streets and Alleys,
Citadel) and Spider (4, 2 or 1 suits: --variant spider, spider-2, spider-1). Every
command plays Beleaguered Castle unless --variant says otherwise.
"""

MAIN_EXIT = """\
exit status: 0 when done, 2 for bad input (one line on stderr says what is wrong);
castle COMMAND --help gives the rest of that command's own (a failure, Ctrl+C, SIGTERM)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    _prepare_streams()
    try:
        # Imported here (as the commands are, in build_parser) so that a Ctrl+C during
        # start-up also ends quietly: these imports take most of it.
        from .survey import survey_argv

        args = build_parser().parse_args(survey_argv(sys.argv[1:] if argv is None else argv))
        run: Callable[[argparse.Namespace], int] = args.run
        return run(args)
    except UsageError as e:
        _error(f"error: {e}")
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


def build_parser() -> Parser:
    """The ``castle`` parser: each command's module adds its own, with its ``run`` as the
    parsed arguments' ``run``."""
    # Imported here, inside main's try, for a quiet Ctrl+C during start-up (see main).
    import argparse

    from . import autoplay, bench, play, serve, solve, survey
    from .args import Parser

    modules = (solve, survey, play, serve, autoplay, bench)  # in `castle --help` order
    # Each command's example, and under it what it does: the overview of every command.
    examples = [
        "commands, an example of each (castle COMMAND --help: its options, exit statuses and",
        "more examples):",
    ]
    for command in modules:
        example, does = command.EXAMPLE
        examples += [f"  {example}", f"      {does}"]
    parser = Parser(
        prog="castle",
        description=MAIN_HELP,
        epilog="\n".join([*examples, "", MAIN_EXIT]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"castle {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in modules:
        command.add_parser(commands).set_defaults(run=command.run)
    return parser


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
