"""What the player's screens share: the game's messages with their cards drawn as the table
draws them. (The screens know nothing of the app they run in: they are given what they show,
and hand back where the player goes next, :mod:`.goto`.)"""

from __future__ import annotations

import re

from rich.text import Text

from ..cards import RANKS, Card
from .board import card_style

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


__all__ = ["message_text"]
