"""``castle play``: which game to open (continue, a level, a deal), then the full-screen player
or the line mode."""

from __future__ import annotations

import argparse
import sys

from ..errors import SaveError
from ..game import Game
from ..levels import DEFAULT_LEVEL, level_for_variant
from ..new_game import AnyGame, new_game
from ..saves import SaveStore
from .errors import EXIT_OK, UsageError
from .output import make_console


def open_game(
    store: SaveStore, level_id: str | None, deal_number: int | None, new: bool
) -> AnyGame | None:
    """The game to play: deal ``deal_number`` (at ``level_id``, Medium by default), else the
    saved unfinished game (unless ``new``, or it is of another level), else a new deal at
    the level. None when nothing was asked for and nothing is saved (the picker decides)."""
    if deal_number is not None:
        return new_game(level_id or "medium", store, deal_number)
    saved = None if new else Game.resume(store)
    if saved is not None and not saved.is_won and level_id in (None, saved.level):
        return saved
    if level_id is None and not new:
        return None
    return new_game(level_id or (saved.level if saved else DEFAULT_LEVEL), store)


def run(args: argparse.Namespace) -> int:
    store = SaveStore(args.data_dir)
    # Without a terminal there is no screen to draw: the line mode serves scripts as well.
    plain = args.plain or not (sys.stdin.isatty() and sys.stdout.isatty())
    level_id = args.level or (level_for_variant(args.variant).id if args.variant else None)
    try:
        game = open_game(store, level_id, args.deal, args.new)
        if game is None and plain:
            game = new_game(DEFAULT_LEVEL, store)
    except (OSError, SaveError) as e:
        raise UsageError(f"cannot use the save directory {store.directory}: {e}") from None
    except ValueError as e:  # a deal number out of range, for one
        raise UsageError(str(e)) from None
    if plain:
        warnings = make_console(stderr=True)
        for notice in store.notices:
            warnings.print(f"castle: warning: {notice}; starting afresh", style="yellow")
        store.notices.clear()
        from .plain import play_lines

        assert game is not None
        play_lines(game, store, sys.stdin, make_console())
        return EXIT_OK
    from ..tui.app import CastleApp

    CastleApp(store, game).run()  # it shows the notices itself
    return EXIT_OK


__all__ = ["open_game", "run"]
