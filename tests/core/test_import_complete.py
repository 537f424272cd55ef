"""`import` marks a window complete only when asked (--complete) and the file covers it."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.cli import vllm_bot

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "vllm-sample-2026-W22-W23.json"


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'i.sqlite3'}")
    return vllm_bot(env, *args)


def test_a_year_is_not_marked_complete_by_two_weeks_of_data(tmp_path: Path) -> None:
    year = ("--since", "2026-01-01", "--until", "2026-12-01")
    refused = _run(tmp_path, "import", str(SAMPLE), *year, "--complete")
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1 and "not marking" in refused.stderr
    plain = _run(tmp_path, "import", str(SAMPLE), *year)
    assert plain.returncode == 0 and "stays incomplete" in plain.stdout
    digest = _run(tmp_path, "digest", "--week", "2026-W20", "--no-sync", "--format", "json")
    assert digest.returncode == 0, digest.stderr
    assert json.loads(digest.stdout)["complete"] is False


def test_the_readme_example_still_gives_a_complete_digest(tmp_path: Path) -> None:
    args = ("--since", "2026-05-25", "--until", "2026-06-08", "--complete")
    done = _run(tmp_path, "import", str(SAMPLE), *args)
    assert done.returncode == 0 and "marked complete" in done.stdout, done.stderr
    digest = _run(tmp_path, "digest", "--week", "2026-W23", "--no-sync", "--format", "json")
    assert json.loads(digest.stdout)["complete"] is True


@pytest.mark.parametrize(
    ("merged", "covered"),
    [
        (["2026-05-31T10:00:00Z", "2026-06-02T10:00:00Z", "2026-06-08T01:00:00Z"], True),
        (["2026-06-02T10:00:00Z", "2026-06-05T10:00:00Z"], False),
    ],
)
def test_without_a_declared_window_merged_dates_must_reach_past_both_edges(
    tmp_path: Path, merged: list[str], covered: bool
) -> None:
    export = {
        "repository": "o/r",
        "pullRequests": [
            {"number": i + 1, "title": f"t{i}", "mergedAt": at} for i, at in enumerate(merged)
        ],
    }
    path = tmp_path / "e.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    done = _run(tmp_path, "import", str(path), "--week", "2026-W23", "--complete")
    assert done.returncode == (0 if covered else 2), done.stderr
