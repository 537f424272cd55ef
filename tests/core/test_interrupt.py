"""Ctrl-C (SIGINT) at any moment of a command: one line, `interrupted`, exit status 130,
and nothing half-written (issue 36). The subject is the process boundary: real processes."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from datetime import date, timedelta
from pathlib import Path

import pytest

from tests.cli import ROOT

FILES = 6
PRS = 1500  # per file: each file's import takes long enough to be caught in the middle


def _exports(folder: Path) -> list[Path]:
    """Six weekly exports of `o/r`, each declaring its own week and holding PRS PRs."""
    paths = []
    for week in range(FILES):
        since = date(2026, 6, 1) + timedelta(weeks=week)
        prs = [
            {
                "number": week * PRS + n + 1,
                "title": f"[Kernel] change {n} of week {week}",
                "body": "what and why " * 20,
                "mergedAt": f"{since + timedelta(days=n % 7)}T{n % 24:02d}:00:00Z",
                "additions": n,
                "deletions": 1,
                "files": [{"path": f"pkg/mod{n % 9}/f{n}.py", "additions": n, "deletions": 1}],
                "labels": ["kernel"],
            }
            for n in range(PRS)
        ]
        until = since + timedelta(weeks=1)
        path = folder / f"w{week}.json"
        text = json.dumps(
            {"repository": "o/r", "pullRequests": prs, "since": str(since), "until": str(until)}
        )
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def _start(database: Path, files: list[Path]) -> subprocess.Popen[str]:
    env = dict(os.environ, DATABASE_URL=f"sqlite+aiosqlite:///{database}", COLUMNS="200")
    return subprocess.Popen(
        # -X importtime: each import is a line on stderr, so the test knows when the CLI
        # is loading (Python's own Ctrl-C handling is in place by then).
        [sys.executable, "-X", "importtime", "-m", "bot", "import", *map(str, files), "--complete"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _stored(database: Path) -> tuple[list[int], list[tuple[str, str, int]]]:
    """The PR count of each file's week in the store, and the complete windows."""
    if not database.exists():
        return [], []
    with sqlite3.connect(database) as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        if "pull_requests" not in tables:
            return [], []
        numbers = [row[0] for row in db.execute("SELECT number FROM pull_requests")]
        windows = list(db.execute('SELECT start, "end", pr_count FROM sync_windows WHERE complete'))
    per_file = [sum(1 for n in numbers if w * PRS < n <= (w + 1) * PRS) for w in range(FILES)]
    return per_file, windows


def _line_after(process: subprocess.Popen[str], lines: int) -> list[str]:
    """Wait until the import has printed `lines` lines (that many files stored)."""
    assert process.stdout is not None
    return [process.stdout.readline() for _ in range(lines)]


@pytest.mark.subprocess
@pytest.mark.parametrize("moment", ["loading", "first file", "second file"])
def test_ctrl_c_is_one_line_exit_130_and_each_file_whole_or_absent(
    tmp_path: Path, moment: str
) -> None:
    files = _exports(tmp_path)
    database = tmp_path / "store.sqlite3"
    process = _start(database, files)
    printed: list[str] = []
    if moment == "loading":
        assert process.stderr is not None
        while "| bot." not in process.stderr.readline():
            pass
    elif moment == "first file":
        printed = _line_after(process, 1)
    elif moment == "second file":
        printed = _line_after(process, 2)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    printed += stdout.splitlines(keepends=True)
    assert process.returncode == 130, (process.returncode, stderr)
    said = [line for line in stderr.splitlines() if not line.startswith("import time:")]
    assert said == ["interrupted"], stderr[-3000:]
    per_file, windows = _stored(database)
    # Each file is stored whole with its window, or not at all; what was printed is stored.
    imported = [i for i, count in enumerate(per_file) if count]
    assert all(per_file[i] == PRS for i in imported), per_file
    assert len(windows) == len(imported) == len([p for p in printed if p.startswith("imported")])
    assert all(count == PRS for _, _, count in windows)


def test_a_cancelled_write_is_a_cancellation_not_error_none(tmp_path: Path) -> None:
    """Ctrl-C cancels the command's task inside a SQL statement: the store must let the
    cancellation through (it became `StoreError("None")`, printed `error: None`, exit 1)."""
    from bot.importer import read_export_file
    from bot.store import Store

    export = read_export_file(_exports(tmp_path)[0])

    async def go() -> None:
        store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 's.sqlite3'}")
        try:
            for attempt in range(50):  # cancel at many points of the write
                task = asyncio.create_task(store.prs.upsert(export.prs))
                await asyncio.sleep(0)
                for _ in range(attempt % 7):
                    await asyncio.sleep(0)
                task.cancel()
                results = await asyncio.gather(task, return_exceptions=True)
                assert isinstance(results[0], asyncio.CancelledError | type(None)), results
        finally:
            await store.close()
            # A cancelled statement's worker thread finishes it after the task is gone;
            # let it answer before this loop closes.
            for thread in threading.enumerate():
                if "_connection_worker_thread" in thread.name:
                    await asyncio.to_thread(thread.join, 30)

    asyncio.run(go())
