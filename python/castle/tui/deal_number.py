"""The question the level picker asks for a deal by its number (``d``): the number typed,
checked by the level as a new deal would be (its range; Easy's and Easy FreeCell's proven
wins), and handed back, or nothing (Esc)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ..errors import CastleError
from ..game.levels import level, numbered_deal


class DealNumberScreen(ModalScreen[int]):
    """A deal number for ``level_id``: handed back once the level deals it; a refusal is
    said under the field, and the player may type again."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Back")]

    def __init__(self, level_id: str) -> None:
        super().__init__()
        self.level_id = level_id

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(
                f"The deal number of {level(self.level_id).name} (Enter plays it, Esc goes back):",
                id="question",
            )
            yield Input(placeholder="617", type="integer", max_length=12, id="deal-number")
            yield Static("", id="deal-refusal")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        refusal = self.query_one("#deal-refusal", Static)
        if not text.isascii() or not text.isdigit():
            refusal.update("a deal number is a whole number, as 617")
            return
        try:
            numbered_deal(self.level_id, int(text))
        except CastleError as e:
            refusal.update(str(e))
            return
        self.dismiss(int(text))

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = ["DealNumberScreen"]
