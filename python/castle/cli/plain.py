"""``castle play --plain``: the game as lines of text, one command a line on standard input.

Made for scripts and screen readers: each column is one line (bottom card first, the card
that moves last), cards in board-text notation (``7H``), columns numbered from 1.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from rich.console import Console
from rich.text import Text

from ..actions import Advise, DealRow, Drop, NewDeal, Redo, TableAction, TakeOff, Tap, Undo
from ..cards import RANKS, Card, shown
from ..errors import CastleError, IllegalMoveError
from ..game.levels import LEVELS, level
from ..game.new_game import AnyGame
from ..saves.store import SaveStore
from ..solving.deal import COLUMNS as CASTLE_COLUMNS
from ..solving.solve import FOUNDATION, Target
from ..solving.spider import COLUMNS
from ..table.table import Table
from ..table.view import View

_SPIDER_HELP = f"""\
commands (columns are numbered 1-{COLUMNS}):
  N M      move the longest run that fits from column N onto column M
  N M K    move exactly K cards (a run of one suit) from column N onto column M
  d        deal ten cards from the stock          N o  take the K-A run on column N off
  h        hint (fair: it sees only what you see)
  p        thoughtful hint (it peeks at the face-down cards and the stock)
  u  undo     r  redo     n  new deal (asks y/n if this game would count as lost)
  s  statistics     q  quit (the game is saved; `castle play --plain` continues it)
  ?  this help"""

_CASTLE_HELP = f"""\
commands (columns are numbered 1-{CASTLE_COLUMNS}):
  N        tap column N: its top card goes to the best place
  N M      move what fits from column N onto column M (a run if the empty columns allow)
  N M K    move exactly K cards from column N onto column M
  N f      column N's top card to its foundation
  u  undo     r  redo     h  hint     n  new deal (asks y/n if this game would count as lost)
  s  statistics     q  quit (the game is saved; `castle play --plain` continues it)
  ?  this help"""

_CELLS_HELP = """\
commands (the columns are numbered from 1, then the cells, as the board shows them; a cell
is also c1, c2... as the hints name them):
  N        tap column or cell N: its top card goes to the best place
  N M      move what fits from N onto column M (a run as far as the free cells and empty
           columns allow), or into cell M
  N M K    move exactly K cards from column N onto column M
  N f      N's top card to its foundation
  u  undo     r  redo     h  hint     n  new deal (asks y/n if this game would count as lost)
  s  statistics     q  quit (the game is saved; `castle play --plain` continues it)
  ?  this help"""

#: The commands, as each kind of game (``Played.KIND``) takes them.
HELPS = {"castle": _CASTLE_HELP, "spider": _SPIDER_HELP, "cells": _CELLS_HELP}


def card_text(card: Card) -> Text:
    return Text(str(card), style="red" if card.is_red else "")


def board_text(view: View) -> Text:
    """The status line, the foundations (castle, free cells), the cells numbered after the
    columns, and each column: Spider's face-down cards as ``##``, then ``|`` and the face-up
    cards."""
    out = Text()
    out.append(view.status + "\n", style="bold")
    if view.foundations is not None:
        out.append("Foundations:")
        for suit, rank in view.foundations.items():
            out.append(" ")
            out.append(
                f"{suit}-{RANKS[rank - 1]}" if rank else f"{suit}-",
                style="red" if suit in "DH" else "",
            )
        out.append("\n")
    if view.cells is not None:
        out.append("Cells:")
        for i, cell in enumerate(view.cells, start=len(view.columns) + 1):
            out.append(f" {i}: ")
            if cell.cards:
                out.append_text(card_text(cell.cards[-1]))
            else:
                out.append("-", style="dim")
        out.append("\n")
    for i, column in enumerate(view.columns):
        out.append(f"{i + 1}:")
        if not column.cards:
            out.append(" (empty)", style="dim")
        if column.down:
            out.append(" ##" * column.down + " |", style="dim")
        for card in column.cards:
            out.append(" ")
            out.append_text(card_text(card))
        out.append("\n")
    return out


def results_text(view: View) -> str:
    return (
        f"You won! {view.moves} moves in {view.clock}, score {view.score}.\n"
        f"{view.level_name}: {view.record}\n"
        "n for a new deal, q to quit"
    )


def small_number(token: str) -> int | None:
    """``token`` as a number if it is written with the digits 0-9 alone, up to 6 of them;
    else None. (``int`` reads Arabic-Indic and full-width digits too, and fails on ``²``,
    which ``isdigit`` lets through, and on more than 4,300 digits.)"""
    if token.isascii() and token.isdigit() and len(token) <= 6:
        return int(token)
    return None


def parse_column(token: str, columns: int, first_cell: int | None = None) -> int:
    """Place ``token`` (1 to ``columns``) as a 0-based number; a cell also as ``c1``, ``c2``
    (as the hints name them) when the cells' places start at ``first_cell``."""
    if first_cell is not None and token[:1].lower() == "c":
        cell = small_number(token[1:])
        if cell is not None and 1 <= cell <= columns - first_cell:
            return first_cell + cell - 1
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
    rng: random.Random | None = None,
) -> AnyGame:
    """Play commands from ``lines`` until ``q`` or the end of input, through a
    :class:`castle.Table`; return the game in play at the end (a new deal replaces the
    game). What is found wrong with the save files on the way (a corrupt statistics file,
    say) is told on ``errors`` (else ``out``) at once. ``rng`` picks new deals."""
    errors = errors or out
    table = Table(game, store, rng=rng)
    warn(store, errors)
    out.print(board_text(table.view()))
    out.print("? for help", style="dim")
    commands = iter(lines)
    for raw in commands:
        words = raw.split()
        if not words:
            continue
        command = words[0].lower()
        if command in ("q", "quit"):
            break
        if command in ("?", "help"):
            out.print(HELPS[table.game.KIND])
            continue
        if command == "s":
            for level_id in LEVELS:
                out.print(f"{level(level_id).name}: {store.record(level_id)}")
            continue
        try:
            view = table.view()
            first_cell = len(view.columns) if view.cells is not None else None
            action = command_action(words, len(table.piles()), first_cell)
        except CastleError as e:
            out.print(f"not done: {e}", style="yellow")
            continue
        reply = table.act(action)
        if reply.question is not None:
            if reply.done:  # done, and a new deal offered (the hint has no move to give)
                out.print(reply.message)
            ask = "" if reply.question.endswith("?") else " Start one?"
            out.print(f"{reply.question}{ask} (y/n)")
            if not next(commands, "").strip().lower().startswith("y"):
                out.print("kept: this game goes on", style="dim")
                continue
            action = NewDeal(confirmed=True)
            reply = table.act(action)
        warn(store, errors)
        if not reply.done:
            out.print(f"not done: {reply.message}", style="yellow")
            continue
        if isinstance(action, Advise):
            out.print(reply.message)
            continue
        view = table.view()
        out.print(board_text(view))
        if view.won:
            out.print(results_text(view), style="bold green")
    if not table.game.is_won:
        if store.write_failure is None:
            out.print("saved: `castle play` continues this game", style="dim")
        else:  # told when it began; the last save that worked is the one kept
            out.print("not saved: castle could not write the game (see above)", style="yellow")
    warn(store, errors)
    return table.game


def command_action(words: list[str], columns: int, first_cell: int | None = None) -> TableAction:
    """The action a line's words ask for, whatever the game (the table refuses what its game
    has not): ``u``, ``r``, ``h``, ``p``, ``n``, ``d``, then ``N`` (a tap), ``N o`` (a run
    off), ``N f`` (to the foundation), ``N M`` and ``N M K``, columns 1 to ``columns``."""
    command = words[0].lower()
    if len(words) == 1 and command in SIMPLE:
        return SIMPLE[command]
    if len(words) > 3:
        raise IllegalMoveError(f"not a command: {shown(' '.join(words))} (? for help)")
    src = parse_column(words[0], columns, first_cell)
    if len(words) == 1:
        return Tap(src)
    if len(words) == 2 and words[1].lower() == "o":
        return TakeOff(src)
    dst: Target = (
        FOUNDATION if words[1].lower() == "f" else parse_column(words[1], columns, first_cell)
    )
    if len(words) == 2:
        return Drop(src, dst)
    return Drop(src, dst, parse_count(words[2]))


#: The one-letter commands.
SIMPLE: dict[str, TableAction] = {
    "u": Undo(),
    "r": Redo(),
    "h": Advise(),
    "p": Advise(peek=True),
    "n": NewDeal(),
    "d": DealRow(),
}


__all__ = ["board_text", "command_action", "play_lines"]
