"""``castle.Table``: a game at the table, the one surface every front end plays through.

A front end turns what the player does into an :mod:`action <castle.actions>` and hands it to
:meth:`Table.act`; it draws :meth:`Table.view`. The table keeps what lies between the two:
the cards selected, the hint shown and the last message; the game decides every rule: what is
legal, where a tap goes, what may be lifted and where it may go, what a press selects, the
score, the saving. The table asks any game the same questions (:class:`castle.game.played.Played`)
and never which game it is. A refused action changes nothing and says why.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from ..actions import (
    ActionError,
    Advise,
    Cancel,
    DealRow,
    DoubleTap,
    Drop,
    NewDeal,
    Pause,
    Pick,
    PlayHint,
    Put,
    Redo,
    Resume,
    TableAction,
    TakeOff,
    Tap,
    Undo,
    action_to_json,
)
from ..cards import Card
from ..errors import CastleError, IllegalMoveError
from ..game.levels import LevelError, level
from ..game.new_game import AnyGame, new_game
from ..game.plan import Hint
from ..game.playclock import Clock
from ..game.played import Step
from ..saves.store import SaveStore
from ..solving.outcome import Canceller
from ..solving.solve import FOUNDATION, Target
from ..words import plural
from .view import ColumnView, Lift, View


@dataclass(frozen=True)
class Reply:
    """What an action did: ``done`` or refused (then nothing changed), the message for the
    player, the column whose cards ``shake`` back after a refused move, and the ``question``
    to ask before doing it (a new deal that counts this game as lost)."""

    done: bool
    message: str
    shake: int | None = None
    question: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "done": self.done,
            "message": self.message,
            "shake": self.shake,
            "question": self.question,
        }


def new_deal_question(level_id: str, unfinished: AnyGame | None) -> str | None:
    """What to ask before a new deal at ``level_id`` ends ``unfinished`` (None: nothing, it
    would not count as lost)."""
    if unfinished is None or not unfinished.lost_if_left:
        return None
    return (
        f"A new {level(level_id).name} deal ends your {level(unfinished.level).name} game "
        f"({unfinished.deal_name}, {plural(unfinished.moves, 'move')}): it counts as lost."
    )


class Table:
    """``game`` in play, for a front end. With a ``store``, a new deal records the game it ends
    and a win's view carries the level's statistics; ``clock`` and ``rng`` go to new games."""

    def __init__(
        self,
        game: AnyGame,
        store: SaveStore | None = None,
        *,
        clock: Clock = time.monotonic,
        rng: random.Random | None = None,
    ) -> None:
        self.game: AnyGame = game
        self.store = store
        self._clock = clock
        self._rng = rng
        #: The selected cards: the top ``count`` of ``column``.
        self.selected: tuple[int, int] | None = None
        self.message = ""
        #: The hint shown, as the action that plays it (None: no hint shown, or no move).
        self.hint_action: TableAction | None = None

    # --- what is shown ------------------------------------------------------------------------

    def view(self) -> View:
        game = self.game
        selection = None if self.selected is None else self.lift(*self.selected)
        targets = () if selection is None or selection.refusal else selection.targets
        top = game.top_row()
        # The piles are the columns, then the cells of a game that has them.
        cells = top.cells or 0
        places = tuple(
            ColumnView(
                down=down,
                cards=tuple(cards),
                movable=self.movable(i),
                picked=selection.count if selection and selection.src == i else 0,
                target=i in targets,
                hinted=i in self.hinted,
            )
            for i, (down, cards) in enumerate(self.piles())
        )
        record = statistics = None
        if game.is_won and self.store is not None:
            level_record = self.store.record(game.level)
            record = str(level_record)
            statistics = {**level_record.to_json(), "win_percentage": level_record.win_percentage}
        return View(
            game=game.KIND,
            level=game.level,
            level_name=level(game.level).name,
            variant=game.variant,
            deal=game.deal.number,
            deal_name=game.deal_name,
            status=game.status,
            moves=game.moves,
            seconds=game.seconds,
            score=game.score,
            columns=places[: len(places) - cells],
            cells=places[len(places) - cells :] if top.cells is not None else None,
            foundations=top.foundations,
            foundation_target=FOUNDATION in targets,
            cards_up=top.cards_up,
            stock=top.stock,
            off=top.off,
            selection=selection,
            message=self.message,
            won=game.is_won,
            paused=game.paused,
            can_undo=game.can_undo,
            can_redo=game.can_redo,
            can_hint=game.can_hint,
            record=record,
            statistics=statistics,
            hint=None if self.hint_action is None else action_to_json(self.hint_action),
        )

    def piles(self) -> list[tuple[int, list[Card]]]:
        """Each column as (face-down count, face-up cards), then each cell (its card or
        none) of a game that has cells: the places an action names by number."""
        return self.game.piles()

    def movable(self, column: int) -> int:
        """How many top cards of ``column`` may be lifted as one (empty columns permitting)."""
        return self.game.movable(column)

    def lift(self, src: int, count: int) -> Lift:
        """What picking up the top ``count`` cards of ``src`` holds, where they may go, or why
        they cannot move as one. Nothing changes (a drag in progress asks this)."""
        cards = self.piles()[self.check_column(src, "src")][1]
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ActionError(f"count must be a whole number 1 or more, not {count!r}")
        refusal = self.game.lift_refusal(src, count)
        targets: tuple[Target, ...] = () if refusal else tuple(self.game.targets(src, count))
        return Lift(src, count, tuple(cards[len(cards) - count :]), targets, refusal)

    @property
    def hinted(self) -> tuple[int, ...]:
        """The columns the hint shown moves from and to."""
        action = self.hint_action
        places = (getattr(action, name, None) for name in ("src", "dst", "column"))
        return tuple(place for place in places if isinstance(place, int))

    def check_column(self, column: object, name: str = "column") -> int:
        """``column`` if this game has it; :class:`ActionError` (bad input, not a move the game
        refuses) else."""
        count = len(self.piles())
        if isinstance(column, bool) or not isinstance(column, int) or not 0 <= column < count:
            raise ActionError(f"{name} must be a column 0 to {count - 1}, not {column!r}")
        return column

    def check(self, action: TableAction) -> None:
        """Whether ``action`` can be put to this game at all: :class:`ActionError` when it
        names a column the game does not have, or an unknown level. (A front end that reads
        actions from outside, as the browser's server, refuses those as bad input; a move the
        game refuses is :meth:`act`'s reply.)"""
        for name in ("column", "src", "dst"):
            value = getattr(action, name, None)
            if value is not None and value != FOUNDATION:
                self.check_column(value, name)
        if isinstance(action, NewDeal) and action.level is not None:
            try:
                level(action.level)
            except LevelError as e:
                raise ActionError(str(e)) from None

    # --- what is done -------------------------------------------------------------------------

    def act(self, action: TableAction) -> Reply:
        """Do ``action``: refused (a :class:`castle.CastleError` of the game), nothing changes
        and the reply says why; done, the selection and the hint shown go."""
        shake = action.src if isinstance(action, Drop) else None
        if self.selected is not None and (
            isinstance(action, Put)
            or (isinstance(action, Pick) and action.column != self.selected[0])
        ):
            shake = self.selected[0]  # the selected cards go back
        if isinstance(action, Advise):
            reply = self.show_advice(*self.advice(action.peek))
            assert reply is not None  # asked and shown at the same move
            return reply
        try:
            message = self._do(action)
        except _Question as question:
            self.message = str(question)
            return Reply(False, self.message, question=self.message)
        except CastleError as e:
            self.selected = None
            self.message = str(e)
            return Reply(False, self.message, shake=shake)
        self.message = message
        return Reply(True, message)

    def continued(self) -> Reply:
        """The game continued (CONTINUE) at this table: its clock runs, and the table is as a
        new one over the game: no selection, no hint shown and no message, since whatever was
        said ("paused", "undone") was said before the player left."""
        self.game.unpause()
        self.selected, self.hint_action, self.message = None, None, ""
        return Reply(True, "")

    def advice(self, peek: bool = False, cancel: Canceller | None = None) -> tuple[str, Hint[Any]]:
        """A hint and what to call it; it searches (in the game's short mode) and changes
        nothing, so a front end may ask from a worker thread and show it with
        :meth:`show_advice`. ``peek``: the hint that sees the hidden cards (Spider's thoughtful
        one), where the game has one; ``cancel`` stops its search (a client gone)."""
        return self.game.advice(peek, cancel)

    def show_advice(self, label: str, hint: Hint[Any], moves: int | None = None) -> Reply | None:
        """Show a hint asked for when the game stood at ``moves`` moves; dropped (None) if the
        player has played since. Where the hint has no move because none is left (no win,
        or the fair hint's "no move helps"), the reply's question offers a new deal."""
        if moves is not None and moves != self.game.moves:
            return None
        self.message = f"{label}: {hint}"
        move = hint.move
        self.hint_action = None if move is None else action_of(self.game.playing(move))
        return Reply(True, self.message, question=self._dead_end_question(hint))

    def _dead_end_question(self, hint: Hint[Any]) -> str | None:
        """What to ask the player whom the hint leaves without a move to try: a new deal
        (counted as a loss when it is one). None while there is a move, a win, or only a
        search that ran out of time."""
        game = self.game
        if (
            hint.move is not None
            or game.is_won
            or (hint.why is None and hint.status != "unsolvable")
        ):
            return None
        why = "The hint sees no move that helps" if hint.why else "No play wins from here"
        if not game.lost_if_left:
            return f"{why}: a new deal?"
        return (
            f"{why}. You can still undo and try other moves yourself, or deal again: this game "
            f"({game.deal_name}, {plural(game.moves, 'move')}) counts as lost."
        )

    # --- inside -------------------------------------------------------------------------------

    def _do(self, action: TableAction) -> str:
        """Do one action; the message after it. Raises the game's refusal."""
        game = self.game
        if isinstance(action, PlayHint):
            if self.hint_action is None:
                raise IllegalMoveError("no hint with a move is shown: ask for a hint first")
            return self._do(self.hint_action)
        if isinstance(action, Pause):
            game.pause()
            return "paused"
        if isinstance(action, Resume):
            game.unpause()
            return ""
        if isinstance(action, NewDeal):
            level_id = action.level or game.level
            question = new_deal_question(level_id, game)
            if question is not None and not action.confirmed:
                raise _Question(question)
            self.game = new_game(
                level_id, self.store, action.deal, clock=self._clock, rng=self._rng
            )
            self.selected, self.hint_action = None, None
            return ""
        self.hint_action = None
        if isinstance(action, Pick):
            return self._pick(self.check_column(action.column), action.count)
        selected, self.selected = self.selected, None
        if isinstance(action, Cancel):
            return ""
        if isinstance(action, Put):
            if selected is None:
                raise IllegalMoveError("select cards first, then where they go")
            return self._move(selected[0], action.dst, selected[1])
        if isinstance(action, Drop):
            return self._move(self.check_column(action.src), action.dst, action.count)
        if isinstance(action, Undo):
            game.undo()
            return "undone"
        if isinstance(action, Redo):
            game.redo()
            return "redone"
        if isinstance(action, Tap):
            game.tap(self.check_column(action.column))
            return ""
        if isinstance(action, DoubleTap):
            game.double_tap(self.check_column(action.column))
            return ""
        if isinstance(action, DealRow):
            game.deal_row()
            return "dealt"
        # A run taken off: the column named, else the one selected, else the game's choice.
        assert isinstance(action, TakeOff), action  # a hint is shown by act, not done here
        column = action.column
        if column is None and selected is not None:
            column = selected[0]
        game.take_off(None if column is None else self.check_column(column))
        return "a run is off"

    def _pick(self, column: int, count: int | None) -> str:
        game = self.game
        cards = self.piles()[column][1]
        if self.selected is not None and self.selected[0] != column:
            src, picked = self.selected
            self.selected = None
            return self._move(src, column, picked)
        if count is None:
            if not cards:
                self.selected = None
                raise IllegalMoveError(f"column {column + 1} is empty")
            count = self._next_count(column)
        refusal = game.lift_refusal(column, count)
        if refusal is not None:
            raise IllegalMoveError(refusal)
        self.selected = (column, count)
        chosen = cards[len(cards) - count :]
        them = "them" if count > 1 else "it"
        return f"{' '.join(map(str, chosen))} selected: choose a column to move {them} there"

    def _next_count(self, column: int) -> int:
        """The first choice of cards to select in ``column``, or the next one when it is
        selected: castle one card, then one more of its run; Spider its longest run, then one
        card fewer."""
        picked = self.selected[1] if self.selected is not None else 0
        return self.game.next_pick(column, picked)

    def _move(self, src: int, dst: Target, count: int | None) -> str:
        self.game.drop(src, dst, count)
        return ""


class _Question(Exception):
    """An action that waits for the player's yes."""


def action_of(step: Step) -> TableAction:
    """The table's action for a move the game describes (a hint's move, played)."""
    if step.kind == "deal":
        return DealRow()
    if step.kind == "off":
        return TakeOff(step.src)
    assert step.src is not None and step.dst is not None
    return Drop(step.src, step.dst, step.count)


__all__ = ["Reply", "Table", "new_deal_question"]
