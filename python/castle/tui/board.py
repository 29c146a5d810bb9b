"""The table drawn as cards: the columns (pressed, dragged, clicked), the foundations row, and
the cards the player holds during a drag."""

from __future__ import annotations

from rich.text import Text
from textual.events import Click, MouseDown, MouseMove, MouseUp
from textual.geometry import Offset
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget

from ..cards import SUIT_SYMBOLS, SUITS, Card
from ..table.view import ColumnView as Column
from .fold import FEWEST_ROWS, Line, fold

#: Card faces: black or red ink on a white card.
BLACK = "bold #000000 on #f4f4f4"
RED = "bold #c0001a on #f4f4f4"
#: The width of a column on the screen: a card is four cells, with a cell of space each side.
COLUMN_WIDTH = 6
#: A face-down card (Spider's), and the face-down cards of a column folded to their count.
BACK = "#3a5fcd on #1d2f66"
#: A refused drag shakes the column the cards return to: its offset, frame by frame.
SHAKE = (1, -1, 1, -1, 0)
SHAKE_FRAME_SECONDS = 0.05


def card_style(card: Card) -> str:
    return RED if card.is_red else BLACK


def face(card: Card) -> tuple[str, str]:
    """A card's face (:attr:`castle.Card.face`), four cells wide, and its style."""
    return f"{card.face:>3} ", card_style(card)


class PileView(Widget):
    """One column, bottom card at the top of the screen, under a line with its number.

    The mouse: a press on a card picks it up (the mouse is captured, so the release is seen
    wherever it happens); moving off the column drags it; the release drops it. A press and
    release without leaving the column is a click. Each step is a message for the table,
    which decides what it means. A column taller than the rows it has is folded
    (:mod:`.fold`): the lines and the cards each stands for are one list, drawn and clicked.
    """

    ALLOW_SELECT = False

    DEFAULT_CSS = f"""
    PileView {{ width: {COLUMN_WIDTH}; height: 100%; padding: 0 1 0 1; }}
    PileView.selected {{ background: $primary 30%; }}
    PileView.hint {{ background: $warning 30%; }}
    PileView.target {{ background: $success 25%; }}
    PileView.target.over {{ background: $success 55%; }}
    PileView.refused {{ background: $error 45%; }}
    """

    class Pressed(Message):
        """The mouse went down on the column: on card ``card`` (the column's cards as drawn,
        bottom 0; None below them), at ``offset`` on the screen."""

        def __init__(self, column: int, card: int | None, offset: Offset) -> None:
            super().__init__()
            self.column = column
            self.card = card
            self.offset = offset

    class Dragged(Message):
        """The pointer, pressed on this column and off it, is at ``offset`` on the screen."""

        def __init__(self, column: int, offset: Offset) -> None:
            super().__init__()
            self.column = column
            self.offset = offset

    class Released(Message):
        """The mouse pressed on this column went up at ``offset``; ``dragged``: it had left
        the column (else a click follows)."""

        def __init__(self, column: int, offset: Offset, dragged: bool) -> None:
            super().__init__()
            self.column = column
            self.offset = offset
            self.dragged = dragged

    class Clicked(Message):
        """A click on card ``card`` (as in :class:`Pressed`); ``double`` for a second click."""

        def __init__(self, column: int, card: int | None, double: bool) -> None:
            super().__init__()
            self.column = column
            self.card = card
            self.double = double

    def __init__(self, index: int) -> None:
        super().__init__(id=f"column-{index + 1}")
        self.index = index
        #: Where the mouse went down, while it is down.
        self.pressed_at: Offset | None = None
        self.dragged = False
        #: A drag that ends back on its own column makes a click too: it is not one.
        self.drop_click = False
        self.shake_frame = 0
        self.shaking: Timer | None = None
        #: Shakes begun so far (what a test can count, however fast the jolt is over).
        self.shakes = 0
        #: What the column draws (the game's view), how many top cards are picked up, and
        #: which face-up cards no fold may hide.
        self.column = Column(0, (), 0)
        self.picked = 0
        self.keep: tuple[int, ...] = ()

    def show(self, column: Column, picked: int, keep: tuple[int, ...] = ()) -> None:
        """Draw ``column`` (the game's view of it), its top ``picked`` cards picked up; the
        face-up cards ``keep`` (indices of ``column.cards``) stay in sight however the
        column is folded (the first card the hint moves)."""
        self.column = column
        self.picked = picked
        self.keep = keep
        self.set_class(picked > 0, "selected")
        self.refresh()

    def lines(self) -> list[Line]:
        """The column's lines under its number, folded to the rows it has (:mod:`.fold`)."""
        cards = self.column.cards
        keep = {*self.keep, len(cards) - self.picked} if self.picked else set(self.keep)
        rows = max(FEWEST_ROWS, self.size.height - 1)
        return fold(self.column.down, cards, rows, keep)

    def card_at(self, y: int) -> int | None:
        """The card drawn on line ``y`` (bottom 0, face-down ones counted; a fold's first
        hidden card, which picks up the run from there); None off the cards."""
        row = y - 1  # the first line is the column's number
        lines = self.lines()
        return lines[row].first if 0 <= row < len(lines) else None

    def label(self) -> str:
        """The column's number, as the keys and hints name it."""
        return f" {self.index + 1}"

    def render(self) -> Text:
        out = Text(self.label() + "\n", style="dim")
        column = self.column
        if not column.down and not column.cards:
            out.append(" ·· ", style="dim")
            return out
        first_picked = column.down + len(column.cards) - self.picked
        for line in self.lines():
            text, style = self.draw_line(line)
            if self.picked and line.kind != "down" and line.first >= first_picked:
                style += " reverse"
            out.append(text, style=style)
            out.append("\n")
        return out

    def draw_line(self, line: Line) -> tuple[str, str]:
        """A line's text and style: a card's face, face-down cards as backs (their count when
        there are more than one), a fold as the count of the cards it hides, in its run's ink."""
        if line.kind == "down":
            return (" ▒▒ " if line.count == 1 else f"▒{line.count:>2} "), BACK
        card = self.column.cards[line.first - self.column.down]
        if line.kind == "fold":
            return f" ⋮{line.count:<2}", card_style(card)
        return face(card)

    def on_mouse_down(self, event: MouseDown) -> None:
        if event.button != 1:
            return
        self.pressed_at = event.screen_offset
        self.dragged = False
        self.capture_mouse()
        self.post_message(self.Pressed(self.index, self.card_at(event.y), event.screen_offset))

    def on_mouse_move(self, event: MouseMove) -> None:
        if self.pressed_at is None or self.app.mouse_captured is not self:
            return
        if not self.region.contains_point(event.screen_offset):
            self.dragged = True
        if self.dragged:
            self.post_message(self.Dragged(self.index, event.screen_offset))

    def on_mouse_up(self, event: MouseUp) -> None:
        if self.pressed_at is None:
            return
        self.pressed_at = None
        self.release_mouse()
        dragged = self.dragged or not self.region.contains_point(event.screen_offset)
        self.post_message(self.Released(self.index, event.screen_offset, dragged))
        if dragged:
            # The click Textual makes of a release back over this column is already queued
            # behind this event: it is dropped, and the next one counts again.
            self.drop_click = True
            self.call_later(self.count_clicks)

    def count_clicks(self) -> None:
        self.drop_click = False

    def on_click(self, event: Click) -> None:
        if self.drop_click:
            return
        self.post_message(self.Clicked(self.index, self.card_at(event.y), event.chain >= 2))

    def shake(self) -> None:
        """A refusal: the column jolts from side to side for a moment, tinted."""
        if self.shaking is not None:
            self.shaking.stop()  # a shake begun again
        self.add_class("refused")
        self.shakes += 1
        self.shake_frame = 0
        self.shaking = self.set_interval(SHAKE_FRAME_SECONDS, self.shake_step)

    def shake_step(self) -> None:
        if self.shake_frame >= len(SHAKE):
            return  # a tick already queued when the interval stopped (a busy machine)
        self.styles.offset = (SHAKE[self.shake_frame], 0)
        self.shake_frame += 1
        if self.shake_frame == len(SHAKE) and self.shaking is not None:
            self.shaking.stop()
            self.shaking = None
            self.remove_class("refused")


class CastleColumnView(PileView):
    """A castle column: a click taps it, a double click sends its top card to the
    foundation, a drag carries cards from it."""


class FoundationsView(Widget):
    """The four foundations, each showing its top card, and the cards up of 52; a drag may
    drop a card here."""

    DEFAULT_CSS = """
    FoundationsView { height: 2; padding: 0 1; }
    FoundationsView.target { background: $success 25%; }
    FoundationsView.target.over { background: $success 55%; }
    """

    def __init__(self) -> None:
        super().__init__(id="foundations")
        self.foundations: dict[str, int] = {}
        self.cards_up = 0

    def show(self, foundations: dict[str, int], cards_up: int) -> None:
        self.foundations = foundations
        self.cards_up = cards_up
        self.refresh()

    def render(self) -> Text:
        out = Text("Foundations  ", style="dim")
        for suit in SUITS:
            rank = self.foundations.get(suit, 0)
            if rank:
                text, style = face(Card(rank, suit))
                out.append(text, style=style)
            else:
                out.append(f" ·{SUIT_SYMBOLS[suit]} ", style="dim")
            out.append(" ")
        out.append(f"   cards up {self.cards_up}/52", style="dim")
        return out


class HeldCards(Widget):
    """The cards the player drags, drawn under the pointer above everything else."""

    DEFAULT_CSS = """
    HeldCards { layer: held; width: 4; height: auto; display: none; }
    """

    def __init__(self) -> None:
        super().__init__(id="held")
        self.cards: list[Card] = []

    def carry(self, cards: list[Card], at: Offset) -> None:
        """Show ``cards`` with the first of them at ``at`` (a screen offset)."""
        self.cards = cards
        self.styles.offset = (max(at.x, 0), max(at.y, 0))
        self.display = True
        self.refresh(layout=True)

    def drop(self) -> None:
        self.display = False

    def render(self) -> Text:
        out = Text()
        for i, card in enumerate(self.cards):
            text, style = face(card)
            out.append(text, style=style + " reverse")
            if i < len(self.cards) - 1:
                out.append("\n")
        return out


__all__ = [
    "BACK",
    "COLUMN_WIDTH",
    "CastleColumnView",
    "FoundationsView",
    "HeldCards",
    "PileView",
    "card_style",
    "face",
]
