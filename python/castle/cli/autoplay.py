"""``castle autoplay``: deals played to the end by the hints alone, with the win rate. A castle
game follows the player's hint (a step of one plan); the summary sets the solver's verdicts on
the same deals beside it. Spider follows the fair hint, or the thoughtful solver's plan.

The deals are a batch (:func:`castle.cli.batch.run_batch`) of the player
(:class:`castle.cli.autoplay_player.Autoplayer`), on local processes or on the Dask cluster that
``--scheduler`` or ``--dask-local`` asks for. With ``--db`` each game is stored as soon as it is
played (:mod:`castle.surveys.autoplay_store`): a run resumes where the last one stopped, runs on one
file at the same time share the deals (:class:`castle.surveys.survey_claims.DealClaims`), and the
summary covers the whole file for the variant and settings. ``--db`` without ``--deals`` reports
what the file holds (:mod:`castle.cli.autoplay_report`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections import Counter
from collections.abc import Sequence

from rich.text import Text

from .. import __version__
from ..family import CASTLE, SPIDER, family_of
from ..surveys.autoplay_store import AutoplayStore, Game, group_key, settings_text
from ..surveys.results_file import FileError, utc_now
from ..surveys.survey_claims import DealClaims
from ..variants import DEFAULT_VARIANT, NAMES
from .args import (
    DEALS_HELP,
    add_workers_options,
    deal_numbers,
    parse_autoplay_variant,
    parse_jobs,
    parse_seconds,
    parse_seed,
    parse_states,
)
from .autoplay_player import Autoplayer, PlayedDeal, result_fields
from .autoplay_report import report, settings_words, who_plays, won_text
from .batch import BatchEnd, batch_title, cap_jobs, run_batch
from .cluster import connect, distributed
from .errors import EXIT_FAILURE, EXIT_OK, Parser, UsageError
from .output import format_rate, format_seconds, make_console
from .progress import PlayProgress
from .signals import STOP_SIGNALS, signals_blocked

AUTOPLAY_HELP = """\
Each deal is played by the hint alone. A castle game (Beleaguered Castle, Streets and
Alleys, Citadel) follows the player's hint, a step of one plan that wins (searched again
only off the plan), so it wins exactly the deals the solver wins under the same limits; the
summary sets the two side by side. Spider: with --fair the hint sees only what a player
sees: it plans the moves that show nothing new up to the next card it turns up (the deal
only when no card can be), chooses where to look next by the deck's rule (with one suit,
the choice most of a few worlds of the unseen cards win by; with two and four, the one of
the best-looking few whose card, each card it could be, leaves the game nearest a win),
and never returns to a position played since a card was last shown. Without --fair it
follows the thoughtful solver, which sees every card.

With --db FILE each game is stored in an SQLite file as soon as it is played: run the same
command again after an interruption (even kill -9) and it plays only the deals the file
does not hold yet; two runs on one file at the same time share the deals. Games are kept
by variant and by the player's settings (--fair, --samples, --seed, --max-states,
--max-seconds): other settings are other games, never counted together. The summary covers
every game of the variant and settings in the file. --db FILE without --deals reports what
the file holds.

  castle autoplay --variant V --deals RANGE [--db FILE] [--jobs N] [settings]
  castle autoplay --db FILE [--variant V]          what the file holds
"""

AUTOPLAY_EPILOG = """\
exit status:
  0    done (every deal played, won or not)
  1    a worker process died (the games played until then are stored)
  2    bad input: flags, deal range, a --db file that is not a castle autoplay file (a
       survey's, say) or is damaged
  130  interrupted by Ctrl+C (143: by SIGTERM); with --db the games played are stored: run
       the same command again to go on

examples:
  castle autoplay --deals 1-200 --jobs 2
  castle autoplay --variant citadel --deals 1-1000 --jobs 2 --db citadel.db
  castle autoplay --variant spider-2 --deals 1-200 --fair --dask-local 2 --db fair.db
  castle autoplay --db fair.db
"""


def add_parser(commands: argparse._SubParsersAction[Parser], summary: str) -> Parser:
    """Add ``castle autoplay`` to ``commands``, ``summary`` its line in ``castle --help``."""
    autoplay = commands.add_parser(
        "autoplay",
        help=summary,
        description=AUTOPLAY_HELP,
        epilog=AUTOPLAY_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    autoplay.add_argument(
        "--variant",
        type=parse_autoplay_variant,
        metavar="V",
        help=f"any variant, any case: {', '.join(CASTLE.variants)} (played by the hint's plan) or "
        f"{', '.join(SPIDER.variants)} (played by the solver, or with --fair by the fair "
        f"hint) (default {DEFAULT_VARIANT}, as for every command); with --db alone, the one "
        "to report (default: all)",
    )
    autoplay.add_argument(
        "--deals",
        metavar="RANGE",
        help=f"the deals to play, {DEALS_HELP} (default: none; then --db FILE reports what "
        "the file holds)",
    )
    autoplay.add_argument(
        "--db",
        metavar="FILE",
        help="store each game in this SQLite file as it is played (made if new), skip the "
        "deals it holds already, and sum up all its games of the variant and settings "
        "(default: none, nothing kept)",
    )
    autoplay.add_argument(
        "--fair",
        action="store_true",
        help="Spider: the hint sees only what a player sees (default: the solver, which "
        "sees every card)",
    )
    autoplay.add_argument(
        "--samples",
        type=parse_jobs,
        default=None,
        metavar="N",
        help="with --fair: the worlds (deals of the unseen cards) each choice of the fair "
        "player is tried in (default: the deck's, castle.game.fair)",
    )
    autoplay.add_argument(
        "--max-states",
        type=parse_states,
        default=None,
        metavar="N",
        help="castle games: states for each hint's search (default: none, as castle solve); "
        "Spider with --fair: the states of the fair player's look-ahead in each world "
        "(default: the deck's); without: the solver's states for its plan (default "
        "3,000,000)",
    )
    autoplay.add_argument(
        "--max-seconds",
        type=parse_seconds,
        default=None,
        metavar="S",
        help="castle games: seconds for each hint's search (default: none, as castle solve)",
    )
    autoplay.add_argument(
        "--seed",
        type=parse_seed,
        default=0,
        metavar="N",
        help="with --fair: seed of the random completions, 0 to 2**63-1 (deal N uses seed + N; "
        "default %(default)s)",
    )
    autoplay.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per deal this run plays on stdout, the summary on stderr; with "
        "--db alone, one per variant and settings (default: the summary only)",
    )
    add_workers_options(autoplay, "play")
    return autoplay


def run(args: argparse.Namespace) -> int:
    """Run ``castle autoplay`` with parsed ``args``; returns the exit status."""
    try:
        if args.deals is None:
            if args.db is None:
                raise UsageError(
                    "--deals is required: the deals to play (or --db FILE alone, to report "
                    "what the file holds)"
                )
            return report(args)
        player = Autoplayer.from_args(args, args.variant or DEFAULT_VARIANT)
        numbers = deal_numbers(args.deals, "autoplay")
        if args.scheduler or args.dask_local:
            distributed()  # before any file is touched: says what to install
        return play(args, player, numbers)
    except FileError as e:
        raise UsageError(str(e)) from None


class AutoplayBatch:
    """This run's games: each made a row as it comes, stored at once (with ``store``), shown
    on the progress bar, written as a JSON line (with ``json``). With ``claims`` it is also
    the batch's :class:`castle.cli.engine.Claims`: a deal another run plays meanwhile
    advances the bar, and is counted in ``elsewhere``."""

    def __init__(
        self,
        player: Autoplayer,
        progress: PlayProgress,
        *,
        store: AutoplayStore | None = None,
        claims: DealClaims | None = None,
        json: bool = False,
    ) -> None:
        self._player = player
        self._settings = settings_text(player.settings())
        self._progress = progress
        self._store = store
        self._claims = claims
        self._json = json
        #: This run's games, by deal.
        self.games: dict[int, Game] = {}
        #: Deals of this run that other runs played meanwhile.
        self.elsewhere = 0

    def claim(self, deals: Sequence[int]) -> tuple[list[int], list[int]]:
        assert self._claims is not None
        got = self._claims.claim(deals)
        for status in got.done.values():
            self._progress.advance(status == "won")
        self.elsewhere += len(got.done)
        return got.mine, got.held

    def add(self, played: PlayedDeal) -> None:
        """A deal played: stored (in the transaction that settles its claim), then shown."""
        fields = result_fields(played.result)
        game = Game(
            self._player.variant,
            self._settings,
            played.number,
            played.result.won,
            played.seconds,
            json.dumps(fields, default=str),  # a field JSON cannot hold, as its words
            utc_now(),
            __version__,
        )
        if self._store is not None:
            self._store.put([game], self._claims)
        self.games[played.number] = game
        self._progress.advance(game.won)
        if self._json:
            line = {"variant": game.variant, "deal": game.deal, **fields}
            line.update(seconds=round(played.seconds, 6))
            sys.stdout.write(json.dumps(line, default=str) + "\n")
            sys.stdout.flush()


def play(args: argparse.Namespace, player: Autoplayer, numbers: Sequence[int]) -> int:
    """Play ``numbers`` (those the --db file does not hold yet), then sum up."""
    errors = make_console(stderr=True)
    variant, settings = player.variant, settings_text(player.settings())
    with contextlib.ExitStack() as stack:
        store = None
        before: dict[int, Game] = {}
        if args.db is not None:
            store = stack.enter_context(AutoplayStore.open(args.db, create=True))
            before = {g.deal: g for g in store.games(variant, settings, numbers)}
        todo = [n for n in numbers if n not in before]
        # A cluster only when there is work for it (a LocalCluster takes a second to start).
        cluster = stack.enter_context(connect(args.scheduler, args.dask_local)) if todo else None
        jobs = cap_jobs(args.jobs, len(todo), errors) if todo else 1
        progress = PlayProgress(
            errors,
            len(numbers),
            batch_title(args.deals),
            enabled=errors.is_terminal,
            done=len(before),
            won=sum(g.won for g in before.values()),
        )
        claims = None
        if store is not None and todo:
            claims = DealClaims(store, group_key(variant, settings))
            with signals_blocked(STOP_SIGNALS):  # its heartbeat thread and its row, or neither
                claims.open()
            stack.callback(_release, claims)
        batch = AutoplayBatch(player, progress, store=store, claims=claims, json=args.json)
        end = BatchEnd(jobs)
        if todo:
            with progress:
                end = run_batch(
                    player,
                    todo,
                    jobs=jobs,
                    on_result=batch.add,
                    signals=STOP_SIGNALS,
                    cluster=cluster,
                    claims=batch if claims is not None else None,
                )
        if store is not None:
            games = list(store.games(variant, settings, numbers))
            lines = summary_lines(args, player, games, end, batch, len(numbers), len(before))
            lines.extend(file_lines(args.db, store, variant, settings))
        else:
            games = list(batch.games.values())
            lines = summary_lines(args, player, games, end, batch, len(numbers), 0)
    out = errors if args.json else make_console()
    for line in lines:
        out.print(line)
    if end.failure:
        errors.print(f"castle: error: {end.failure}")
        return EXIT_FAILURE
    if end.interrupted:
        return 128 + end.stop_signal
    return EXIT_OK


def _release(claims: DealClaims) -> None:
    with signals_blocked(STOP_SIGNALS):  # a second Ctrl+C waits for the claims' release
        claims.close()


def summary_lines(
    args: argparse.Namespace,
    player: Autoplayer,
    games: Sequence[Game],
    end: BatchEnd,
    batch: AutoplayBatch,
    total: int,
    already: int,
) -> list[Text]:
    """The deals of the range: won of played, with the solver's verdicts beside (castle
    games); with --db, what this run did and the settings."""
    name = NAMES.get(player.variant, player.variant)
    won = sum(g.won for g in games)
    head = Text(
        f"{name} deals {args.deals}, played by {who_plays(player.variant, player.settings())}: "
        f"{won_text(won, len(games))} in {format_seconds(end.wall_seconds)}"
    )
    left = total - len(games)
    if left:
        head.append(f"; {left:,} deals not played yet", style="bold yellow")
    lines = [head]
    if args.db is not None:
        jobs = "1 job" if end.jobs == 1 else f"{end.jobs} jobs"
        if end.engine:
            jobs = f"{end.engine}, " + ("1 thread" if end.jobs == 1 else f"{end.jobs} threads")
        done = f"  this run: {len(batch.games):,} played"
        if batch.games:
            rate = len(batch.games) / end.wall_seconds if end.wall_seconds > 0 else 0.0
            done += f", {jobs} ({format_rate(rate)})"
        if batch.elsewhere:
            done += f"; {batch.elsewhere:,} played by another run at the same time"
        if already:
            done += f"; {already:,} stored already"
        lines.append(Text(done, style="dim"))
        lines.append(Text(f"  settings: {settings_words(player.settings())}", style="dim"))
    if family_of(player.variant).autoplay_verdicts:
        verdicts = Counter(g.fields.get("status") for g in games)
        lines.append(
            Text(
                f"the solver on the same deals: {verdicts['solved']} solved, "
                f"{verdicts['unsolvable']} unsolvable, {verdicts['unknown']} unknown"
            )
        )
    if end.interrupted and left:
        again = "run the same command again to play" if args.db else "with --db FILE, a rerun plays"
        lines.append(Text(f"{again} the {left:,} deals left", style="yellow"))
    return lines


def file_lines(db: str, store: AutoplayStore, variant: str, settings: str) -> list[Text]:
    """Every game of ``variant`` the file holds with ``settings``: the win rate; and how many
    it holds with other settings."""
    name = NAMES.get(variant, variant)
    groups = store.groups(variant)
    mine = [g for g in groups if g.settings == settings]
    played = mine[0].played if mine else 0
    won = mine[0].won if mine else 0
    line = Text.assemble(
        (f"{db} now holds {played:,} {name} games with these settings", "bold"),
        f": {won_text(won, played)}",
    )
    others = sum(g.played for g in groups if g.settings != settings)
    if others:
        line.append(
            f"; and {others:,} with other settings (castle autoplay --db {db} lists them)",
            style="dim",
        )
    return [line]


__all__ = ["add_parser", "run"]
