"""The progress displays of batches on stderr: a bar with done/total and the times; below it
the verdicts so far and deals per second (:class:`BatchProgress`), or beside it the games won
and the rate (:class:`PlayProgress`, ``castle autoplay``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from types import TracebackType
from typing import Any, TypeVar

from rich.console import Console, RenderableType
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
from rich.table import Column
from rich.text import Text

from .output import STATUS_STYLES, format_percent, format_rate
from .report import DealResult


def tally_line(counts: Counter[str], speed: float | None) -> Text:
    """``  12,000 solved  300 unsolvable  45 unknown  (123.4 deals/s)``: the verdicts so far,
    each in its colour, and the rate over rich's recent window; cut short rather than wrapped."""
    text = Text("  ", no_wrap=True, overflow="ellipsis")
    for i, (status, style) in enumerate(STATUS_STYLES.items()):
        if i:
            text.append("  ")
        text.append(f"{counts[status]:,} {status}", style=style)
    if speed is not None:
        text.append(f"  ({speed:,.1f} deals/s)", style="cyan")
    return text


class _TwoLineProgress(Progress):
    """A progress display of two lines, so that it fits 80 columns: the bar with the count and
    the times, then the verdicts so far and the rate (:func:`tally_line`)."""

    def __init__(
        self, *columns: str | ProgressColumn, counts: Counter[str], **options: Any
    ) -> None:
        super().__init__(*columns, **options)
        self._counts = counts

    def get_renderables(self) -> Iterable[RenderableType]:
        yield self.make_tasks_table(self.tasks)
        for task in self.tasks:
            yield tally_line(self._counts, task.speed)


_D = TypeVar("_D", bound="_Display")


def _on_console(console: Console, enabled: bool) -> dict[str, Any]:
    """rich's options of both displays: on ``console``, shown only if ``enabled``, gone when
    done."""
    # No stdout/stderr redirection: rich would route stdout (JSON lines) to the progress
    # console, which is stderr.
    return {
        "console": console,
        "transient": True,
        "disable": not enabled,
        "redirect_stdout": False,
        "redirect_stderr": False,
    }


class _Display:
    """A display of one task of ``total`` steps, ``done`` of them done already; shown inside
    ``with``. Extra ``fields`` go to the task, for the columns that show them."""

    def __init__(
        self, progress: Progress, description: str, total: int, done: int, **fields: Any
    ) -> None:
        self._progress = progress
        self._task = progress.add_task(description, total=total, completed=done, **fields)

    def __enter__(self: _D) -> _D:
        self._progress.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._progress.stop()

    def renderables(self) -> Iterable[RenderableType]:
        """What the display shows now, for a test to measure."""
        return self._progress.get_renderables()


class BatchProgress(_Display):
    """A context manager; shows nothing unless ``enabled`` (a terminal that is free). Its
    :meth:`renderables` are two lines.

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
        progress = _TwoLineProgress(
            TextColumn("{task.description}", table_column=Column(no_wrap=True)),
            BarColumn(),  # 40 wide, narrower when the line would not fit
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            counts=self.counts,
            **_on_console(console, enabled),
        )
        super().__init__(progress, description, total, done)

    def advance(self, result: DealResult) -> None:
        self.counts[result.status] += 1
        self._progress.advance(self._task)


class _RateColumn(ProgressColumn):
    """Deals per second over rich's recent window, or seconds a deal when slower."""

    def render(self, task: Task) -> Text:
        speed = task.speed
        return Text(format_rate(speed) if speed else "", style="cyan")


class PlayProgress(_Display):
    """The progress display of ``castle autoplay``: the bar with done/total, the games won
    and their share, the times and the rate. A context manager; shows nothing unless
    ``enabled`` (a terminal that is free). A resumed run starts part way: ``done`` deals
    already played, ``won`` of them won."""

    def __init__(
        self,
        console: Console,
        total: int,
        description: str,
        enabled: bool,
        *,
        done: int = 0,
        won: int = 0,
    ) -> None:
        self.done = done
        self.won = won
        progress = Progress(
            TextColumn("{task.description}", table_column=Column(no_wrap=True)),
            BarColumn(bar_width=24),
            MofNCompleteColumn(),
            TextColumn("{task.fields[won]}"),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            _RateColumn(),
            **_on_console(console, enabled),
        )
        super().__init__(progress, description, total, done, won=self._won_text())

    def _won_text(self) -> str:
        share = f" ({format_percent(self.won / self.done)})" if self.done else ""
        return f"{self.won:,} won{share}"

    def advance(self, won: bool) -> None:
        self.done += 1
        self.won += won
        self._progress.update(self._task, advance=1, won=self._won_text())
