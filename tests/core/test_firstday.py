"""A new user's first day (issue 36): what the first commands say when something is off."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from bot.core.errors import one_line
from tests.cli import vllm_bot

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "vllm-sample-2026-W22-W23.json"


def _run(tmp_path: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'd.sqlite3'}", **extra)
    return vllm_bot(env, *args)


# ---------------------------------------------------------------------------- cut lines


def test_an_error_keeps_its_values_whatever_the_path_length(tmp_path: Path) -> None:
    deep = tmp_path / ("a-folder-with-a-long-name-" * 3) / ("and-another-level-" * 3)
    deep.mkdir(parents=True)
    export = deep / "vllm-sample.json"
    export.write_bytes(SAMPLE.read_bytes())
    shown = _run(tmp_path, "import", str(export), "--week", "2026-W30", "--complete")
    assert shown.returncode == 2
    assert shown.stderr == (
        f"error: nothing imported, not marking 2026-W30 complete: {export}: the file declares "
        "the window 2026-05-25..2026-06-08, which does not contain 2026-07-20..2026-07-27; "
        "give a file that covers the window, or leave out --complete\n"
    )


def test_a_libraries_long_line_loses_its_paths_middle_before_any_value() -> None:
    path = "/tmp/pytest-of-someone/pytest-1234/test_a_rather_long_test_name0/sub/dir/x.db"
    text = (
        f"(sqlite3.OperationalError) unable to open database file {path} at "
        "2026-06-01 12:00:00 for window 2026-05-25..2026-06-01 (attempt 3 of 3); "
        "check the folder's permissions"
    )
    line = one_line(text, 200)
    assert len(line) <= 200
    assert "/tmp/pytest-of-someone/…/dir/x.db" in line
    for value in ("2026-06-01 12:00:00", "2026-05-25..2026-06-01", "attempt 3 of 3"):
        assert value in line
    assert line.endswith("; check the folder's permissions")
    # What fits is left as it is.
    assert one_line(text, 1000) == text


def _write(path: Path, data: dict[str, object]) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path
