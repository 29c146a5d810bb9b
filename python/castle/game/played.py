"""What every game in play keeps, castle or Spider: the actions done (each with the position
before it) and undone, the move and undo counters, the clock, and the store it saves to; how a
save finds its kind of game; and what a table asks of any game (its piles, what may be lifted,
what its bar shows, its hint, what a press, a drop or a hint's move means), so that neither
:class:`castle.Table` nor a front end asks which game it holds.

Each game class names the format of its saves (``SAVE_FORMAT``) and is entered in
:attr:`Played.KINDS` as it is defined, so that loading a save (:func:`load_game`) needs no
list of the games: the store stores JSON, and choosing the class lives with the games.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, Protocol, TypeVar

from ..cards import Card, shown
from ..errors import IllegalMoveError, SaveError
from ..saves.records import count_field
from ..saves.store import NOTHING, seconds_field
from ..solving.outcome import Canceller
from ..solving.solve import Target
from ..words import clock_text
from .levels import LevelError, level, level_for_variant, pick_deal
from .plan import Hint
from .playclock import Clock, PlayClock

if TYPE_CHECKING:
    from ..saves.store import SaveStore

#: A game's action (castle: :class:`castle.Action`; Spider: :class:`castle.SpiderMove`) and
#: position (:class:`castle.Deal` or :class:`castle.SpiderDeal`).
A = TypeVar("A")


class Position(Protocol):
    """What a game needs of its positions (:class:`castle.Deal`, :class:`castle.SpiderDeal`)."""

    @property
    def variant(self) -> str: ...
    @property
    def number(self) -> int | None: ...
    def to_text(self) -> str: ...


P = TypeVar("P", bound=Position)
G = TypeVar("G", bound="Played[Any, Any]")

#: The version of a game's save, both kinds (the format tag says which game it is).
SAVE_VERSION = 1

#: How long a searching hint (the castle games', Spider's thoughtful one) may think, in
#: seconds of the wall clock: a player waits no longer than this for an answer. Read when a
#: hint is asked (a test on a busy machine may raise it).
HINT_SECONDS = 1.5


@dataclass(frozen=True)
class Step:
    """A move as a player makes it at the table, in the game's words (:meth:`Played.playing`):
    ``"drop"`` (the top ``count`` cards of ``src`` onto ``dst``), ``"deal"`` (a row from the
    stock) or ``"off"`` (the run on top of ``src`` taken off). The table makes it its action."""

    kind: Literal["drop", "deal", "off"]
    src: int | None = None
    dst: Target | None = None
    count: int = 1


@dataclass(frozen=True)
class TopRow:
    """What a game shows above its columns: the castle games their ``foundations`` (each
    suit's top rank, 0 when empty) and ``cards_up``; Spider its ``stock`` (cards left) and
    ``off`` (the suit of each run taken off); the free-cell games their foundations, cards up
    and how many ``cells`` (the last piles of :meth:`Played.piles`). What a game lacks is
    None."""

    foundations: dict[str, int] | None = None
    cards_up: int | None = None
    stock: int | None = None
    off: tuple[str, ...] | None = None
    cells: int | None = None


class Played(Generic[A, P]):
    #: The format tag of this kind of game's saves (each game class names its own).
    SAVE_FORMAT: ClassVar[str]
    #: Every kind of game, by the format of its saves.
    KINDS: ClassVar[dict[str, type[Played[Any, Any]]]] = {}
    #: The deals this kind of game plays (:class:`castle.Deal`, :class:`castle.SpiderDeal`).
    DEAL: ClassVar[type[Any]]
    #: The variants this kind of game plays.
    VARIANTS: ClassVar[tuple[str, ...]]
    #: The level :meth:`new` deals at when none is named.
    DEFAULT_LEVEL: ClassVar[str]
    #: What a view calls this kind of game (``"castle"``, ``"spider"``): what front ends draw.
    KIND: ClassVar[str]
    #: Whether the player chooses between a fair hint and one that peeks (a setting).
    HINT_CHOICE: ClassVar[bool] = False

    #: The level played (its id) and the deal as dealt.
    level: str
    deal: P

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        save_format = cls.__dict__.get("SAVE_FORMAT")
        if save_format is not None:
            Played.KINDS[save_format] = cls

    @classmethod
    def from_save(
        cls, data: Any, *, clock: Clock = time.monotonic, store: SaveStore | None = None
    ) -> Played[Any, Any]:
        raise NotImplementedError

    @classmethod
    def new(
        cls: type[G],
        level_id: str | None = None,
        *,
        deal: Any = None,
        store: SaveStore | None = None,
        clock: Clock = time.monotonic,
        rng: random.Random | None = None,
    ) -> G:
        """A new game at the level (``deal``, or one the level picks with ``rng``). A saved
        game left unfinished, with a move made, is entered in its level's statistics as a
        loss first."""
        chosen = level(level_id or cls.DEFAULT_LEVEL)
        if chosen.variant not in cls.VARIANTS:
            raise LevelError(f"{chosen.name} is not a level of castle.{cls.__name__}")
        if store is not None:
            record_unfinished_as_lost(store, clock)
        if deal is None:
            deal = pick_deal(chosen.id, rng)
        game = cls(deal, level_id=chosen.id, clock=clock, store=store)
        game._acted()
        return game

    def __init__(
        self,
        deal: P,
        *,
        level_id: str | None = None,
        clock: Clock = time.monotonic,
        store: SaveStore | None = None,
    ) -> None:
        if not isinstance(deal, self.DEAL):
            raise TypeError(
                f"{type(self).__name__}() takes a castle.{self.DEAL.__name__}, "
                f"not {type(deal).__name__}"
            )
        self.deal = deal
        self.level = level(level_id).id if level_id else level_for_variant(deal.variant).id
        self._position = deal
        self._done: list[tuple[A, P]] = []
        self._undone: list[A] = []
        self._moves = 0
        self._undos = 0
        self._timer = PlayClock(clock)
        self._store = store

    @property
    def is_won(self) -> bool:
        raise NotImplementedError

    @property
    def variant(self) -> str:
        return self.deal.variant

    @property
    def deal_name(self) -> str:
        """The deal as people call it: ``deal 2``, or ``a custom deal`` (a board that is no
        numbered deal)."""
        number = self.deal.number
        return f"deal {number}" if number is not None else "a custom deal"

    @property
    def lost_if_left(self) -> bool:
        """Whether a new deal started now enters this game as a loss at its level: it is
        unfinished, and a move was made in it."""
        return not self.is_won and self._moves > 0

    @property
    def position(self) -> P:
        """The current position (no deal number)."""
        return self._position

    def to_save(self) -> dict[str, Any]:
        raise NotImplementedError

    @property
    def moves(self) -> int:
        """Moves made, each undo included (each game says what a move is)."""
        return self._moves

    @property
    def undos(self) -> int:
        return self._undos

    @property
    def history(self) -> tuple[A, ...]:
        return tuple(action for action, _ in self._done)

    @property
    def can_undo(self) -> bool:
        return bool(self._done) and not self.is_won

    @property
    def can_redo(self) -> bool:
        return bool(self._undone) and not self.is_won

    @property
    def can_hint(self) -> bool:
        """Whether a hint has a move to give: not once the game is won."""
        return not self.is_won

    @property
    def seconds(self) -> float:
        """Seconds of play: the clock stops while paused and once the game is won."""
        return self._timer.seconds

    @property
    def paused(self) -> bool:
        return not self._timer.running and not self.is_won

    def pause(self) -> None:
        """Stop the clock (the menu is open), and save."""
        if self._timer.running:
            self._timer.stop()
            self._acted()

    def unpause(self) -> None:
        if not self.is_won:
            self._timer.start()

    def undo(self) -> A:
        """Take back the last action whole (it counts as a move; its points go too)."""
        if self.is_won:
            raise IllegalMoveError("the game is won")
        if not self._done:
            raise IllegalMoveError("nothing to undo")
        action, before = self._done.pop()
        self._position = before
        self._undone.append(action)
        self._moves += 1
        self._undos += 1
        self._acted()
        return action

    # --- at the table: what a table asks of every game --------------------------------------

    @property
    def status(self) -> str:
        """The bar's line: :attr:`headline`, then what this game counts (:meth:`tally`)."""
        return f"{self.headline} · {self.tally()}"

    @property
    def headline(self) -> str:
        """``Medium · deal 2 · moves 1 · time 0:04 · score 0``: at most 80 characters for any
        deal number below 2^31 and a game of under 100,000 moves and 100 hours (the terminal
        shows the tally in its top row)."""
        return (
            f"{level(self.level).name} · {self.deal_name} · moves {self.moves} · "
            f"time {clock_text(self.seconds)} · score {self.score}"
        )

    @property
    def score(self) -> int:
        raise NotImplementedError

    def tally(self) -> str:
        """How far the game is, for the bar (``cards up 4/52``)."""
        raise NotImplementedError

    def top_row(self) -> TopRow:
        """What the game shows above its columns."""
        raise NotImplementedError

    def piles(self) -> list[tuple[int, list[Card]]]:
        """Each column as (face-down count, face-up cards)."""
        raise NotImplementedError

    def movable(self, column: int) -> int:
        """How many top cards of ``column`` may be lifted as one (empty columns permitting)."""
        raise NotImplementedError

    def lift_refusal(self, src: int, count: int) -> str | None:
        """Why the top ``count`` cards of ``src`` cannot be picked up as one (None: they can)."""
        raise NotImplementedError

    def targets(self, src: int, count: int) -> Sequence[Target]:
        """Where the top ``count`` cards of ``src`` may go as one action."""
        raise NotImplementedError

    def next_pick(self, column: int, picked: int) -> int:
        """How many cards of ``column`` a press selects when ``picked`` of them are selected
        (0: none yet)."""
        raise NotImplementedError

    def advice(self, peek: bool = False, cancel: Canceller | None = None) -> tuple[str, Hint[Any]]:
        """A hint and what to call it (``peek``: the hint that sees hidden cards, where the game
        has one); it searches and changes nothing. ``cancel``: a :class:`threading.Event` that
        stops the solver's search when set (its client went away)."""
        raise NotImplementedError

    def playing(self, move: Any) -> Step:
        """How a player plays ``move``, a hint's move (:attr:`castle.Hint.move`)."""
        raise NotImplementedError

    def drop(self, src: int, dst: Target, count: int | None = None) -> A:
        """The top ``count`` cards of ``src`` (None: as many as fit) dropped on ``dst``."""
        raise NotImplementedError

    def tap(self, column: int) -> A:
        """A press on ``column``'s top card that sends it where it goes best (a game without
        one refuses it, saying what to do instead)."""
        raise NotImplementedError

    def double_tap(self, column: int) -> A:
        """A double press on ``column``'s top card."""
        return self.tap(column)

    def deal_row(self) -> A:
        """A row dealt from the stock."""
        raise IllegalMoveError("this game has no stock to deal from")

    def take_off(self, column: int | None = None) -> A:
        """A finished run taken off ``column`` (None: wherever there is one); a game without
        runs to take off refuses it, saying how its cards go up."""
        raise NotImplementedError

    def _check_playing(self) -> None:
        if self.is_won:
            raise IllegalMoveError("the game is won")

    def _finish_if_won(self, *, record: bool = True) -> None:
        """At a win: the clock stops, and the win enters the level's statistics."""
        if self.is_won and self._timer.running:
            self._timer.stop()
            if self._store is not None and record:
                self._store.record_result(self.level, won=True)

    def _acted(self, *, saving: bool = True) -> None:
        """The one place a game is saved, after each action (a new deal, a move, an undo or a
        redo, a pause): a win first stops the clock and enters the statistics. A save's moves
        replayed as it is read are not actions (``saving`` False)."""
        self._finish_if_won(record=saving)
        if saving and self._store is not None:
            self._store.save_game(self)

    def _save_data(self, done: list[Any], undone: list[Any]) -> dict[str, Any]:
        """The save every game writes, with its actions (``done``, ``undone``) as it writes
        them: the deal, the level, the counters and the seconds played."""
        return {
            "format": self.SAVE_FORMAT,
            "version": SAVE_VERSION,
            "level": self.level,
            "variant": self.variant,
            "deal": self.deal.number,
            "board": self.deal.to_text(),
            "done": done,
            "undone": undone,
            "moves": self._moves,
            "undos": self._undos,
            "seconds": self.seconds,
        }

    @classmethod
    def _saved_deal(
        cls,
        data: Any,
        from_text: Callable[[str, str], P],
        from_number: Callable[[str, int], P],
    ) -> P:
        """The deal of a save that :meth:`_save_data` wrote (its format and version checked),
        numbered when the save says so and the board is that deal; :class:`SaveError` else."""
        if not isinstance(data, dict):
            raise SaveError("not a castle save")
        if data.get("format") != cls.SAVE_FORMAT:
            raise SaveError(f"not a {cls.SAVE_FORMAT} save: format {data.get('format')!r}")
        if data.get("version") != SAVE_VERSION:
            raise SaveError(f"a save of format version {data.get('version')!r}, not {SAVE_VERSION}")
        deal = from_text(text_field(data["board"]), text_field(data["variant"]))
        number = data["deal"]
        if number is None:
            return deal
        if isinstance(number, bool) or not isinstance(number, int):
            raise SaveError(f"expected a deal number, found {shown(number)}")
        numbered = from_number(deal.variant, number)  # it says the range
        if numbered.to_text() != deal.to_text():
            raise SaveError(f"the board is not deal {number}")
        return numbered

    def _restore(self, data: dict[str, Any], clock: Clock, store: SaveStore | None) -> None:
        """The counters and the clock of a save (paused: resume or the player starts it), and
        the store the game saves to from now on."""
        self._moves = count_field(data["moves"])
        self._undos = count_field(data["undos"])
        self._timer = PlayClock(clock, seconds_field(data["seconds"]), running=False)
        self._store = store


def text_field(value: object) -> str:
    """Text in a save file; :class:`SaveError` unless it is text."""
    if not isinstance(value, str):
        raise SaveError(f"expected text, found {value!r}")
    return value


def load_game(store: SaveStore, clock: Clock = time.monotonic) -> Played[Any, Any] | None:
    """The game saved in ``store``, of whichever kind its save says, its clock paused (None if
    there is none). A save that is not a usable game is set aside and reported, and None
    returned."""
    data = store.read_game()
    if data is NOTHING:
        return None
    kind = Played.KINDS.get(str(data.get("format"))) if isinstance(data, dict) else None
    try:
        if kind is None:
            raise SaveError("not a castle save")
        return kind.from_save(data, clock=clock, store=store)
    except SaveError as e:
        store.set_aside_game(str(e))
        return None


def resume(
    store: SaveStore, *, clock: Clock = time.monotonic, paused: bool = False
) -> Played[Any, Any] | None:
    """The saved game, exactly as it was left (see :func:`load_game`). Its clock runs on from
    the seconds saved, unless ``paused`` (then ``unpause`` starts it)."""
    game = load_game(store, clock)
    if game is not None and not paused:
        game.unpause()
    return game


def record_unfinished_as_lost(store: SaveStore, clock: Clock = time.monotonic) -> None:
    """Before a new deal: a saved game left unfinished, with a move made, is a loss at its
    level."""
    unfinished = load_game(store, clock)
    if unfinished is not None and unfinished.lost_if_left:
        store.record_result(unfinished.level, won=False)


__all__ = [
    "HINT_SECONDS",
    "SAVE_VERSION",
    "Played",
    "Position",
    "Step",
    "TopRow",
    "load_game",
    "record_unfinished_as_lost",
    "resume",
    "text_field",
]
