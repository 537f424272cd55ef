"""Every stored string behaves the same on SQLite and PostgreSQL (the real CLI, `vllm-bot
import` then `vllm-bot digest --no-sync`): a NUL in a login and a branch name past the old
255-character column import and digest identically and losslessly on both; a login or
label past GitHub's own limits is refused by the import's schema with the same one line on
both, before anything is written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import Store
from tests.fakes.databases import postgres_database

ROOT = Path(__file__).resolve().parents[2]
REPO = "vllm-project/vllm"
SAMPLE = ROOT / "examples" / "vllm-sample-2026-W22-W23.json"
NUL_LOGIN = "ali\x00ce"
LONG_LOGIN = "l" * 201
LONG_LABEL = "label " * 60


def export(tmp_path: Path) -> tuple[Path, list[int]]:
    data = json.loads(SAMPLE.read_text(encoding="utf-8"))
    # PRs of the digest's week, its most important first (they reach the key-PR table).
    prs = sorted(
        (p for p in data["pullRequests"] if (p.get("mergedAt") or "") >= "2026-06-01"),
        key=lambda p: -(p["additions"] + p["deletions"]),
    )
    prs[0]["author"] = NUL_LOGIN
    prs[3]["baseRefName"] = "b" * 300
    path = tmp_path / "export.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path, [p["number"] for p in prs[:4]]


def overlong(tmp_path: Path, field: str, value: object) -> Path:
    data = json.loads(SAMPLE.read_text(encoding="utf-8"))
    data["pullRequests"][5][field] = value
    path = tmp_path / f"overlong-{field}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def bot(database: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "DATABASE_URL"))}
    env.update(DATABASE_URL=database, COLUMNS="200")
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


async def stored(database: str, numbers: list[int]) -> list[tuple[object, ...]]:
    async with await Store.open(database) as store:
        found = [await store.prs.get(REPO, n) for n in numbers]
    return [(p.author, p.labels, p.base_ref) if p else (None,) for p in found]


def import_and_digest(database: str, source: Path) -> tuple[str, dict[str, object]]:
    imported = bot(
        database, "import", str(source), "--since", "2026-05-25", "--until", "2026-06-08",
        "--complete",
    )  # fmt: skip
    assert imported.returncode == 0, imported.stderr
    digest = bot(database, "digest", "--week", "2026-W23", "--no-sync", "--format", "json")
    assert digest.returncode == 0, digest.stderr
    found = json.loads(digest.stdout)
    found.pop("generated_at")  # the one field that differs by when it ran
    return imported.stdout, found


async def test_nul_and_long_values_import_and_digest_alike_on_both(tmp_path: Path) -> None:
    if not SAMPLE.exists():
        pytest.skip("the example export is not in this checkout")
    source, numbers = export(tmp_path)
    lite = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    sqlite = import_and_digest(lite, source)
    sqlite_rows = await stored(lite, numbers)
    async with postgres_database() as url:
        postgres = import_and_digest(url, source)
        postgres_rows = await stored(url, numbers)
    assert postgres[0] == sqlite[0]  # the import's report
    assert postgres[1] == sqlite[1]  # the whole digest, figure for figure
    # Stored losslessly on both: what went in comes back.
    assert postgres_rows == sqlite_rows
    assert sqlite_rows[0][0] == NUL_LOGIN and sqlite_rows[3][2] == "b" * 300


async def _holds(database: str) -> int:
    async with await Store.open(database) as store:
        return await store.prs.count(REPO)


async def import_on_both(
    tmp_path: Path, source: Path, *args: str
) -> tuple[list[subprocess.CompletedProcess[str]], list[int]]:
    """`vllm-bot import SOURCE ARGS` on SQLite, then on PostgreSQL: the runs, and the PRs
    each store holds after."""
    lite = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    runs = [bot(lite, "import", str(source), *args)]
    holds = [await _holds(lite)]
    async with postgres_database() as url:
        runs.append(bot(url, "import", str(source), *args))
        holds.append(await _holds(url))
    return runs, holds


@pytest.mark.parametrize(
    ("field", "value", "named"),
    [
        ("author", LONG_LOGIN, "author"),
        ("labels", [LONG_LABEL.strip()], "labels[0]"),
        # Issue 36: past int32, PostgreSQL failed in asyncpg (exit 1) where SQLite stored it.
        ("number", 2**31, "number"),
        ("number", 2**63, "number"),
        ("additions", 2**31, "additions"),
        ("deletions", 2**31, "deletions"),
        ("changedFiles", 2**31, "changedFiles"),
        ("files", [{"path": "a.py", "additions": 2**31}], "files[0].additions"),
        ("mergedAt", "9999-12-31T00:00:00Z", "mergedAt"),
    ],
)
async def test_values_past_githubs_limits_are_refused_alike_on_both(
    tmp_path: Path, field: str, value: object, named: str
) -> None:
    if not SAMPLE.exists():
        pytest.skip("the example export is not in this checkout")
    source = overlong(tmp_path, field, value)
    refused, holds = await import_on_both(tmp_path, source)
    for run in refused:
        assert run.returncode == 2
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1 and f"pullRequests[5].{named}" in lines[0], run.stderr
        assert "Traceback" not in run.stderr
    assert refused[0].stderr == refused[1].stderr  # the same line on both
    assert holds == [0, 0]  # nothing written on either


@pytest.mark.parametrize(
    ("release", "named"),
    [
        ({"base": "v0.1.0", "head": "v" + "1" * 299}, "release.head"),
        ({"base": "../../../etc/passwd", "head": "v0.2.0"}, "release.base"),
        ({"base": "v0.1.0", "head": "v1.0\nv2.0"}, "release.head"),
    ],
)
async def test_release_tags_past_gits_rules_are_refused_alike_on_both(
    tmp_path: Path, release: dict[str, str], named: str
) -> None:
    """A 300-character tag failed on PostgreSQL ("value too long for type character
    varying(200)") and was stored on SQLite; a path or a newline was a tag on both."""
    if not SAMPLE.exists():
        pytest.skip("the example export is not in this checkout")
    data = json.loads(SAMPLE.read_text(encoding="utf-8"))
    data["release"] = release
    source = tmp_path / "release.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    refused, holds = await import_on_both(tmp_path, source)
    for run in refused:
        assert run.returncode == 2, run.stderr
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1 and f": {named}: " in lines[0], run.stderr
        assert "is not a git tag or branch name" in lines[0]
    assert refused[0].stderr == refused[1].stderr
    assert holds == [0, 0]


async def test_a_window_of_0001_to_9999_is_refused_alike_on_both(tmp_path: Path) -> None:
    if not SAMPLE.exists():
        pytest.skip("the example export is not in this checkout")
    data = json.loads(SAMPLE.read_text(encoding="utf-8"))
    data["window"] = {"since": "0001-01-01", "until": "9999-12-31"}
    source = tmp_path / "forever.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    refused, holds = await import_on_both(tmp_path, source, "--complete")
    for run in refused:
        assert run.returncode == 2, run.stderr
        assert run.stderr.startswith(f"error: {source}: window.since: '0001-01-01' is outside")
        assert run.stderr.count("\n") == 1
    assert refused[0].stderr == refused[1].stderr
    assert holds == [0, 0]
