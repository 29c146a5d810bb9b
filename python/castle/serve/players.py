"""The players of ``castle serve``: each with its :class:`castle.SaveStore`, the game at its
table (a :class:`castle.Table`) and a lock, so that its requests are served one at a time.

On loopback there is one player, whose store is the data directory itself: the saves and
statistics ``castle play`` uses. On a network each browser is a player of its own, in
``<data-dir>/players/<id>/``, whose player lock the server holds from its first use until it
lets the player go (a ``castle play`` there meanwhile is refused, and the other way round).
Every method here may take a while (a hint searches, a new Easy deal is proven winnable): the
app calls them from worker threads, never on the event loop. A hint searches outside the
player's lock (:meth:`Player.hint`), so that a search of a second or more does not hold up
the player's moves, drags and views meanwhile.

No rule lives here: the table decides, the store saves (after every move, as the game does).
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from ..actions import ActionError, Advise, NewDeal, TableAction, action_from_json
from ..errors import CastleError
from ..family import family_of
from ..game.game import Game
from ..game.levels import LEVELS, LevelError, level, level_family
from ..game.new_game import AnyGame, new_game
from ..game.playclock import Clock
from ..saves.records import Settings
from ..saves.store import SaveStore, StoreBusyError
from ..solving.outcome import Canceller
from ..table.table import Reply, Table
from ..words import clock_text
from .guard import is_player_id
from .player_files import PlayerStore, expire, player_directories, seen

T = TypeVar("T")

#: Players kept in memory on a network server; beyond this those idle longest are let go
#: (their games are saved: each comes back from its store, through CONTINUE), once idle
#: for :data:`IDLE_SECONDS` (at once if they hold nothing); a new player is refused (503)
#: while none can go.
MAX_PLAYERS = 1000
IDLE_SECONDS = 60.0
#: Players whose files a network server keeps (``players/<id>/``); past this a new player
#: is refused (503). A player's files go after :data:`EXPIRE_SECONDS` without it (looked
#: for every :data:`EXPIRY_EVERY` seconds, and at the start).
MAX_KEPT_PLAYERS = 10_000
EXPIRE_SECONDS = 90 * 24 * 3600.0
EXPIRY_EVERY = 3600.0
#: The most requests of one player in flight at once (one served, the rest waiting their
#: turn): more are refused (429), so that no player holds every worker thread.
MAX_IN_FLIGHT = 8
#: New players (ids with no files) one client (an address) may start in a minute; past it
#: a new one is refused (429): a script cannot fill the server's room for players.
NEW_PLAYERS_PER_MINUTE = 30
#: The clients whose new players are counted (those not seen longest are forgotten first).
COUNTED_CLIENTS = 10_000


#: The reply to a hint that came back after the player had played on.
LATE_HINT = "that hint came after your move: ask again"


class Busy(Exception):
    """Too many requests of this player at once (429)."""


class Full(Exception):
    """No room for one more player on this server (503)."""


class NoGame(Exception):
    """Nothing to do it to: no game at the table, or none unfinished to continue (409)."""


class Player:
    """One player: ``store``, the game at the table (none until continued or dealt), and the
    lock that serves its requests one at a time."""

    def __init__(
        self,
        store: SaveStore,
        *,
        clock: Clock = time.monotonic,
        rng: random.Random | None = None,
        client: str = "",
    ) -> None:
        self.store = store
        #: The address the player first came from (whose players go first when room is made).
        self.client = client
        self.table: Table | None = None
        self.lock = threading.Lock()
        #: Requests under way (:meth:`in_flight`), and the lock of that count.
        self.requests = 0
        self._count = threading.Lock()
        #: When a request last asked for this player (time.monotonic).
        self.seen = time.monotonic()
        self._clock = clock
        self._rng = rng

    def served(self, work: Callable[[], T]) -> T:
        """``work`` done while no other request of this player is, and while the player holds
        its directory (:meth:`_hold`)."""
        with self.lock:
            self._hold()
            try:
                return work()
            finally:
                self._lost()

    def _hold(self) -> None:
        """Before a request: the player's directory, if there is one, held (while a ``castle
        play`` holds it: :class:`~castle.saves.store.StoreBusyError`, 409, nothing done). One held
        only now while a game is at the table was another program's since that game was
        dealt: its saves are the player's, and the game at the table goes (the player
        continues from the disk)."""
        if self.store.claim() and self.table is not None:
            self.table = None

    def _lost(self) -> None:
        """After a request: a directory there now that the player did not hold was made by
        another program meanwhile (the request's save was refused as busy), so the game at the
        table is not the saved one: it goes, and the request is refused (409). (Where no lock
        can be had, as on Windows, nothing is known of that.)"""
        store = self.store
        if not store.lock_on_use or store.holds_lock or not store.directory.is_dir():
            return
        try:
            taken = store.claim()
        except StoreBusyError:
            self.table = None
            raise
        if taken:  # the other program has quit already: its saves are the player's
            self.table = None
            raise StoreBusyError(
                f"another castle player saved in {store.directory} meanwhile: continue its game"
            )

    @contextlib.contextmanager
    def in_flight(self) -> Iterator[None]:
        """One more request of this player under way; :class:`Busy` past
        :data:`MAX_IN_FLIGHT`."""
        with self._count:
            if self.requests >= MAX_IN_FLIGHT:
                raise Busy(f"more than {MAX_IN_FLIGHT} requests at once: wait for the answers")
            self.requests += 1
        try:
            yield
        finally:
            with self._count:
                self.requests -= 1

    # --- the picker ---------------------------------------------------------------------------

    def levels(self) -> dict[str, Any]:
        """The level picker: each level with its statistics, and the unfinished game."""
        levels = []
        for chosen in LEVELS.values():
            record = self.store.record(chosen.id)
            levels.append(
                {
                    "id": chosen.id,
                    "name": chosen.name,
                    "blurb": chosen.blurb,
                    "game": family_of(chosen.variant).name,
                    "record": {**record.to_json(), "win_percentage": record.win_percentage},
                    "record_text": str(record),
                }
            )
        unfinished = self._unfinished()
        resume = None
        if unfinished is not None:
            resume = {
                "level": unfinished.level,
                "level_name": level(unfinished.level).name,
                "game": level_family(unfinished.level).name,
                "deal_name": unfinished.deal_name,
                "moves": unfinished.moves,
                "seconds": unfinished.seconds,
                "clock": clock_text(unfinished.seconds),
            }
        return {"levels": levels, "continue": resume, "notices": self.notices()}

    def notices(self) -> list[str]:
        """What went wrong with the player's files since last asked (each told once)."""
        told = list(self.store.notices)
        self.store.notices.clear()
        return told

    # --- the game at the table ----------------------------------------------------------------

    def new_deal(self, request: Any) -> tuple[Reply, Table | None]:
        """``POST /api/new``: a new deal at the request's level (and deal number). When that
        counts the unfinished game (at the table, or saved) as lost and is not ``confirmed``,
        the reply asks, and nothing changes."""
        if not isinstance(request, dict) or "action" in request:
            raise ActionError('a new deal is {"level": ..., "confirmed": ..., "deal": ...}')
        action = action_from_json({"action": NewDeal.NAME, **request})
        assert isinstance(action, NewDeal)
        if action.level is None:
            raise ActionError("a new deal needs its 'level'")
        try:
            level(action.level)
        except LevelError as e:
            raise ActionError(str(e)) from None
        table = self.table
        if table is None:
            saved = Game.resume(self.store, clock=self._clock, paused=True)
            if saved is None:
                try:
                    game = new_game(
                        action.level, self.store, action.deal, clock=self._clock, rng=self._rng
                    )
                except CastleError as e:  # Easy refuses a deal the solver does not win
                    return Reply(False, str(e)), None
                self.table = self._table(game)
                return Reply(True, ""), self.table
            table = self._table(saved)
        reply = table.act(action)
        if reply.done:
            self.table = table
        return reply, self.table

    def resume(self) -> tuple[Reply, Table]:
        """``POST /api/continue``: the unfinished game at the table, its clock running."""
        game = self._unfinished()
        if game is None:
            raise NoGame("no unfinished game to continue: deal a new one")
        if self.table is None or self.table.game is not game:
            self.table = self._table(game)
        return self.table.continued(), self.table

    def act(self, data: Any) -> tuple[Reply, Table]:
        """``POST /api/act``: the action ``data`` names, at the table."""
        table = self.at_table()
        action: TableAction = action_from_json(data)
        table.check(action)
        return table.act(action), table

    def hint(
        self, data: Any, answer: Callable[[Reply, Table], T], cancel: Canceller | None = None
    ) -> T:
        """``POST /api/act`` with a hint (``data``): what the hint says, and ``answer(reply,
        table)``, made under the lock. The lock is held to read the game and its moves, let go
        while the hint searches (other requests of the player are served meanwhile: the
        player may move on), and taken again to show it: unless the player has played since
        (or dealt again), when the hint came too late and the reply says so (done false,
        nothing changed). The search changes nothing a move reads (the game keeps only its
        plan for the next hint); two hints asked at once search apart. ``cancel``, set (the
        client went away), stops the search."""
        action = action_from_json(data)
        if not isinstance(action, Advise):
            raise ActionError(f"not a hint: {data!r}")
        with self.lock:
            self._hold()
            table = self.at_table()
            game, moves = table.game, table.game.moves
        label, hint = table.advice(action.peek, cancel=cancel)
        with self.lock:
            self._hold()
            reply = None
            if self.table is table and table.game is game:
                reply = table.show_advice(label, hint, moves)
            if reply is not None:
                return answer(reply, table)
            return answer(Reply(False, LATE_HINT), self.at_table())

    def at_table(self) -> Table:
        if self.table is None:
            raise NoGame("no game at the table: continue one or deal a new one")
        return self.table

    # --- settings -----------------------------------------------------------------------------

    def settings(self) -> Settings:
        return self.store.settings()

    def change_settings(self, changes: Any) -> Settings:
        """The settings with ``changes`` (``{"sound": false}``), kept for the next start."""
        if not isinstance(changes, dict):
            raise ActionError('settings are a JSON object: {"sound": true, "fair_hints": true}')
        known = Settings().to_json()
        for name, value in changes.items():
            if name not in known:
                raise ActionError(f"no setting {name!r} (known: {', '.join(known)})")
            if not isinstance(value, bool):
                raise ActionError(f"{name} must be true or false, not {value!r}")
        settings = replace(self.store.settings(), **changes)
        self.store.save_settings(settings)
        return settings

    # --- inside -------------------------------------------------------------------------------

    def _table(self, game: AnyGame) -> Table:
        return Table(game, self.store, clock=self._clock, rng=self._rng)

    def _unfinished(self) -> AnyGame | None:
        """The unfinished game: the one at the table, else the one saved (paused)."""
        game: AnyGame | None = None
        if self.table is not None:
            game = self.table.game
        else:
            game = Game.resume(self.store, clock=self._clock, paused=True)
        return game if game is not None and not game.is_won else None


class Players:
    """Who plays on this server. ``shared`` (loopback): one player, ``directory`` itself;
    else a player per id, in ``directory/players/<id>``."""

    def __init__(
        self,
        directory: str | Path | None,
        *,
        shared: bool = True,
        clock: Clock = time.monotonic,
        rng: random.Random | None = None,
        max_players: int = MAX_PLAYERS,
        max_kept: int = MAX_KEPT_PLAYERS,
        expire_seconds: float = EXPIRE_SECONDS,
    ) -> None:
        self.shared = shared
        self.store = SaveStore(directory)
        self.max_players, self.max_kept, self.expire_seconds = max_players, max_kept, expire_seconds
        self._clock = clock
        self._rng = rng
        self._players: OrderedDict[str, Player] = OrderedDict()
        self._lock = threading.Lock()
        #: New players a client may start in a minute, and when each client started its last.
        self.new_per_minute = NEW_PLAYERS_PER_MINUTE
        self._started: OrderedDict[str, deque[float]] = OrderedDict()
        #: Players' directories (on a network): how many, and when idle ones were last removed.
        self._kept = 0
        self._expired = -EXPIRY_EVERY
        if not shared:
            self.expire_idle()

    @property
    def root(self) -> Path:
        """Where a network server keeps its players' files."""
        return self.store.directory / "players"

    def get(self, player_id: str | None, client: str = "") -> Player:
        """The player of ``player_id`` (on loopback: None, the one player), asked for by
        ``client`` (an address); :class:`Full` for a new one the server has no room for,
        :class:`Busy` for one more new one than its client may start in a minute."""
        if self.shared:
            key = ""
        elif player_id is None or not is_player_id(player_id):
            raise ActionError(f"not a player id: {player_id!r}")
        else:
            key = player_id
        with self._lock:
            player = self._players.get(key)
            if player is None:
                store = self.store if self.shared else self._store_of(key)
                if isinstance(store, PlayerStore) and not store.kept:  # a new player
                    self._count_new(client)
                self._let_go()
                if len(self._players) >= self.max_players:
                    raise Full(
                        f"this server has {self.max_players} players at once: try again in a minute"
                    )
                player = Player(store, clock=self._clock, rng=self._rng, client=client)
                self._players[key] = player
            self._players.move_to_end(key)
            player.seen = time.monotonic()
            return player

    def expiry_due(self) -> bool:
        """Whether idle players' files are to be looked for now (:meth:`expire_idle`); the
        next time is then :data:`EXPIRY_EVERY` seconds away."""
        with self._lock:
            if self.shared or time.monotonic() - self._expired < EXPIRY_EVERY:
                return False
            self._expired = time.monotonic()
            return True

    def expire_idle(self) -> int:
        """The files of players idle longer than :attr:`expire_seconds` removed (none in
        memory); the players' directories counted again. How many went."""
        with self._lock:
            self._expired = time.monotonic()
        gone = expire(self.root, idle_seconds=self.expire_seconds, playing=self.playing)
        with self._lock:  # no player's first save counted meanwhile (a scan of names only)
            self._kept = len(player_directories(self.root))
        return gone

    def playing(self) -> set[str]:
        """The ids of the players in memory now."""
        with self._lock:
            return set(self._players)

    def pause_all(self) -> None:
        """Every game at a table paused, which saves its time played, and every player's
        directory let go (the server stops: a castle play may take it then)."""
        with self._lock:
            players = list(self._players.values())
        for player in players:
            with player.lock:
                if player.table is not None:
                    player.table.game.pause()
                if not self.shared:
                    player.store.release()

    def _store_of(self, key: str) -> SaveStore:
        """The store of a network player not in memory: :class:`Full` if it has no files
        and the server keeps as many players' as it may."""
        # Locked while it is served, as castle play locks its directory: neither overwrites
        # the other's game, nor enters it as a loss.
        store = PlayerStore(self.root / key, may_keep=self._room_for_one_more, lock_on_use=True)
        if store.kept:
            seen(store.directory)
        elif self._kept >= self.max_kept:
            raise Full(
                f"this server keeps the games of {self.max_kept} players and has no room for "
                "a new one: its owner can make room (docs/serve.md)"
            )
        return store

    def _room_for_one_more(self) -> bool:
        """One more player's files may be written (counted), or not."""
        with self._lock:
            if self._kept >= self.max_kept:
                return False
            self._kept += 1
            return True

    def _count_new(self, client: str) -> None:
        """One more new player started by ``client``: :class:`Busy` past
        :attr:`new_per_minute` in the last minute."""
        now = time.monotonic()
        started = self._started.pop(client, None) or deque()
        while started and now - started[0] >= 60.0:
            started.popleft()
        self._started[client] = started  # the latest seen last
        if len(self._started) > COUNTED_CLIENTS:
            self._started.popitem(last=False)
        if len(started) >= self.new_per_minute:
            raise Busy(
                f"{self.new_per_minute} new players from your address in a minute: "
                "keep the cookie castle gives, or try again in a minute"
            )
        started.append(now)

    def _let_go(self) -> None:
        """At :attr:`max_players` in memory, players go to make room for one more (none in a
        request): first those with nothing worth keeping (no game with a move, no files, no
        settings waiting: a deal alone is worth no room), then those idle for
        :data:`IDLE_SECONDS`, of the client with the most players in memory first (a client
        that floods makes room with its own players), the longest idle first."""
        if len(self._players) < self.max_players:
            return
        now = time.monotonic()
        crowd = Counter(player.client for player in self._players.values())
        worthless = [key for key, player in self._players.items() if not _worth_a_place(player)]
        idle = [
            key
            for key, player in self._players.items()
            if _worth_a_place(player) and now - player.seen >= IDLE_SECONDS
        ]
        # Those who hold nothing before those who dealt; then the crowded client's; then the
        # longest idle (the order they are in: the sorts are stable).
        worthless.sort(key=lambda key: self._players[key].table is not None)
        for keys in (worthless, idle):
            keys.sort(key=lambda key: -crowd[self._players[key].client])
        for key in (*worthless, *idle):
            if len(self._players) < self.max_players:
                return
            player = self._players[key]
            if not player.lock.locked() and not player.requests:  # a hint searches unlocked
                del self._players[key]
                player.store.release()


def _worth_a_place(player: Player) -> bool:
    """Whether letting ``player`` go would cost it something: a game with a move at its table
    (the player would have to continue it from the picker) or settings not yet written. A
    deal alone, or a look at the picker, costs nothing."""
    store = player.store
    if isinstance(store, PlayerStore) and store.waiting_settings is not None:
        return True
    return player.table is not None and player.table.game.moves > 0


__all__ = [
    "EXPIRE_SECONDS",
    "LATE_HINT",
    "MAX_IN_FLIGHT",
    "MAX_KEPT_PLAYERS",
    "MAX_PLAYERS",
    "NEW_PLAYERS_PER_MINUTE",
    "Busy",
    "Full",
    "NoGame",
    "Player",
    "Players",
]
