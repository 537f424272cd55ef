"""The CLI's rich progress bar for long GitHub work (implements
bot.github.source.SyncProgress); the pipelines take it as a plain `ProgressFactory`
(bot.services), so nothing below the adapters names rich."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)


class SyncProgress:
    """Pages, PRs and file pages of one sync, on stderr; silent when stderr is not a terminal."""

    def __init__(self, console: Console, label: str) -> None:
        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("PRs · {task.fields[pages]} pages · {task.fields[file_pages]} file pages"),
            TimeElapsedColumn(),
            console=console,
            transient=True,
            disable=not console.is_terminal,
        )
        self._label = label
        self._task: TaskID | None = None
        self._pages = 0
        self._file_pages = 0

    def __enter__(self) -> SyncProgress:
        self._progress.start()
        self._task = self._progress.add_task(self._label, total=None, pages=0, file_pages=0)
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()

    def _update(self, *, total: float | None = None, advance: float | None = None) -> None:
        if self._task is not None:
            self._progress.update(
                self._task,
                total=total,
                advance=advance,
                pages=self._pages,
                file_pages=self._file_pages,
            )

    def on_total(self, prs: int) -> None:
        self._update(total=prs)

    def on_page(self) -> None:
        self._pages += 1
        self._update()

    def on_prs(self, n: int) -> None:
        self._update(advance=n)

    def on_file_page(self) -> None:
        self._file_pages += 1
        self._update()


def progress_bars(console: Console) -> Callable[[str], SyncProgress]:
    """A `bot.services.ProgressFactory`: one bar on `console` per labelled piece of work."""
    return lambda label: SyncProgress(console, label)
