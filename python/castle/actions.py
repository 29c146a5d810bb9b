"""What a player does at the table, as plain data: each front end turns its keys, clicks, drags
or requests into these, and :meth:`castle.Table.act` does them. :func:`action_from_json` reads
one from JSON (``{"action": "drop", "src": 0, "dst": 3}``), refusing anything else with
:class:`ActionError`.

Columns are numbered from 0, in board-text order; ``"foundation"`` is a castle card's
foundation.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, Union, get_args

from .errors import CastleError
from .solving.cells import CELLS_VARIANTS, cells_rules
from .solving.deal import MAX_DEAL_NUMBER
from .solving.solve import FOUNDATION, Target
from .solving.spider import COLUMNS as SPIDER_COLUMNS


class ActionError(CastleError, ValueError):
    """Not an action: an unknown name, a missing or extra field, a value of the wrong kind."""


@dataclass(frozen=True)
class Pick:
    """The player points at ``column``: with cards selected elsewhere they go there; else
    the top ``count`` cards are selected (without ``count``: the game's first choice, and
    pointing again at the same column the next one: castle one card more of its run, Spider
    one card fewer of its longest run)."""

    NAME: ClassVar[str] = "pick"
    column: int
    count: int | None = None


@dataclass(frozen=True)
class Put:
    """The selected cards go to ``dst`` (a column, or ``"foundation"``)."""

    NAME: ClassVar[str] = "put"
    dst: Target


@dataclass(frozen=True)
class Drop:
    """The drag and drop: the top ``count`` cards of ``src`` go to ``dst`` (without
    ``count``: as many as fit there)."""

    NAME: ClassVar[str] = "drop"
    src: int
    dst: Target
    count: int | None = None


@dataclass(frozen=True)
class Tap:
    """Castle: the top card of ``column`` goes to its best place (docs/rules.md §3)."""

    NAME: ClassVar[str] = "tap"
    column: int


@dataclass(frozen=True)
class DoubleTap:
    """Castle: the top card of ``column`` straight to its foundation."""

    NAME: ClassVar[str] = "double_tap"
    column: int


@dataclass(frozen=True)
class DealRow:
    """Spider: ten cards from the stock, one on each column."""

    NAME: ClassVar[str] = "deal"


@dataclass(frozen=True)
class TakeOff:
    """Spider: the complete K-A run on top of ``column`` off (without one: the selected
    column's, else the first column that has one)."""

    NAME: ClassVar[str] = "take_off"
    column: int | None = None


@dataclass(frozen=True)
class Undo:
    NAME: ClassVar[str] = "undo"


@dataclass(frozen=True)
class Redo:
    NAME: ClassVar[str] = "redo"


@dataclass(frozen=True)
class Cancel:
    """Nothing selected any more."""

    NAME: ClassVar[str] = "cancel"


@dataclass(frozen=True)
class Advise:
    """A hint. ``peek`` (Spider): the thoughtful solver's, which sees the face-down cards and
    the stock; else the fair hint, from what the player sees."""

    NAME: ClassVar[str] = "hint"
    peek: bool = False


@dataclass(frozen=True)
class PlayHint:
    """The move of the hint shown, played: one step of a game played hint by hint."""

    NAME: ClassVar[str] = "play_hint"


@dataclass(frozen=True)
class NewDeal:
    """A new deal at ``level`` (default: this game's): deal number ``deal``, or one the level
    picks. When that counts this game as lost, it is only done ``confirmed``; else the reply
    asks the question."""

    NAME: ClassVar[str] = "new_deal"
    level: str | None = None
    confirmed: bool = False
    deal: int | None = None


@dataclass(frozen=True)
class Pause:
    """The clock stops (the table is covered)."""

    NAME: ClassVar[str] = "pause"


@dataclass(frozen=True)
class Resume:
    NAME: ClassVar[str] = "resume"


TableAction = Union[
    Pick,
    Put,
    Drop,
    Tap,
    DoubleTap,
    DealRow,
    TakeOff,
    Undo,
    Redo,
    Cancel,
    Advise,
    PlayHint,
    NewDeal,
    Pause,
    Resume,
]

#: Each action by its name in JSON.
ACTIONS: dict[str, type[TableAction]] = {kind.NAME: kind for kind in get_args(TableAction)}

#: The largest place number an action may name: Spider's ten columns, or a free-cell game's
#: columns and then its cells (Eight Off's eight and eight); and the most cards.
MAX_COLUMN = max(SPIDER_COLUMNS, *(sum(cells_rules(v)[1:3]) for v in CELLS_VARIANTS)) - 1
MAX_COUNT = 104


def action_to_json(action: TableAction) -> dict[str, Any]:
    data: dict[str, Any] = {"action": action.NAME}
    for field in fields(action):
        data[field.name] = getattr(action, field.name)
    return data


def action_from_json(data: object) -> TableAction:
    """The action ``data`` names, every field checked; :class:`ActionError` for anything
    else (one line that says what is wrong)."""
    if not isinstance(data, dict):
        raise ActionError('an action is a JSON object with an "action" name')
    name = data.get("action")
    if name is None:
        raise ActionError('an action needs its name: {"action": ...}')
    kind = ACTIONS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise ActionError(f"unknown action {name!r} (known: {', '.join(ACTIONS)})")
    known = {field.name: field for field in fields(kind)}
    extra = sorted(set(data) - set(known) - {"action"})
    if extra:
        raise ActionError(f"{name} takes no {', '.join(map(repr, extra))}")
    values: dict[str, Any] = {}
    for field_name in known:
        if field_name in data:
            values[field_name] = _checked(name, field_name, data[field_name])
    missing = [f for f, field in known.items() if f not in values and field.default is MISSING]
    if missing:
        raise ActionError(f"{name} needs {', '.join(map(repr, missing))}")
    return kind(**values)


def _checked(action: str, name: str, value: object) -> object:
    """A field's value, if it is of the field's kind and in range."""
    if name in ("column", "src"):
        return _number(
            action, name, value, MAX_COLUMN, none=name == "column" and action == "take_off"
        )
    if name == "count":
        return _number(action, name, value, MAX_COUNT, low=1, none=True)
    if name == "dst":
        if value == FOUNDATION:
            return value
        return _number(action, name, value, MAX_COLUMN)
    if name == "deal":
        return _number(action, name, value, MAX_DEAL_NUMBER, low=1, none=True)
    if name in ("peek", "confirmed"):
        if not isinstance(value, bool):
            raise ActionError(f"{action}: {name} must be true or false, not {value!r}")
        return value
    if name == "level":
        if value is not None and not isinstance(value, str):
            raise ActionError(f"{action}: level must be a level's name, not {value!r}")
        return value
    raise ActionError(f"{action}: unknown field {name!r}")  # pragma: no cover - every field above


def _number(
    action: str, name: str, value: object, high: int, *, low: int = 0, none: bool = False
) -> int | None:
    if value is None and none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ActionError(f"{action}: {name} must be a whole number {low} to {high}, not {value!r}")
    return value


__all__ = [
    "ACTIONS",
    "ActionError",
    "Advise",
    "Cancel",
    "DealRow",
    "DoubleTap",
    "Drop",
    "NewDeal",
    "Pause",
    "Pick",
    "PlayHint",
    "Put",
    "Redo",
    "Resume",
    "TableAction",
    "TakeOff",
    "Tap",
    "Undo",
    "action_from_json",
    "action_to_json",
]
