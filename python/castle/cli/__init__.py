"""The ``castle`` command line (``castle solve``, ``castle survey``, ...); see ``castle --help``."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Sequence

from .errors import (
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    EXIT_USAGE,
    Terminated,
    UsageError,
)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    _prepare_streams()
    try:
        # Imported here so that a Ctrl+C during start-up also ends quietly.
        from .args import build_parser, survey_argv
        from .autoplay import run as run_autoplay
        from .bench import run as run_bench
        from .play import run as run_play
        from .solve import run as run_solve
        from .survey import run as run_survey

        args = build_parser().parse_args(survey_argv(sys.argv[1:] if argv is None else argv))
        commands = {
            "solve": run_solve,
            "survey": run_survey,
            "bench": run_bench,
            "play": run_play,
            "autoplay": run_autoplay,
        }
        return commands[args.command](args)
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


__all__ = ["main"]
