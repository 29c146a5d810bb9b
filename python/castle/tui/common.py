"""What the player's screens share: times and counts in words, cards in messages, and the app
they run in."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.dom import DOMNode

from ..cards import RANKS, Card
from .board import card_style

if TYPE_CHECKING:
    from .app import CastleApp

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


def castle_app(node: DOMNode) -> CastleApp:
    """The player's app, which every screen of it runs in."""
    return cast("CastleApp", node.app)


__all__ = ["castle_app", "message_text"]
