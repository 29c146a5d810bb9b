"""What the player's screens share: cards in messages, and what they read of the app they run
in (:class:`Player`, which ``tui/app.py``'s ``CastleApp`` answers: the screens need not import
the app that imports them). Where the player goes next they hand back (:mod:`.goto`)."""

from __future__ import annotations

import re
from typing import Protocol, cast

from rich.text import Text
from textual.dom import DOMNode

from ..cards import RANKS, Card
from ..records import Settings
from .board import card_style


class Player(Protocol):
    """What the player's screens read of the app they run in: the player's settings (the
    sound, the kind of hint), which the menu changes by a message to the app."""

    @property
    def settings(self) -> Settings: ...


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
