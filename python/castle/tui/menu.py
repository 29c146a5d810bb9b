"""The menu (the clock stops while it is open) and the question asked before a new deal counts
an unfinished game as lost."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from ..new_game import AnyGame
from .common import castle_app
from .guide import GuideScreen


def sound_label(on: bool) -> str:
    return f"Sound: {'on' if on else 'off'} (a terminal bell)"


def hints_label(fair: bool) -> str:
    if fair:
        return "Hints: fair (they see only what you see)"
    return "Hints: thoughtful (they peek at the face-down cards and the stock)"


class MenuScreen(ModalScreen[None]):
    """The menu: the clock stops while it is open, and its title says so, over the game it
    pauses (the table is hidden behind it)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,m", "close", "Resume")]

    def __init__(self, game: AnyGame) -> None:
        super().__init__()
        self.game = game
        #: The hints setting shows where the game offers a choice of hints.
        self.hint_choice = game.HINT_CHOICE

    def compose(self) -> ComposeResult:
        settings = castle_app(self).settings
        hints = [Option(hints_label(settings.fair_hints), id="hints")] if self.hint_choice else []
        with Vertical(id="menu-box"):
            yield Static("Paused", id="menu-title")
            yield Static(self.game.status, id="menu-game")
            yield OptionList(
                Option("Resume", id="resume"),
                Option("New deal", id="new"),
                Option(sound_label(settings.sound), id="sound"),
                *hints,
                Option("Guide (?)", id="guide"),
                Option("Levels", id="levels"),
                Option("Quit (the game is saved)", id="quit"),
                id="menu",
            )

    def on_mount(self) -> None:
        self.game.pause()

    def action_close(self) -> None:
        self.game.unpause()
        self.dismiss()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        app = castle_app(self)
        choice = event.option.id
        if choice == "resume":
            self.action_close()
        elif choice == "new":
            app.new_deal(self.game.level, self.game)
        elif choice == "sound":
            app.change_settings(sound=not app.settings.sound)
            event.option_list.replace_option_prompt("sound", sound_label(app.settings.sound))
        elif choice == "hints":
            app.change_settings(fair_hints=not app.settings.fair_hints)
            event.option_list.replace_option_prompt("hints", hints_label(app.settings.fair_hints))
        elif choice == "guide":
            # The guide keeps the clock stopped, and the menu is there when it closes.
            self.app.push_screen(GuideScreen(self.game, pause=False))
        elif choice == "levels":
            app.show_levels()
        elif choice == "quit":
            self.app.exit()


class ConfirmScreen(ModalScreen[bool]):
    """A yes-or-no question: ``y`` (or its button) is yes; ``n``, Escape (or Enter, the "no"
    button having the focus) no."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, yes: str, no: str) -> None:
        super().__init__()
        self.question = question
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(self.question, id="question")
            with Horizontal(id="answers"):
                yield Button(f"{self.yes} (y)", id="yes", variant="warning")
                yield Button(f"{self.no} (n)", id="no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


__all__ = ["ConfirmScreen", "MenuScreen", "hints_label", "sound_label"]
