"""``castle play``: which game to open (the level picker, a level, a deal), then the full-screen
player or the line mode.

Without ``--level``, ``--variant``, ``--deal`` or ``--new``, the full-screen player opens on the
level picker (Continue first when a game is unfinished). The line mode has no picker: it
continues the unfinished game, and says so, else deals a new game at the level last played.
``--level L`` (or ``--variant V``) continues an unfinished game of that level, else deals a new
one; ``--deal N`` and ``--new`` always deal anew.
"""

from __future__ import annotations

import argparse
import sys

from .. import tui
from ..errors import SaveError
from ..game.game import Game
from ..game.levels import DEFAULT_LEVEL, LEVELS, level, level_for_variant
from ..game.new_game import AnyGame, new_game
from ..saves.store import SaveStore
from .args import (
    add_data_dir_option,
    as_the_player,
    parse_deal_number,
    parse_level,
    parse_played_variant,
)
from .errors import EXIT_OK, Parser, UsageError
from .output import make_console
from .plain import play_lines

PLAY_HELP = """\
Play in the terminal: a full-screen game (mouse and keyboard), or with --plain a line mode
that reads commands from standard input (for scripts and screen readers). The game is saved
after every move. With no arguments the level picker opens (Continue first when a game is
unfinished); --level L continues an unfinished game of L, else deals anew; --deal N and --new
deal anew. --plain has no picker: it continues the unfinished game, or deals anew.
"""

PLAY_EPILOG = """\
exit status:
  0    the player quit (q, or Quit in the menu; the game is saved after every move)
  2    bad input: flags, a deal number, a data directory that cannot be used or that
       another castle play or castle serve holds (named)
  130  interrupted by Ctrl+C in the line mode (143: by SIGTERM); the game is saved already

examples:
  castle play
  castle play --level hard
  castle play --variant spider-2 --deal 3
  castle play --variant freecell --deal 617
  printf '7 8\\nq\\n' | castle play --plain --deal 2
"""


def add_parser(commands: argparse._SubParsersAction[Parser], summary: str) -> Parser:
    """Add ``castle play`` to ``commands``, ``summary`` its line in ``castle --help``."""
    play = commands.add_parser(
        "play",
        help=summary,
        description=PLAY_HELP,
        epilog=PLAY_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    which = play.add_mutually_exclusive_group()
    which.add_argument(
        "--level",
        type=parse_level,
        metavar="L",
        help=f"one of {', '.join(LEVELS)} (easy: winnable deals only)",
    )
    which.add_argument(
        "--variant",
        type=parse_played_variant,
        metavar="V",
        help="play any deal of this variant (spider, spider-2 and spider-1 too)",
    )
    play.add_argument("--deal", type=parse_deal_number, metavar="N", help="PySolFC deal number N")
    play.add_argument(
        "--new", action="store_true", help="start a new deal even if one is unfinished"
    )
    play.add_argument("--plain", action="store_true", help="line mode: read commands from stdin")
    add_data_dir_option(play)
    return play


def open_game(
    store: SaveStore, level_id: str | None, deal_number: int | None, new: bool
) -> AnyGame | None:
    """The game asked for: deal ``deal_number`` (at ``level_id``, Medium by default); a new
    deal (``new``: at ``level_id``, else the saved game's level); at ``level_id``, the saved
    game if it is an unfinished one of that level, else a new deal. None when nothing was
    asked for: the level picker decides."""
    if deal_number is not None:
        return new_game(level_id or "medium", store, deal_number)
    if level_id is None and not new:
        return None
    saved = Game.resume(store, paused=True)
    if saved is not None and not new and not saved.is_won and saved.level == level_id:
        saved.unpause()
        return saved
    return new_game(level_id or (saved.level if saved is not None else DEFAULT_LEVEL), store)


def line_mode_game(store: SaveStore) -> tuple[AnyGame, str]:
    """The line mode's game when nothing was asked for (it has no picker): the unfinished
    game, else a new deal at the level last played (else the default level); and a line that
    says which."""
    saved = Game.resume(store)
    if saved is not None and not saved.is_won:
        return saved, "continuing the unfinished game (n starts a new deal)"
    chosen = saved.level if saved is not None else DEFAULT_LEVEL
    return new_game(chosen, store), f"a new deal at {level(chosen).name}"


def run(args: argparse.Namespace) -> int:
    return as_the_player(args.data_dir, lambda store: play(args, store))


def play(args: argparse.Namespace, store: SaveStore) -> int:
    # Without a terminal there is no screen to draw: the line mode serves scripts as well.
    plain = args.plain or not (sys.stdin.isatty() and sys.stdout.isatty())
    level_id = args.level or (level_for_variant(args.variant).id if args.variant else None)
    said = None
    try:
        game = open_game(store, level_id, args.deal, args.new)
        if game is None and plain:
            game, said = line_mode_game(store)
    except (OSError, SaveError) as e:
        raise UsageError(f"cannot use the save directory {store.directory}: {e}") from None
    except ValueError as e:  # a deal number out of range, for one
        raise UsageError(str(e)) from None
    if plain:
        assert game is not None
        out = make_console()
        if said is not None:
            out.print(said, style="dim")
        # Notices (a save file set aside) go to standard error, as they are found.
        play_lines(game, store, sys.stdin, out, errors=make_console(stderr=True))
        return EXIT_OK
    tui.CastleApp(store, game).run()  # it shows the notices itself
    return EXIT_OK


__all__ = ["add_parser", "line_mode_game", "open_game", "play", "run"]
