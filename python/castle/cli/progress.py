"""The batch progress bar on stderr: done/total, deals per second, verdicts so far."""

from __future__ import annotations

from collections import Counter
from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from .output import STATUS_STYLES
from .report import DealResult


class RateColumn(ProgressColumn):
    """Deals per second over rich's recent window."""

    def render(self, task: Task) -> Text:
        speed = task.speed
        return Text("" if speed is None else f"{speed:,.1f} deals/s", style="cyan")


class TallyColumn(ProgressColumn):
    """Solved, unsolvable and unknown so far, each in its colour."""

    def __init__(self, counts: Counter[str]) -> None:
        super().__init__()
        self.counts = counts

    def render(self, task: Task) -> Text:
        parts = [(f"{self.counts[s]:,} {s}", style) for s, style in STATUS_STYLES.items()]
        text = Text()
        for i, (label, style) in enumerate(parts):
            if i:
                text.append(" ")
            text.append(label, style=style)
        return text


class BatchProgress:
    """A context manager; shows nothing unless ``enabled`` (a terminal that is free).

    A resumed run starts part way: ``done`` deals already answered, with verdicts ``counts``.
    """

    def __init__(
        self,
        console: Console,
        total: int,
        description: str,
        enabled: bool,
        *,
        done: int = 0,
        counts: Counter[str] | None = None,
    ) -> None:
        self.counts: Counter[str] = Counter(counts or {})
        # No stdout/stderr redirection: rich would route stdout (JSON lines) to the
        # progress console, which is stderr.
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            RateColumn(),
            TallyColumn(self.counts),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            console=console,
            transient=True,
            disable=not enabled,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self._task = self._progress.add_task(description, total=total, completed=done)

    def __enter__(self) -> BatchProgress:
        self._progress.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._progress.stop()

    def advance(self, result: DealResult) -> None:
        self.counts[result.status] += 1
        self._progress.advance(self._task)
