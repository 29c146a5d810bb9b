"""What the engines of a batch share: the work (:class:`Work`; :class:`Job` solves deals),
how it is cut into chunks and handed out (:class:`Chunking`, :class:`ChunkFeed`, with
:class:`Claims` when runs share deals), and the :class:`Engine` interface of workers
elsewhere.

:func:`castle.cli.batch.run_batch` runs a batch on this machine's processes, or on an
engine that :mod:`castle.cli.cluster` (Dask) connects to; both build on this module and
neither on the other.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from typing import Protocol, TypeVar

from ..family import AnyDeal, AnySolution, family_of
from ..solving.outcome import ProgressCallback
from ..solving.settings import SolveSettings
from .output import format_size, json_line, plain_number
from .report import DealResult

#: Seconds between looks at the deals other runs hold, once only those are left.
CLAIM_POLL_SECONDS = 0.25


class Timed(Protocol):
    """A deal's result as a worker reports it: what the chunking needs of it."""

    @property
    def number(self) -> int: ...

    @property
    def seconds(self) -> float:
        """The deal's time, toward the mean that sizes the chunks."""
        ...


#: A batch's result per deal.
R = TypeVar("R", bound=Timed)


class Work(Protocol[R]):
    """What a batch does with each deal: sent to the workers (so picklable, and importable
    there), which call :meth:`run_chunk`. :class:`Job` solves deals;
    :class:`castle.cli.autoplay_player.Autoplayer` plays them."""

    def run_chunk(self, start: int, numbers: Sequence[int]) -> list[R]:
        """The results of deals ``numbers`` (positions ``start``... of the batch), in order."""
        ...


@dataclass(frozen=True)
class Job:
    """What every deal of a batch to solve shares (sent to the workers): a :class:`Work`."""

    variant: str
    #: Each deal's limits and options (no progress or cancel: a worker's deals report none).
    settings: SolveSettings
    json: bool = False

    def solve(self, deal: AnyDeal, progress: ProgressCallback | None = None) -> AnySolution:
        # What a family's solver does not offer, the command refused before the job was made.
        return family_of(deal.variant).solve(deal, replace(self.settings, progress=progress))

    def describe_limits(self) -> str:
        s = self.settings
        parts = []
        if s.max_states is not None:
            parts.append(f"{s.max_states:,} states")
        if s.max_seconds is not None:
            parts.append(f"{plain_number(s.max_seconds)} s")
        if s.max_cpu_seconds is not None:
            parts.append(f"{plain_number(s.max_cpu_seconds)} s of CPU")
        parts.append(f"{format_size(s.max_memory)} of memory")
        if s.spill_dir is not None:
            disk = "" if s.max_disk is None else f"{format_size(s.max_disk)} of "
            parts.append(f"{disk}disk in {s.spill_dir}")
        return ", ".join(parts)

    def run_chunk(self, start: int, numbers: Sequence[int]) -> list[DealResult]:
        """Solve deals ``numbers`` (positions ``start``... of the batch); runs in a worker."""
        results = []
        for offset, number in enumerate(numbers):
            deal = numbered_deal(self.variant, number)
            solution = self.solve(deal)
            results.append(
                DealResult(
                    position=start + offset,
                    number=number,
                    status=solution.status,
                    states=solution.states,
                    seconds=solution.seconds,
                    moves=len(solution.moves),
                    limit=solution.limit,
                    json=json_line(deal, solution) if self.json else None,
                )
            )
        return results


def numbered_deal(variant: str, number: int) -> AnyDeal:
    """Deal ``number`` of any variant, castle or Spider."""
    return family_of(variant).deal(variant, number)


@dataclass(frozen=True)
class Chunking:
    """How a batch is cut into tasks for workers: quick deals travel together, to save round
    trips, in chunks of about ``seconds`` of solving at the mean time so far (one deal each
    until timings exist) and at most ``most`` deals; ``in_flight`` chunks per worker keep
    each busy, and near the end chunks shrink so that no worker idles."""

    seconds: float
    most: int
    in_flight: int = 4

    def size(self, mean_seconds: float | None, remaining: int, workers: int) -> int:
        """Deals in the next chunk, with ``remaining`` deals left for ``workers``."""
        if mean_seconds is None:
            return 1
        size = self.most if mean_seconds <= 0 else int(self.seconds / mean_seconds)
        fair = math.ceil(remaining / (workers * self.in_flight))
        return max(1, min(size, self.most, fair))


class Claims(Protocol):
    """Deals shared with other runs at the same time (a survey's claims on its file)."""

    def claim(self, deals: Sequence[int]) -> tuple[list[int], list[int]]:
        """Of ``deals``: those this run is to solve now, and those another run is solving;
        the rest are done already."""
        ...


class ChunkFeed:
    """The deals of a batch, handed out in chunks as workers have room: every engine's
    bookkeeping (where the batch is, the mean time so far), so each only sends and receives.

    With ``claims``, each chunk is claimed before it goes and shrinks to the deals this run
    got; those another run holds are offered again every :data:`CLAIM_POLL_SECONDS` once
    the rest is sent, until they are done or this run gets them (their run died). The
    positions of such chunks are not the deals' places in the batch.
    """

    def __init__(
        self, numbers: Sequence[int], chunking: Chunking, claims: Claims | None = None
    ) -> None:
        self._numbers = numbers if claims is None else list(numbers)
        self._chunking = chunking
        self._claims = claims
        self._held: list[int] = []
        self._held_at = 0.0
        self._position = 0
        self._solved = 0
        self._seconds = 0.0

    @property
    def all_sent(self) -> bool:
        return self._position >= len(self._numbers) and not self._held

    @property
    def waiting(self) -> bool:
        """Only deals that other runs hold are left to send."""
        return self._position >= len(self._numbers) and bool(self._held)

    def more(self, in_flight: int, workers: int) -> Iterator[tuple[int, Sequence[int]]]:
        """``(start, deals)`` chunks to send now, with ``in_flight`` chunks out on
        ``workers``: until each worker has its share in flight or the batch is all sent
        (or, with claims, what is left is held elsewhere)."""
        numbers = self._numbers
        while in_flight < workers * self._chunking.in_flight:
            if self._position >= len(numbers) and not self._offer_held_again():
                return
            mean = self._seconds / self._solved if self._solved else None
            size = self._chunking.size(mean, len(numbers) - self._position, workers)
            start = self._position
            self._position += size
            chunk = numbers[start : start + size]
            if self._claims is not None:
                chunk, held = self._claims.claim(chunk)
                if held:
                    self._held.extend(held)
                    self._held_at = time.monotonic()
                if not chunk:
                    continue
            in_flight += 1
            yield start, chunk

    def _offer_held_again(self) -> bool:
        if not self._held or time.monotonic() - self._held_at < CLAIM_POLL_SECONDS:
            return False
        assert isinstance(self._numbers, list)
        self._numbers.extend(self._held)
        self._held.clear()
        return True

    def timed(self, result: Timed) -> None:
        """Count a finished deal's time toward the mean."""
        self._solved += 1
        self._seconds += result.seconds


class BatchFailure(Exception):
    """The workers of a batch are gone (a cluster's scheduler lost, say): the batch ends
    with what finished, and the message as its ``failure``."""


class Engine(Protocol):
    """Workers elsewhere that run a batch's chunks (a Dask cluster: see
    :mod:`castle.cli.cluster`); the command that connects to one hands it to
    :func:`castle.cli.batch.run_batch`."""

    @property
    def description(self) -> str:
        """Where the work goes, for the summary: ``Dask tcp://...``, say."""
        ...

    @property
    def threads_seen(self) -> int:
        """Worker threads when last asked (known once workers have joined)."""
        ...

    def run(
        self,
        work: Work[R],
        numbers: Sequence[int],
        on_result: Callable[[R], None],
        held: Callable[[], AbstractContextManager[None]],
        claims: Claims | None = None,
    ) -> str | None:
        """Run ``work`` on ``numbers``, passing each result to ``on_result`` (calls that must
        not be interrupted made inside ``held()``); the batch's failure, if any, as words."""
        ...
