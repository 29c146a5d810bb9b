"""``castle play --plain``: the game as lines of text, one command a line on standard input.

Made for scripts and screen readers: each column is one line (bottom card first, the card
that moves last), cards in board-text notation (``7H``), columns numbered from 1.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.text import Text

from ..cards import Card, shown
from ..errors import CastleError, IllegalMoveError
from ..game import Game
from ..levels import LEVELS, level
from ..new_game import AnyGame, new_game
from ..saves import SaveStore
from ..solve import FOUNDATION, Target
from ..spider_game import SpiderGame
from ..view import status_line
from ..words import clock_text

SPIDER_HELP = """\
commands (columns are numbered 1-10):
  N M      move the longest run that fits from column N onto column M
  N M K    move exactly K cards (a run of one suit) from column N onto column M
  d        deal ten cards from the stock          N o  take the K-A run on column N off
  h        hint (fair: it sees only what you see)
  p        thoughtful hint (it peeks at the face-down cards and the stock)
  u  undo     r  redo     n  new deal (asks y/n if this game would count as lost)
  s  statistics     q  quit (the game is saved; `castle play --plain` continues it)
  ?  this help"""

HELP = """\
commands (columns are numbered 1-8):
  N        tap column N: its top card goes to the best place
  N M      move what fits from column N onto column M (a run if the empty columns allow)
  N M K    move exactly K cards from column N onto column M
  N f      column N's top card to its foundation
  u  undo     r  redo     h  hint     n  new deal (asks y/n if this game would count as lost)
  s  statistics     q  quit (the game is saved; `castle play --plain` continues it)
  ?  this help"""


def card_text(card: Card) -> Text:
    return Text(str(card), style="red" if card.is_red else "")


def spider_board_text(game: SpiderGame) -> Text:
    """Each column: its face-down cards as ``##``, then ``|`` and the face-up cards."""
    out = Text()
    out.append(status_line(game) + "\n", style="bold")
    for i, column in enumerate(game.columns):
        out.append(f"{i + 1}:")
        if not column.up:
            out.append(" (empty)", style="dim")
        if column.down:
            out.append(" ##" * len(column.down) + " |", style="dim")
        for card in column.up:
            out.append(" ")
            out.append_text(card_text(card))
        out.append("\n")
    return out


def board_text(game: AnyGame) -> Text:
    if isinstance(game, SpiderGame):
        return spider_board_text(game)
    out = Text()
    out.append(status_line(game) + "\n", style="bold")
    out.append("Foundations:")
    for suit, rank in game.foundations.items():
        out.append(" ")
        out.append(
            f"{suit}-{'A23456789TJQK'[rank - 1]}" if rank else f"{suit}-",
            style="red" if suit in "DH" else "",
        )
    out.append("\n")
    for i, column in enumerate(game.columns):
        out.append(f"{i + 1}:")
        if not column:
            out.append(" (empty)", style="dim")
        for card in column:
            out.append(" ")
            out.append_text(card_text(card))
        out.append("\n")
    return out


def results_text(game: AnyGame, store: SaveStore) -> str:
    return (
        f"You won! {game.moves} moves in {clock_text(game.seconds)}, score {game.score}.\n"
        f"{level(game.level).name}: {store.record(game.level)}\n"
        "n for a new deal, q to quit"
    )


def small_number(token: str) -> int | None:
    """``token`` as a number if it is written with the digits 0-9 alone, up to 6 of them;
    else None. (``int`` reads Arabic-Indic and full-width digits too, and fails on ``²``,
    which ``isdigit`` lets through, and on more than 4,300 digits.)"""
    if token.isascii() and token.isdigit() and len(token) <= 6:
        return int(token)
    return None


def parse_column(token: str, columns: int = 8) -> int:
    number = small_number(token)
    if number is None or not 1 <= number <= columns:
        raise IllegalMoveError(f"not a column: {shown(token)} (columns are 1 to {columns})")
    return number - 1


def parse_count(token: str) -> int:
    count = small_number(token)
    if count is None:
        raise IllegalMoveError(f"not a number of cards: {shown(token)}")
    return count


def warn(store: SaveStore, errors: Console) -> None:
    """What was found wrong with the save files since the last call (each set aside)."""
    for notice in store.notices:
        errors.print(f"castle: warning: {notice}", style="yellow")
    store.notices.clear()


def play_lines(
    game: AnyGame,
    store: SaveStore,
    lines: Iterable[str],
    out: Console,
    *,
    errors: Console | None = None,
) -> AnyGame:
    """Play commands from ``lines`` until ``q`` or the end of input; return the game in play
    at the end (a new deal replaces the game). What is found wrong with the save files on
    the way (a corrupt statistics file, say) is told on ``errors`` (else ``out``) at once."""
    errors = errors or out
    warn(store, errors)
    out.print(board_text(game))
    out.print("? for help", style="dim")
    commands = iter(lines)
    for raw in commands:
        words = raw.split()
        if not words:
            continue
        command = words[0].lower()
        try:
            if command in ("q", "quit"):
                break
            if command in ("?", "help"):
                out.print(SPIDER_HELP if isinstance(game, SpiderGame) else HELP)
                continue
            if command == "s":
                for level_id in LEVELS:
                    out.print(f"{level(level_id).name}: {store.record(level_id)}")
                continue
            if command == "h":
                if isinstance(game, SpiderGame):
                    out.print(f"fair hint: {game.hint(fair=True)}")
                else:
                    out.print(f"hint: {game.hint()}")
                continue
            if command == "p" and isinstance(game, SpiderGame):
                hint = game.hint()
                out.print(
                    f"thoughtful hint (it peeked at the face-down cards and the stock): {hint}"
                )
                continue
            if command == "n":
                if game.lost_if_left:
                    out.print(
                        f"a new deal counts this {level(game.level).name} game as lost: "
                        "start one? (y/n)"
                    )
                    if not next(commands, "").strip().lower().startswith("y"):
                        out.print("kept: this game goes on", style="dim")
                        continue
                game = new_game(game.level, store)
            elif command == "u":
                game.undo()
            elif command == "r":
                game.redo()
            elif isinstance(game, SpiderGame):
                spider_act(game, words)
            else:
                act(game, words)
        except CastleError as e:
            out.print(f"not done: {e}", style="yellow")
            continue
        finally:
            warn(store, errors)
        out.print(board_text(game))
        if game.is_won:
            out.print(results_text(game, store), style="bold green")
    if not game.is_won:
        if store.write_failure is None:
            out.print("saved: `castle play` continues this game", style="dim")
        else:  # told when it began; the last save that worked is the one kept
            out.print("not saved: castle could not write the game (see above)", style="yellow")
    warn(store, errors)
    return game


def spider_act(game: SpiderGame, words: list[str]) -> None:
    """A Spider move command: ``d``, ``N o``, ``N M`` or ``N M K``."""
    if words == ["d"]:
        game.deal_row()
        return
    if len(words) == 2 and words[1].lower() == "o":
        game.take_off(parse_column(words[0], 10))
        return
    if len(words) not in (2, 3):
        raise IllegalMoveError(f"not a command: {shown(' '.join(words))} (? for help)")
    src, dst = parse_column(words[0], 10), parse_column(words[1], 10)
    if len(words) == 2:
        game.move(src, dst)
        return
    game.move(src, dst, parse_count(words[2]))


def act(game: Game, words: list[str]) -> None:
    """A move command: ``N``, ``N f``, ``N M`` or ``N M K``."""
    if len(words) > 3:
        raise IllegalMoveError(f"not a command: {shown(' '.join(words))} (? for help)")
    src = parse_column(words[0])
    if len(words) == 1:
        game.tap(src)
        return
    dst: Target = FOUNDATION if words[1].lower() == "f" else parse_column(words[1])
    if len(words) == 2:
        game.drop(src, dst)
        return
    game.move(src, dst, parse_count(words[2]))


__all__ = ["board_text", "play_lines"]
