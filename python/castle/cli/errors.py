"""Exit codes, the one exception the CLI turns into ``castle: error: ...``, and the parser
whose errors are that exception."""

from __future__ import annotations

import argparse
from typing import NoReturn

#: The deal(s) were answered: solved, unsolvable or unknown (the status is in the output).
EXIT_OK = 0
#: Something broke that is not the user's input (a worker process died, for instance).
EXIT_FAILURE = 1
#: Bad input: board text, variant, deal range, limits, a file that cannot be read.
EXIT_USAGE = 2
#: Ctrl+C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130
#: SIGTERM (128 + SIGTERM): ``kill``, a service manager, a batch system's time limit.
EXIT_TERMINATED = 143
#: stdout closed early (``castle solve ... | head``): 128 + SIGPIPE, as shells report it.
EXIT_BROKEN_PIPE = 141


class UsageError(Exception):
    """Bad input; ``main`` prints the message as one ``castle: error:`` line and exits 2."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, where the CLI catches it: handled as Ctrl+C is (files left whole, partial
    summaries), but ``main`` exits with :data:`EXIT_TERMINATED`."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (``main`` prints them), not usage + exit."""

    def error(self, message: str) -> NoReturn:
        # "argument --max-states: must be ..." reads "--max-states: must be ...", as the
        # CLI's own messages do ("--deals: not a deal range ...").
        if message.startswith("argument -"):
            message = message.removeprefix("argument ")
        raise UsageError(f"{message} (see {self.prog} --help)")
