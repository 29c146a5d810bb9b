"""The commands of ``castle``: the module of each (it adds the command's parser and runs it),
its line in ``castle --help`` and the example shown there, and which command a command line
names. :func:`castle.cli.build_parser` imports only the module of the command run, so that
``castle --help`` and each command start without the others' packages (Textual, Starlette,
rich, the reference solver)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Command(NamedTuple):
    """A command of ``castle``."""

    #: The module (in full) with its ``add_parser`` and ``run``.
    module: str
    #: Its line in ``castle --help``.
    summary: str
    #: The example ``castle --help`` gives of it, and what that does.
    example: str
    does: str


#: Every command, in ``castle --help`` order.
COMMANDS = {
    "solve": Command(
        "castle.cli.solve",
        "solve a board, a numbered deal or a range of deals",
        "castle solve --deal 2",
        "solve Beleaguered Castle deal 2 and print a win, move by move",
    ),
    "survey": Command(
        "castle.cli.survey",
        "solve a range of deals into an SQLite file that resumes; retry, report",
        "castle survey --deals 1-1000 --jobs 2 --db bc.db",
        "solve deals 1-1000 into bc.db, each verdict kept as it is found (run it again to go on)",
    ),
    "play": Command(
        "castle.cli.play",
        "play a game in the terminal",
        "castle play",
        "play in the terminal, from the level picker",
    ),
    "serve": Command(
        "castle.cli.serve",
        "play in a web browser",
        "castle serve",
        "play in a web browser: open the URL it prints",
    ),
    "autoplay": Command(
        "castle.cli.autoplay",
        "play deals to the end by the hints alone, and report the win rate (--db: stored as "
        "played, resumable)",
        "castle autoplay --deals 1-200 --jobs 2",
        "play deals 1-200 by the hints alone and report the win rate beside the solver's",
    ),
    "bench": Command(
        "castle.cli.bench",
        "time the Rust solver against the pure-Python reference",
        "castle bench",
        "time the Rust solver against the Python reference on deals 1-20",
    ),
}

#: The commands of ``castle survey``; ``run`` is the one meant when none is named.
SURVEY_COMMANDS = ("run", "retry", "report")


def command_argv(argv: Sequence[str]) -> list[str]:
    """``argv`` as the parser reads it: ``castle survey --deals ...`` means ``castle survey
    run --deals ...``."""
    out = list(argv)
    if out and out[0] == "survey":
        rest = out[1:]
        if not rest or rest[0] not in (*SURVEY_COMMANDS, "-h", "--help"):
            out.insert(1, "run")
    return out


def as_typed(message: str, argv: Sequence[str]) -> str:
    """An error's ``message`` in the words the user typed: where ``command_argv`` supplied
    ``castle survey``'s ``run``, its help is pointed to as ``castle survey --help``."""
    if command_argv(argv) == list(argv):
        return message
    return message.replace("(see castle survey run --help)", "(see castle survey --help)")


def named_command(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names, if any: its first word that is not an option (``castle``'s
    own options, ``--help`` and ``--version``, take no value)."""
    word = next((word for word in argv if not word.startswith("-")), None)
    return word if word in COMMANDS else None


__all__ = ["COMMANDS", "SURVEY_COMMANDS", "Command", "as_typed", "command_argv", "named_command"]
