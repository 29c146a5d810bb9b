"""The menu (the clock stops while it is open) and the question asked before a new deal counts
an unfinished game as lost. The menu hands back where the player goes (:mod:`.goto`), and tells
the app of a setting changed by a message (:class:`MenuScreen.SettingsChanged`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from ..game.new_game import AnyGame
from ..saves.records import Settings
from ..table.table import new_deal_question
from .goto import Goto, Levels, NewDeal
from .guide import GuideScreen


def sound_label(on: bool) -> str:
    return f"Sound: {'on' if on else 'off'} (a terminal bell)"


def hints_label(fair: bool) -> str:
    if fair:
        return "Hints: fair (they see only what you see)"
    return "Hints: thoughtful (they peek at the face-down cards and the stock)"


class MenuScreen(ModalScreen[Goto]):
    """The menu: the clock stops while it is open, and its title says so, over the game it
    pauses (the table is hidden behind it). ``settings``: the player's, as the menu opens."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,m", "close", "Resume")]

    class SettingsChanged(Message):
        """The player changed a setting in the menu: ``settings`` are all of them now."""

        def __init__(self, settings: Settings) -> None:
            super().__init__()
            self.settings = settings

    def __init__(self, game: AnyGame, settings: Settings) -> None:
        super().__init__()
        self.game = game
        self.settings = settings
        #: The hints setting shows where the game offers a choice of hints.
        self.hint_choice = game.HINT_CHOICE

    def compose(self) -> ComposeResult:
        settings = self.settings
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

    def change(self, **changes: bool) -> None:
        """Change settings; the app keeps them."""
        self.settings = dataclasses.replace(self.settings, **changes)
        self.post_message(self.SettingsChanged(self.settings))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        choice = event.option.id
        level_id = self.game.level
        if choice == "resume":
            self.action_close()
        elif choice == "new":

            def answer(yes: bool) -> None:
                if yes:  # else the menu stays, the clock stopped
                    self.dismiss(NewDeal(level_id))

            ask_new_deal(self, level_id, self.game, answer)
        elif choice == "sound":
            self.change(sound=not self.settings.sound)
            event.option_list.replace_option_prompt("sound", sound_label(self.settings.sound))
        elif choice == "hints":
            self.change(fair_hints=not self.settings.fair_hints)
            event.option_list.replace_option_prompt("hints", hints_label(self.settings.fair_hints))
        elif choice == "guide":
            # The guide keeps the clock stopped, and the menu is there when it closes.
            self.app.push_screen(GuideScreen(self.game, pause=False))
        elif choice == "levels":
            self.dismiss(Levels())
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


def ask_new_deal(
    screen: Screen[Any], level_id: str, unfinished: AnyGame | None, answer: Callable[[bool], None]
) -> None:
    """Whether a new deal at ``level_id`` may go ahead, to ``answer``: yes at once when it
    loses no game, else as the player says when asked (over ``screen``) whether
    ``unfinished`` may count as lost."""
    question = new_deal_question(level_id, unfinished)
    if question is None:
        answer(True)
        return

    def said(yes: bool | None) -> None:
        answer(bool(yes))

    screen.app.push_screen(ConfirmScreen(question, "New deal", "Keep playing"), said)


__all__ = ["ConfirmScreen", "MenuScreen", "ask_new_deal", "hints_label", "sound_label"]
