"""Fuzzing what people type: board text and the line mode's commands.

Whatever the input, castle answers with one of its documented exceptions (``castle.CastleError``,
all ``ValueError`` subclasses) in the API, and with one line on standard error and exit 2 (the
line mode: a refusal, and it goes on) on the command line: never another exception, never a
traceback. Seeded, and each test tries a fixed number of inputs: the same inputs and the same
checks on any machine, however busy (as many as a quiet one tried in a few seconds).
The save files are fuzzed in ``tests/fuzz/test_saves.py``.
"""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import castle
import pytest
from castle import Deal, SaveStore, SpiderDeal
from castle.cli import output, plain
from castle.game.new_game import AnyGame, new_game

#: Mutated board texts each parser is given (about 3 s on a quiet machine).
BOARD_TEXTS = 35_000

#: Rounds of mutated cards, numbers and deal ranges (about 1 s on a quiet machine).
CARD_ROUNDS = 4_500

#: Batches of command lines fed to the line mode (1 to 60 lines each, sometimes a quit): about
#: 3 s of the castle line mode and of Spider's, whose moves (and hints) take longer.
CASTLE_BATCHES = 320
SPIDER_BATCHES = 120

#: Characters that are not what a board or a command is written with.
UNICODE_JUNK = [
    "²",  # a digit to str.isdigit, not to int()
    "\u0661",  # Arabic-Indic one: int() reads it
    "\uff11",  # full-width one: int() reads it
    "߁",  # NKo one
    "\U0001d7d9",  # mathematical double-struck one
    "Ⅻ",  # a numeral, not a digit
    "½",
    "\u00a0",  # no-break space: whitespace to Python
    "\u2028",  # line separator: a line break to str.splitlines, not to the core
    "\u200b",  # zero-width space: not whitespace
    "\ufeff",  # byte-order mark
    "\u202e",  # right-to-left override
    "é",
    "ß",
    "Ω",
    "🂡",  # the ace of spades, as a playing card character
    "♠",
    "♥",
    "🃏",
    "\x00",
    "\x1b[31m",
    "\x7f",
    "\t",
    "\r",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x85",
    "\udcff",  # a lone surrogate: what Python makes of the byte 0xFF
    "\ud800",
]

HUGE_NUMBERS = ["9" * 20, "18446744073709551616", "9" * 400, "9" * 5000, "-1", "0", "1e400"]

CARDISH = ["AH", "10H", "1H", "TD", "KS", "QC", "ah", "0S", "14D", "XH", "A", "H", "AHH", "JX"]

SPIDER_LINES = ["Stock:", "stock: KS QS", "Off: S", "off:", "## ## |", "| KS", "|", ":", "## KS"]

CASTLE_LINES = ["Foundations: H-A C-A D-A S-A", "Foundations:", "Freecells: -", "Freecells: KS"]


def junk_piece(rng: random.Random) -> str:
    """A short piece of text of any kind, to write into an input."""
    kind = rng.randrange(8)
    if kind == 0:
        return rng.choice(UNICODE_JUNK)
    if kind == 1:
        return rng.choice(HUGE_NUMBERS)
    if kind == 2:
        return rng.choice(CARDISH)
    if kind == 3:
        return chr(rng.randrange(32, 127))
    if kind == 4:
        return str(rng.randrange(-3, 14))
    if kind == 5:
        return rng.choice(" \n|:#-")
    if kind == 6:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4))).decode(
            "utf-8", "surrogateescape"
        )
    return chr(rng.choice([rng.randrange(0x80, 0x800), rng.randrange(0x800, 0x10FFFF)]))


def mutate(rng: random.Random, text: str) -> str:
    """``text`` after one to four random edits: characters changed, inserted or deleted,
    lines swapped, doubled, dropped or added, tokens replaced, a very long line..."""
    for _ in range(rng.randint(1, 4)):
        lines = text.split("\n")
        op = rng.randrange(11)
        at = rng.randrange(len(text) + 1)
        if op == 0 and text:  # change a character
            at = min(at, len(text) - 1)
            text = text[:at] + junk_piece(rng) + text[at + 1 :]
        elif op == 1:  # insert
            text = text[:at] + junk_piece(rng) + text[at:]
        elif op == 2:  # delete a span
            text = text[:at] + text[at + rng.randint(1, 6) :]
        elif op == 3 and len(lines) > 1:  # swap two lines
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        elif op == 4:  # double or drop a line
            i = rng.randrange(len(lines))
            if rng.random() < 0.5:
                lines.insert(i, lines[i])
            else:
                del lines[i]
            text = "\n".join(lines)
        elif op == 5:  # a line of another layout, or of junk
            extra = rng.choice(SPIDER_LINES + CASTLE_LINES + [junk_piece(rng) * 3])
            lines.insert(rng.randrange(len(lines) + 1), extra)
            text = "\n".join(lines)
        elif op == 6:  # replace a token
            i = rng.randrange(len(lines))
            tokens = lines[i].split(" ")
            tokens[rng.randrange(len(tokens))] = junk_piece(rng)
            lines[i] = " ".join(tokens)
            text = "\n".join(lines)
        elif op == 7:  # a very long line
            lines.insert(rng.randrange(len(lines) + 1), " ".join([rng.choice(CARDISH)] * 3000))
            text = "\n".join(lines)
        elif op == 8:  # other line ends
            text = text.replace("\n", rng.choice(["\r\n", "\r", "\u2028", "\n\n", ""]))
        elif op == 9:  # case
            text = text.swapcase() if rng.random() < 0.5 else text.lower()
        else:  # a byte-order mark, or a comment
            text = rng.choice(["\ufeff", "# a comment\n", "#\udcff\n"]) + text
    return text


def valid_castle_texts() -> list[str]:
    texts = [Deal.from_number(v, n).to_text() for v in castle.VARIANTS for n in (1, 2, 67)]
    game = castle.Game(Deal.from_number("streets-and-alleys", 17))
    for move in castle.solve(game.deal).moves[:30]:  # foundations and an empty column or so
        game.move(move.src, move.dst)
    return [*texts, game.position.to_text()]


def valid_spider_texts() -> list[str]:
    texts = [SpiderDeal.from_number(v, n).to_text() for v in castle.SPIDER_VARIANTS for n in (1, 2)]
    game = castle.SpiderGame(SpiderDeal.from_number("spider-1", 1))
    game.deal_row()
    return [*texts, game.position.to_text()]


def documented(error: BaseException) -> bool:
    return isinstance(error, castle.CastleError) and isinstance(error, ValueError)


def fuzz_parser(
    seed: int,
    texts: list[str],
    parse: Callable[[str, str | None], Deal | SpiderDeal],
    variants: tuple[str, ...],
) -> int:
    """Parse :data:`BOARD_TEXTS` mutated ``texts``; every failure must be documented and every
    success must give a position whose text reads back the same. Returns how many parsed."""
    rng = random.Random(seed)
    parsed = 0
    for _ in range(BOARD_TEXTS):
        text = mutate(rng, rng.choice(texts))
        variant = rng.choice([None, None, *variants, "nope", "SPIDER", ""])
        try:
            deal = parse(text, variant)
        except Exception as e:
            assert documented(e), (text, variant, e)
            if isinstance(e, castle.BoardError):
                str(e).encode("utf-8")  # printable, whatever the text held
                assert e.token is None or isinstance(e.token, str)
                assert e.line is None or 1 <= e.line <= text.count("\n") + 1
        else:
            parsed += 1
            assert parse(deal.to_text(), deal.variant) == deal
    return parsed


def test_fuzzed_castle_board_text() -> None:
    assert fuzz_parser(1, valid_castle_texts(), Deal.from_text, castle.VARIANTS) > 0


def test_fuzzed_spider_board_text() -> None:
    texts = valid_spider_texts()
    assert fuzz_parser(2, texts, SpiderDeal.from_text, castle.SPIDER_VARIANTS) > 0


def test_fuzzed_cards_and_deal_numbers() -> None:
    rng = random.Random(3)
    numbers: list[Any] = [0, -1, 1, 52, 2**63 - 1, 2**63, 2**64, -(2**64), 10**400, 10**5000]
    numbers += [True, False, 1.0, float("nan"), float("inf"), None, "1", b"1", [1]]
    calls: list[Callable[[Any], object]] = [
        castle.Card.from_index,
        lambda n: castle.Card(n, "S"),
        lambda n: castle.Card(1, n),
        lambda n: Deal.from_number(rng.choice(castle.VARIANTS), n),
        lambda n: SpiderDeal.from_number(rng.choice(castle.SPIDER_VARIANTS), n),
    ]
    ranges = ["1", "52", "1-10", "1-3,2-4", "7,1-2", *HUGE_NUMBERS]
    for _ in range(CARD_ROUNDS):
        value: Any = rng.choice(numbers) if rng.random() < 0.5 else rng.randrange(-99, 2**65)
        if rng.random() < 0.2:
            value = mutate(rng, rng.choice(ranges))
        text = mutate(rng, rng.choice(ranges))
        try:
            castle.parse_deal_range(text)
        except Exception as e:
            assert documented(e), (text, e)
        for call in calls:
            try:
                call(value)
            except TypeError:  # a list where a number goes: the caller's bug, not input
                assert not isinstance(value, (int, float, str))
            except Exception as e:
                assert documented(e), (value, e)
        token = mutate(rng, rng.choice(CARDISH))
        try:
            castle.Card.parse(token)
        except Exception as e:
            assert documented(e), (token, e)


def test_fuzzed_board_text_through_castle_solve(tmp_path: Path) -> None:
    rng = random.Random(4)
    castle_texts, spider_texts = valid_castle_texts(), valid_spider_texts()
    board = tmp_path / "board.txt"
    for i in range(6):
        text = mutate(rng, rng.choice(spider_texts if i % 2 else castle_texts))
        data = text.encode("utf-8", "surrogateescape" if i < 4 else "surrogatepass")
        if i == 5:
            data = b"\xef\xbb\xbf" + data  # a byte-order mark, as some editors write
        board.write_bytes(data)
        from_stdin = castle_solve(["-", "--max-states", "1000"], data)
        from_file = castle_solve([str(board), "--max-states", "1000"], b"")
        for done in (from_stdin, from_file):
            assert done.returncode in (0, 2), done.stderr
            assert b"Traceback" not in done.stderr
            if done.returncode == 2:
                assert done.stderr.count(b"\n") == 1 and done.stderr.startswith(b"castle: error: ")
        # stdin is read as a file is: the same verdict, the same words after the name
        assert from_stdin.returncode == from_file.returncode
        assert from_stdin.stderr.replace(b"stdin", str(board).encode()) == from_file.stderr


def castle_solve(args: list[str], data: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "castle", "solve", *args],
        input=data,
        capture_output=True,
        timeout=120,
        env={**os.environ, "NO_COLOR": "1"},
    )


# --- the line mode's commands ------------------------------------------------------------------

#: Words of the line mode's commands, and what is near them.
COMMAND_WORDS = ["u", "r", "n", "y", "no", "s", "?", "help", "f", "F", "o", "d", "D", "x", "qq"]


def command_line(rng: random.Random) -> str:
    """One line a person (or a cat on the keyboard) might type."""
    kind = rng.randrange(10)
    if kind == 0:
        return ""
    if kind == 1:
        return rng.choice([" ", "\t", "\r", "\x0c", "\u2028", "\x00"])
    if kind == 2:  # a very long line
        return rng.choice(["1 ", "x", "²", "9"]) * rng.randrange(1000, 20000)
    words = []
    for _ in range(rng.choice([1, 1, 2, 2, 2, 3, 3, 4, 7])):
        pick = rng.randrange(6)
        if pick < 2:
            words.append(str(rng.randrange(0, 12)))
        elif pick == 2:
            words.append(rng.choice(COMMAND_WORDS))
        elif pick == 3:
            words.append(rng.choice(UNICODE_JUNK + HUGE_NUMBERS))
        elif pick == 4:
            words.append(junk_piece(rng))
        else:
            words.append(str(rng.randrange(0, 12)) + junk_piece(rng))
    return rng.choice([" ", "  ", "\t"]).join(words)


def command_lines(rng: random.Random, count: int) -> Iterator[str]:
    """``count`` lines, each ending in a newline, as standard input gives them; a hint (which
    searches: a fraction of a second) at most once."""
    hinted = False
    for _ in range(count):
        line = command_line(rng)
        if rng.random() < 0.03 and not hinted:
            line, hinted = rng.choice(["h", "p", "H"]), True
        yield line + "\n"


def play_fuzzed(
    seed: int, level: str, batches: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> int:
    """Feed ``batches`` batches of random command lines to the line mode; return the most
    moves a game reached."""
    rng = random.Random(seed)
    store = SaveStore(tmp_path)
    game: AnyGame = new_game(level, store, 1)
    moves = 0
    for _ in range(batches):
        lines = list(command_lines(rng, rng.randrange(1, 60)))
        if rng.random() < 0.2:
            lines.append(rng.choice(["q\n", "quit\n", "Q\n"]))
        stdout, stderr = io.StringIO(), io.StringIO()
        with monkeypatch.context() as streams:  # the consoles of castle play, on these
            streams.setattr(sys, "stdout", stdout)
            streams.setattr(sys, "stderr", stderr)
            out, errors = output.make_console(), output.make_console(stderr=True)
        # A new deal (the n command) from the seed too, so that a run can be repeated.
        game = plain.play_lines(
            game, store, io.StringIO("".join(lines)), out, errors=errors, rng=rng
        )
        text = stdout.getvalue()
        text.encode("utf-8")  # nothing unprintable echoed back (a lone surrogate, say)
        assert "Traceback" not in text
        moves = max(moves, game.moves)
    return moves


def test_fuzzed_commands_in_the_castle_line_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert play_fuzzed(5, "medium", CASTLE_BATCHES, tmp_path, monkeypatch) > 0


def test_fuzzed_commands_in_the_spider_line_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert play_fuzzed(6, "spider-1", SPIDER_BATCHES, tmp_path, monkeypatch) > 0


@pytest.mark.parametrize(
    ("variant", "encoding"),
    # utf-8:strict: as under a UTF-8 locale (Python reads stdin with surrogateescape under C)
    [("citadel", "utf-8:strict"), ("spider-2", "utf-8:strict"), ("citadel", "ascii")],
)
def test_fuzzed_commands_through_castle_play(tmp_path: Path, variant: str, encoding: str) -> None:
    rng = random.Random(7)
    lines = [line for line in command_lines(rng, 300) if line.strip() not in ("h", "p", "H")]
    data = "".join(lines).encode("utf-8", "surrogatepass") + b"\xff\xfe 1 \xc3\n"
    done = subprocess.run(
        [sys.executable, "-m", "castle", "play", "--plain", "--variant", variant, "--deal", "3"],
        input=data,
        capture_output=True,
        timeout=120,
        env={
            **os.environ,
            "CASTLE_DATA_DIR": str(tmp_path),
            "NO_COLOR": "1",
            "PYTHONIOENCODING": encoding,
        },
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    assert b"not done: " in done.stdout and b"saved" in done.stdout


# --- save files --------------------------------------------------------------------------------
# The save files (game.json, statistics.json) are fuzzed in tests/fuzz/test_saves.py.
