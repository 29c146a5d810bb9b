"""castle against fc-solve (Freecell Solver) on the same deals: verdicts, agreement, time.

    python benches/compare_fcsolve.py --variant beleaguered-castle --deals 1-200 \\
        --max-iters 2000000 [--max-states 5000000] [--max-seconds S] [--jobs N] [--json] \\
        [--opt] [--short]

Each deal's board text (``castle.Deal.from_number(variant, n).to_text()``) goes to

    fc-solve -g GAME -sel -mi MAX_ITERS -to 0AB -m

on its standard input. ``-to 0AB`` gives fc-solve exactly the single-card moves of these games
(0: a top card to its foundation, A: a top card to an empty column, B: a top card onto a card
one rank higher), no sequence moves; ``-sel`` makes a search cut by ``-mi`` say "Iterations
count exceeded." instead of "I could not solve this game.", so the latter is fc-solve's claim
that its search was exhausted: "unsolvable" here. ``-m`` prints the winning moves (it does not
change the search), which are replayed through ``castle.reference`` unless ``--no-replay``.
GAME is ``beleaguered_castle``, ``streets_and_alleys`` or ``citadel`` (all three are one preset
in fc-solve: the rules are the same, only the deal differs and it comes as board text).

castle runs ``castle.solve(deal, max_states=MAX_STATES[, max_seconds=S])`` and its wins are
replayed through ``castle.reference`` too. ``--opt`` gives fc-solve ``-opt`` (it shortens its
solution) and ``--short`` gives castle ``short=True``; the report then compares the lengths of
the wins (single-card moves, foundation moves included) on the deals both won. Times are
wall-clock per deal: for fc-solve the whole process (start-up of a few ms included), for castle
the ``castle.solve`` call.

Exit status: 0 when castle is not caught out; 1 when fc-solve solves a deal castle calls
unsolvable, or castle's claimed win does not replay (castle is wrong); 2 for bad arguments, a
missing or failing fc-solve, or fc-solve output this script cannot read. Installs nothing:
on Debian, ``apt-get install freecell-solver-bin`` provides ``fc-solve``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

import castle
from castle import reference
from castle.surveys.stats import percentile
from castle.variants import NAMES

#: castle variant id -> fc-solve's ``-g`` game (all the castle games fc-solve knows).
FCS_GAMES = {
    "beleaguered-castle": "beleaguered_castle",
    "streets-and-alleys": "streets_and_alleys",
    "citadel": "citadel",
}
#: fc-solve's verdict lines (libfreecell-solver 5.0.0) and what they mean here.
FCS_VERDICTS = {
    "This game is solveable.": "solved",
    "I could not solve this game.": "unsolvable",
    "Iterations count exceeded.": "unknown",
}
FCS_ITERATIONS = re.compile(r"^Total number of states checked is (\d+)\.$", re.MULTILINE)
#: ``-m`` output: "Move a card from stack 3 to the foundations", "Move 1 cards from stack 4 to
#: stack 2" (stacks 0-based in board-line order).
FCS_MOVE = re.compile(
    r"^Move (?:a card|1 cards) from stack (\d+) to (?:the foundations|stack (\d+))$"
)
STATUSES = ("solved", "unsolvable", "unknown")
SOLVERS = ("fc-solve", "castle")


class CompareError(Exception):
    """The comparison could not be made (fc-solve missing, failing or unreadable)."""


@dataclass
class Outcome:
    """One solver on one deal."""

    status: str  # solved | unsolvable | unknown
    seconds: float
    count: int  # fc-solve: states checked (iterations); castle: states expanded
    moves: int = 0  # moves of a win
    replay: str | None = None  # a win replayed: "won", or what went wrong; None: not checked
    detail: str = ""  # fc-solve's verdict line, or castle's limit


@dataclass
class DealRow:
    number: int
    fcsolve: Outcome
    castle: Outcome
    fcsolve_output: str  # fc-solve's last lines (verdict and counts)

    @property
    def disagreement(self) -> bool:
        return {self.fcsolve.status, self.castle.status} == {"solved", "unsolvable"}

    @property
    def castle_wrong(self) -> bool:
        """fc-solve solved what castle called unsolvable, or castle's win does not replay."""
        return (self.fcsolve.status == "solved" and self.castle.status == "unsolvable") or (
            self.castle.status == "solved" and self.castle.replay != "won"
        )


def fcsolve_command(
    exe: str, game: str, max_iters: int, moves: bool, opt: bool = False
) -> list[str]:
    command = [exe, "-g", game, "-sel", "-mi", str(max_iters), "-to", "0AB"]
    if opt:
        command.append("-opt")
    return [*command, "-m"] if moves else command


def replay_fcsolve(deal: castle.Deal, output: str) -> tuple[str, int]:
    """Replay fc-solve's ``-m`` moves through castle's reference rules: ("won" or the fault,
    number of moves)."""
    columns = deal.columns
    moves: list[castle.Move] = []
    for line in output.splitlines():
        if not line.startswith("Move"):
            continue
        match = FCS_MOVE.match(line)
        if match is None:
            return f"unreadable move line {line!r}", len(moves)
        src = int(match.group(1))
        if not 0 <= src < len(columns) or not columns[src]:
            return f"move {len(moves) + 1} ({line!r}) takes from an empty or unknown stack", len(
                moves
            )
        card = columns[src].pop()
        if match.group(2) is None:
            moves.append(castle.Move(card, src, castle.FOUNDATION))
        else:
            dst = int(match.group(2))
            if not 0 <= dst < len(columns):
                return f"move {len(moves) + 1} ({line!r}) goes to an unknown stack", len(moves)
            columns[dst].append(card)
            moves.append(castle.Move(card, src, dst))
    return replay_moves(deal, moves), len(moves)


def replay_moves(deal: castle.Deal, moves: Sequence[castle.Move]) -> str:
    try:
        final = reference.replay(deal, moves)
    except castle.IllegalMoveError as e:
        return f"illegal: {e}"
    return "won" if final.is_won() else f"{len(moves)} legal moves that do not win"


def run_fcsolve(
    command: Sequence[str], deal: castle.Deal, timeout: float | None, replay: bool
) -> tuple[Outcome, str]:
    """fc-solve on ``deal``: its outcome and the last lines of its output."""
    env = {**os.environ, "FREECELL_SOLVER_QUIET": "1"}
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            command,
            input=deal.to_text(),
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            check=False,
        )
    except subprocess.TimeoutExpired:
        seconds = time.perf_counter() - start
        return Outcome("unknown", seconds, 0, detail=f"killed after {timeout:g} s"), ""
    seconds = time.perf_counter() - start
    lines = proc.stdout.splitlines()
    verdicts = [line for line in lines if line in FCS_VERDICTS]
    iterations = FCS_ITERATIONS.findall(proc.stdout)
    if proc.returncode != 0 or len(verdicts) != 1 or len(iterations) != 1:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-6:])
        raise CompareError(
            f"fc-solve on deal {deal.number}: exit status {proc.returncode}, "
            f"unexpected output:\n{tail}"
        )
    outcome = Outcome(FCS_VERDICTS[verdicts[0]], seconds, int(iterations[0]), detail=verdicts[0])
    if outcome.status == "solved" and replay:
        outcome.replay, outcome.moves = replay_fcsolve(deal, proc.stdout)
    tail_start = lines.index(verdicts[0])
    return outcome, "\n".join(lines[tail_start:])


def run_castle(
    deal: castle.Deal, max_states: int | None, max_seconds: float | None, short: bool = False
) -> Outcome:
    start = time.perf_counter()
    solution = castle.solve(deal, max_states=max_states, max_seconds=max_seconds, short=short)
    seconds = time.perf_counter() - start
    outcome = Outcome(
        solution.status, seconds, solution.states, len(solution.moves), detail=solution.limit or ""
    )
    if solution.status == "solved":
        outcome.replay = replay_moves(deal, solution.moves)
    return outcome


@dataclass
class Summary:
    solved: int
    unsolvable: int
    unknown: int
    total_seconds: float
    median_seconds: float
    p99_seconds: float
    max_seconds: float
    count: int  # iterations (fc-solve) or states (castle), summed over the deals
    wins_replayed: int
    wins_not_replayed: int


def summarize(outcomes: Sequence[Outcome]) -> Summary:
    counts = Counter(o.status for o in outcomes)
    times = [o.seconds for o in outcomes]
    return Summary(
        solved=counts["solved"],
        unsolvable=counts["unsolvable"],
        unknown=counts["unknown"],
        total_seconds=sum(times),
        median_seconds=percentile(times, 50),
        p99_seconds=percentile(times, 99),
        max_seconds=max(times),
        count=sum(o.count for o in outcomes),
        wins_replayed=sum(o.replay == "won" for o in outcomes),
        wins_not_replayed=sum(o.replay not in (None, "won") for o in outcomes),
    )


def format_seconds(seconds: float) -> str:
    if seconds < 1:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds:.2f} s"


def ratio(a: float, b: float) -> str:
    return f"{a / b:.1f}x" if b > 0 else "-"


def only_decided_by(rows: Sequence[DealRow], solver: str) -> list[int]:
    def decided(o: Outcome) -> bool:
        return o.status != "unknown"

    return [
        r.number
        for r in rows
        if decided(r.fcsolve if solver == "fc-solve" else r.castle)
        and not decided(r.castle if solver == "fc-solve" else r.fcsolve)
    ]


def both_decided(rows: Sequence[DealRow]) -> list[DealRow]:
    return [r for r in rows if r.fcsolve.status != "unknown" and r.castle.status != "unknown"]


def both_won(rows: Sequence[DealRow]) -> list[DealRow]:
    """Deals both solved with wins that replay (so both lengths are known)."""
    return [r for r in rows if r.fcsolve.replay == "won" and r.castle.replay == "won"]


def lengths(rows: Sequence[DealRow]) -> dict[str, Any]:
    """Moves of a win (single-card moves, foundation moves included) on the deals both won."""
    won = both_won(rows)
    fcs = [r.fcsolve.moves for r in won]
    cas = [r.castle.moves for r in won]
    return {
        "deals": len(won),
        "fc-solve_median": percentile(fcs, 50) if won else None,
        "castle_median": percentile(cas, 50) if won else None,
        "fc-solve_max": max(fcs, default=None),
        "castle_max": max(cas, default=None),
        "castle_shorter": sum(c < f for c, f in zip(cas, fcs)),
        "equal": sum(c == f for c, f in zip(cas, fcs)),
        "castle_longer": sum(c > f for c, f in zip(cas, fcs)),
    }


def describe(outcome: Outcome, unit: str) -> str:
    text = f"{outcome.status}, {outcome.count:,} {unit}, {format_seconds(outcome.seconds)}"
    if outcome.detail and outcome.detail not in FCS_VERDICTS:
        text += f" ({outcome.detail})"
    if outcome.replay is not None:
        text += f"; its {outcome.moves} moves replay: {outcome.replay}"
    return text


def report(
    variant: str,
    deals_text: str,
    rows: Sequence[DealRow],
    commands: dict[str, str],
    jobs: int,
    wall: float,
) -> str:
    fcs = summarize([r.fcsolve for r in rows])
    cas = summarize([r.castle for r in rows])
    out = [
        f"{NAMES[variant]} deals {deals_text}: {len(rows)} deals, {jobs} job(s), {wall:.1f} s wall",
        f"  fc-solve: {commands['fc-solve']}",
        f"  castle:   {commands['castle']}",
        "",
        f"{'solver':<9} {'solved':>7} {'unsolv.':>8} {'unknown':>8} {'total':>10} "
        f"{'median':>10} {'p99':>10} {'max':>10} {'iterations/states':>18}",
    ]
    for name, s in (("fc-solve", fcs), ("castle", cas)):
        out.append(
            f"{name:<9} {s.solved:>7} {s.unsolvable:>8} {s.unknown:>8} "
            f"{format_seconds(s.total_seconds):>10} {format_seconds(s.median_seconds):>10} "
            f"{format_seconds(s.p99_seconds):>10} {format_seconds(s.max_seconds):>10} "
            f"{s.count:>18,}"
        )
    out.append(
        f"time ratio fc-solve / castle: total {ratio(fcs.total_seconds, cas.total_seconds)}, "
        f"median {ratio(fcs.median_seconds, cas.median_seconds)}, "
        f"p99 {ratio(fcs.p99_seconds, cas.p99_seconds)}"
    )
    both = both_decided(rows)
    disagreements = [r for r in rows if r.disagreement]
    out.append(
        f"both decided: {len(both)} deals, {len(both) - len(disagreements)} agree, "
        f"{len(disagreements)} disagree"
    )
    if both:
        fcs_both = sum(r.fcsolve.seconds for r in both)
        cas_both = sum(r.castle.seconds for r in both)
        out.append(
            f"  time on those: fc-solve {format_seconds(fcs_both)}, castle "
            f"{format_seconds(cas_both)}, ratio {ratio(fcs_both, cas_both)}"
        )
    out.append(f"decided by fc-solve only: {only_decided_by(rows, 'fc-solve') or 'none'}")
    out.append(f"decided by castle only:   {only_decided_by(rows, 'castle') or 'none'}")
    neither = [
        r.number for r in rows if r.fcsolve.status == "unknown" and r.castle.status == "unknown"
    ]
    out.append(f"decided by neither:       {neither or 'none'}")
    out.append(
        f"won by fc-solve, castle over {SLOW:g} s: {slow_where_fcsolve_wins(rows) or 'none'}"
    )
    length = lengths(rows)
    if length["deals"]:
        out.append(
            f"moves of a win, on the {length['deals']} deals both won: median fc-solve "
            f"{length['fc-solve_median']}, castle {length['castle_median']}; max fc-solve "
            f"{length['fc-solve_max']}, castle {length['castle_max']}; castle shorter on "
            f"{length['castle_shorter']}, equal on {length['equal']}, longer on "
            f"{length['castle_longer']}"
        )
    if fcs.wins_replayed or fcs.wins_not_replayed:
        out.append(
            f"fc-solve's wins replayed through castle.reference: {fcs.wins_replayed} won, "
            f"{fcs.wins_not_replayed} failed"
        )
    out.append(
        f"castle's wins replayed through castle.reference: {cas.wins_replayed} won, "
        f"{cas.wins_not_replayed} failed"
    )
    for r in rows:
        if not (r.disagreement or r.castle_wrong or r.fcsolve.replay not in (None, "won")):
            continue
        verdict = "CASTLE IS WRONG" if r.castle_wrong else "fc-solve is wrong or incomplete"
        out += [
            "",
            f"deal {r.number}: {verdict}",
            f"  fc-solve: {describe(r.fcsolve, 'iterations')}",
            *(f"    | {line}" for line in r.fcsolve_output.splitlines()),
            f"  castle:   {describe(r.castle, 'states')}",
            "  board:",
            *(
                f"    {line}"
                for line in castle.Deal.from_number(variant, r.number).to_text().splitlines()
            ),
        ]
    return "\n".join(out)


#: The issue's rule: a deal fc-solve wins within its limit takes castle at most this long.
SLOW = 1.0


def slow_where_fcsolve_wins(rows: Sequence[DealRow]) -> list[int]:
    """The deals fc-solve won whose castle solve took more than :data:`SLOW` seconds."""
    return [r.number for r in rows if r.fcsolve.status == "solved" and r.castle.seconds > SLOW]


def to_json(
    variant: str,
    deals_text: str,
    rows: Sequence[DealRow],
    commands: dict[str, str],
    jobs: int,
    wall: float,
) -> dict[str, Any]:
    return {
        "variant": variant,
        "deals": deals_text,
        "jobs": jobs,
        "wall_seconds": round(wall, 3),
        "commands": commands,
        "summary": {
            "fc-solve": asdict(summarize([r.fcsolve for r in rows])),
            "castle": asdict(summarize([r.castle for r in rows])),
        },
        "both_decided": {
            "deals": len(both_decided(rows)),
            "fc-solve_seconds": sum(r.fcsolve.seconds for r in both_decided(rows)),
            "castle_seconds": sum(r.castle.seconds for r in both_decided(rows)),
        },
        "lengths": lengths(rows),
        "disagreements": [r.number for r in rows if r.disagreement],
        "fc-solve_won_castle_slow": slow_where_fcsolve_wins(rows),
        "castle_wrong": [r.number for r in rows if r.castle_wrong],
        "results": [
            {"deal": r.number, "fc-solve": asdict(r.fcsolve), "castle": asdict(r.castle)}
            for r in rows
        ],
    }


def positive_int(text: str) -> int:
    value = int(text.replace("_", "").replace(",", ""))
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {text}")
    return value


def positive_float(text: str) -> float:
    value = float(text)
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a positive number, not {text}")
    return value


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Compare castle's verdicts and times with fc-solve's on numbered deals.",
        epilog="Exit status: 0 no fault found in castle; 1 castle is wrong on some deal "
        "(fc-solve solved what castle calls unsolvable, or castle's win does not replay); "
        "2 bad arguments or fc-solve missing, failing or unreadable.",
    )
    parser.add_argument("--variant", choices=sorted(FCS_GAMES), default="beleaguered-castle")
    parser.add_argument("--deals", default="1-200", help="deal numbers: N, N-M or a list")
    parser.add_argument("--max-iters", type=positive_int, default=2_000_000, help="fc-solve's -mi")
    parser.add_argument(
        "--max-states",
        type=positive_int,
        default=5_000_000,
        help="castle's max_states (default 5,000,000)",
    )
    parser.add_argument(
        "--max-seconds",
        type=positive_float,
        help="castle's max_seconds, and a wall-clock limit on each fc-solve run (killed: unknown)",
    )
    parser.add_argument("--jobs", type=positive_int, default=1, help="deals at a time")
    parser.add_argument("--fc-solve", default="fc-solve", help="the fc-solve executable")
    parser.add_argument(
        "--no-replay",
        action="store_true",
        help="do not ask fc-solve for its moves (-m) nor replay them",
    )
    parser.add_argument(
        "--opt", action="store_true", help="fc-solve's -opt: it shortens its solution"
    )
    parser.add_argument(
        "--short", action="store_true", help="castle's short mode (castle.solve(short=True))"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object, per-deal rows")
    parser.add_argument(
        "--json-file", metavar="PATH", help="also write the JSON object to PATH (table printed)"
    )
    return parser.parse_args(argv)


def compare(
    variant: str,
    numbers: Sequence[int],
    *,
    max_iters: int,
    max_states: int | None,
    max_seconds: float | None = None,
    jobs: int = 1,
    exe: str = "fc-solve",
    replay: bool = True,
    opt: bool = False,
    short: bool = False,
) -> list[DealRow]:
    """Both solvers on each deal of ``numbers``; raises :class:`CompareError` if fc-solve
    cannot be run or read."""
    path = shutil.which(exe)
    if path is None:
        raise CompareError(f"{exe} not found on PATH (Debian: apt-get install freecell-solver-bin)")
    command = fcsolve_command(path, FCS_GAMES[variant], max_iters, replay, opt)

    def one(number: int) -> DealRow:
        deal = castle.Deal.from_number(variant, number)
        fcs, tail = run_fcsolve(command, deal, max_seconds, replay)
        return DealRow(number, fcs, run_castle(deal, max_states, max_seconds, short), tail)

    if jobs == 1:
        return [one(n) for n in numbers]
    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(one, numbers))


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        numbers = castle.parse_deal_range(args.deals)
    except ValueError as e:
        print(f"compare_fcsolve: {e}", file=sys.stderr)
        return 2
    replay = not args.no_replay
    game = FCS_GAMES[args.variant]
    limit = f", max_seconds={args.max_seconds:g}" if args.max_seconds else ""
    limit += ", short=True" if args.short else ""
    commands = {
        "fc-solve": " ".join(fcsolve_command(args.fc_solve, game, args.max_iters, replay, args.opt))
        + " < board",
        "castle": f"castle.solve(deal, max_states={args.max_states}{limit})",
    }
    start = time.perf_counter()
    try:
        rows = compare(
            args.variant,
            numbers,
            max_iters=args.max_iters,
            max_states=args.max_states,
            max_seconds=args.max_seconds,
            jobs=args.jobs,
            exe=args.fc_solve,
            replay=replay,
            opt=args.opt,
            short=args.short,
        )
    except CompareError as e:
        print(f"compare_fcsolve: {e}", file=sys.stderr)
        return 2
    wall = time.perf_counter() - start
    document = to_json(args.variant, args.deals, rows, commands, args.jobs, wall)
    if args.json_file:
        with open(args.json_file, "w") as f:
            json.dump(document, f, indent=1)
            f.write("\n")
    if args.json:
        print(json.dumps(document))
    else:
        print(report(args.variant, args.deals, rows, commands, args.jobs, wall))
    return 1 if any(r.castle_wrong for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
