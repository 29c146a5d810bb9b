"""Fuzzing the save files: whatever game.json or statistics.json holds, a start never crashes.
A file castle cannot use is moved aside whole (never lost) with one notice, and a game it can
use plays on. Seeded, and a fixed number of mutations each: the same on any machine, however
busy (as many as a quiet one tried in a few seconds)."""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import castle
from castle import Deal, Game, SaveStore, SpiderDeal, SpiderGame

#: Mutated files each fuzz test tries (about 4 s on a quiet machine).
MUTATIONS = 7_000

JUNK: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    7,
    13,
    255,
    256,
    32767,
    32768,
    2**31,
    2**63,
    2**64,
    -(2**64),
    10**400,
    0.5,
    -0.0,
    1e308,
    math.inf,
    -math.inf,
    math.nan,
    "",
    "x",
    "run",
    "deal",
    "off",
    "foundation",
    "\udcff",
    "é" * 3,
    [],
    [[]],
    [1, 2, 3],
    ["run", 0, 1, 1],
    {},
    {"format": "castle-game"},
]


def castle_save() -> dict[str, Any]:
    game = Game(Deal.from_number("beleaguered-castle", 2))
    for move in castle.solve(game.position).moves[:8]:
        game.move(move.src, move.dst)
    game.undo()
    game.undo()
    return game.to_save()


def spider_save() -> dict[str, Any]:
    game = SpiderGame(SpiderDeal.from_number("spider-2", 3))
    for _ in range(6):
        _, src, dst, count = next(m for m in game.position.core.legal_moves() if m[0] == "run")
        game.move(src, dst, count)
    game.undo()
    game.undo()
    return game.to_save()


def mutate(value: Any, rng: random.Random, depth: int = 0) -> Any:
    """``value`` with one random change somewhere inside it."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(list(value))
        out = dict(value)
        roll = rng.random()
        if roll < 0.15:
            del out[key]
        elif roll < 0.2:
            out[rng.choice(["extra", "", key + "x"])] = rng.choice(JUNK)
        else:
            out[key] = mutate(value[key], rng, depth + 1)
        return out
    if isinstance(value, list) and value and rng.random() < 0.8:
        out_list = list(value)
        i = rng.randrange(len(out_list))
        roll = rng.random()
        if roll < 0.1:
            del out_list[i]
        elif roll < 0.2:
            out_list.insert(i, rng.choice(JUNK))
        elif roll < 0.25:
            out_list.reverse()
        else:
            out_list[i] = mutate(out_list[i], rng, depth + 1)
        return out_list
    if isinstance(value, int) and not isinstance(value, bool) and rng.random() < 0.5:
        return value + rng.choice([-1, 1, 8, 13, 2**16, -(2**16)])
    if isinstance(value, str) and value and rng.random() < 0.5:
        i = rng.randrange(len(value))
        return value[:i] + rng.choice(["", "X", "\n", ":", "9", "AH ", "\udcff"]) + value[i + 1 :]
    return rng.choice(JUNK)


def mutated_texts(rng: random.Random, save: dict[str, Any]) -> Iterator[str]:
    """An endless run of damaged save texts: changed values, broken JSON, deep nesting."""
    while True:
        roll = rng.random()
        data = save
        for _ in range(rng.randint(1, 3)):
            data = mutate(data, rng)
        text = json.dumps(data)
        if roll < 0.1:
            text = text[: rng.randrange(len(text))]
        elif roll < 0.2:
            i = rng.randrange(len(text))
            text = text[:i] + rng.choice('[]{}",:0 \\x\x00') + text[i + 1 :]
        elif roll < 0.23:
            depth = rng.choice([100, 1_000, 100_000])
            text = "[" * depth + "]" * depth
        yield text


def check_store(tmp_path: Path, name: str, text: str) -> bool:
    """Whatever ``name`` holds, the store reads it without an exception; a file it cannot use
    is moved aside whole with one notice, and a game it can use plays on. Returns whether the
    store used the file."""
    for old in tmp_path.glob("*"):
        old.unlink()
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    store = SaveStore(tmp_path)
    if name == SaveStore.GAME:
        game = castle.Game.resume(store, paused=True)
        if game is not None:
            assert not store.notices
            reloaded = json.loads(json.dumps(game.to_save()))
            assert type(game).from_save(reloaded).to_save() == game.to_save()
            for action in (game.undo, game.redo, game.redo):
                with contextlib.suppress(castle.IllegalMoveError):
                    action()
            return True
    else:
        store.statistics()
        store.settings()
        if path.exists():
            assert not store.notices
            store.record_result("easy", won=True)
            return True
    assert len(store.notices) == 1 and "was not usable" in store.notices[0], store.notices
    (aside,) = tmp_path.glob(f"{name}.corrupt-*")
    assert aside.read_bytes() == text.encode("utf-8", "surrogatepass")  # whole, never lost
    return False


def fuzz(tmp_path: Path, seed: int, name: str, save: dict[str, Any]) -> set[bool]:
    """Check the store on :data:`MUTATIONS` mutations of ``save`` written as file ``name``;
    returns whether files were used (True), set aside (False), or both."""
    rng = random.Random(seed)
    used = set()
    for text in itertools.islice(mutated_texts(rng, save), MUTATIONS):
        try:
            used.add(check_store(tmp_path, name, text))
        except AssertionError:
            raise
        except Exception as e:
            raise AssertionError(f"{type(e).__name__}: {e} on {text[:300]!r}") from e
    return used


def test_fuzzed_castle_saves(tmp_path: Path) -> None:
    assert fuzz(tmp_path, 1, SaveStore.GAME, castle_save()) == {True, False}


def test_fuzzed_spider_saves(tmp_path: Path) -> None:
    assert fuzz(tmp_path, 2, SaveStore.GAME, spider_save()) == {True, False}


def test_fuzzed_statistics(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    store.record_result("easy", won=True)
    store.record_result("spider-2", won=False)
    statistics = json.loads(store.statistics_path.read_text())
    assert fuzz(tmp_path, 3, SaveStore.STATISTICS, statistics) == {True, False}


def test_fuzzed_saves_through_castle_play(tmp_path: Path) -> None:
    # A few of them as a player meets them: castle play starts, says one line, plays on.
    rng = random.Random(4)
    texts = mutated_texts(rng, spider_save())
    for _ in range(4):
        for old in tmp_path.glob("*"):
            old.unlink()
        (tmp_path / "game.json").write_text(next(texts), errors="surrogatepass")
        done = subprocess.run(
            [sys.executable, "-m", "castle", "play", "--plain", "--data-dir", str(tmp_path)],
            input="h\nq\n",
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
        assert done.stderr.count("\n") <= 1, done.stderr
