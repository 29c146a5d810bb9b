"""What the player's screens share: times and counts in words, cards in messages, and what they
ask of the app they run in (:class:`Player`, which ``tui/app.py``'s ``CastleApp`` answers: the
screens need not import the app that imports them)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol, cast

from rich.text import Text
from textual.dom import DOMNode
from textual.screen import Screen

from ..cards import RANKS, Card
from ..new_game import AnyGame
from ..playclock import Clock
from ..records import Settings
from ..saves import SaveStore
from .board import card_style


class Player(Protocol):
    """What the player's screens ask of the app they run in: its saves, settings and clock, the
    bell, and where the player goes next."""

    store: SaveStore
    settings: Settings
    clock: Clock

    def ding(self) -> None: ...
    def change_settings(self, **changes: bool) -> None: ...
    def table_for(self, game: AnyGame) -> Screen[None]: ...
    def new_game(self, level_id: str) -> None: ...
    def new_deal(
        self,
        level_id: str,
        unfinished: AnyGame | None,
        on_keep: Callable[[], None] | None = None,
    ) -> None: ...
    def show(self, screen: Screen[None]) -> None: ...
    def show_levels(self) -> None: ...

#: A card as the game's messages write it (``KS``, ``TH``): rank, then suit letter.
CARD_TOKEN = re.compile(r"\b([A2-9TJQK])([CDHS])\b")


def message_text(message: str) -> Text:
    """A message of the game's for the table: each card it names (``KS``, ``TH``) drawn as the
    table draws it (``K♠``, ``10♥``, in its ink on a white card)."""
    out = Text()
    end = 0
    for match in CARD_TOKEN.finditer(message):
        out.append(message[end : match.start()])
        rank, suit = match.groups()
        card = Card(RANKS.index(rank) + 1, suit)
        out.append(card.face, style=card_style(card))
        end = match.end()
    out.append(message[end:])
    return out


def castle_app(node: DOMNode) -> Player:
    """The player's app, which every screen of it runs in."""
    return cast("Player", node.app)


__all__ = ["Player", "castle_app", "message_text"]
