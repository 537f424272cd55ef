"""`modules = "auto"`: commands read the stored snapshot of the repository's labelling rules
and never ask GitHub for it; `sync` refreshes it in the background (issue 36)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.cli import github_env, vllm_bot
from tests.fakes.background import BackgroundFake
from tests.fakes.github import FakeGitHub
from tests.fakes.prdata import FakeFile, FakePR

REPO = "acme/widgets"
W23 = datetime(2026, 6, 1, tzinfo=UTC)
LABELER = "gizmos:\n- changed-files:\n  - any-glob-to-any-file: widgets/gizmo*.py\n"


def _pr(number: int, path: str) -> FakePR:
    merged = W23 + timedelta(days=1, hours=number % 24)
    return FakePR(
        number=number,
        title=f"Change {number}",
        author="dev",
        created_at=merged - timedelta(days=1),
        updated_at=merged,
        merged_at=merged,
        files=[FakeFile(path, 10, 2)],
    )


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    prs = [_pr(501, "widgets/gizmo_x.py"), _pr(502, "widgets/core.py")]
    files = {REPO: {".github/labeler.yml": LABELER, "widgets/core.py": ""}}
    with BackgroundFake(FakeGitHub({REPO: prs}, files=files)) as fake:
        yield fake


@pytest.fixture
def env(github: FakeGitHub, tmp_path: Path) -> dict[str, str]:
    config = tmp_path / "bot.toml"
    config.write_text(f'[[repos]]\nname = "{REPO}"\n')
    return github_env(
        github,
        tmp_path / "bot.sqlite3",
        VLLM_BOT_CONFIG=str(config),
        VLLM_BOT_STATE_DIR=str(tmp_path / "state"),
    )


def _modules(env: dict[str, str], number: int) -> list[str]:
    result = vllm_bot(env, "pr", str(number), "--format", "json")
    assert result.returncode == 0, result.stderr
    return [m["id"] if isinstance(m, dict) else m for m in json.loads(result.stdout)["modules"]]


def test_commands_never_fetch_the_rules_and_sync_refreshes_them(
    github: FakeGitHub, env: dict[str, str]
) -> None:
    before = _modules(env, 501)
    assert "gizmos" not in before
    assert github.requests("RepositoryFiles") == []  # `pr` fetched the PR, not the rules
    assert vllm_bot(env, "explain", "501").returncode == 0
    assert vllm_bot(env, "modules").returncode == 0
    assert github.requests("RepositoryFiles") == []

    synced = vllm_bot(env, "sync", "--week", "2026-W23")
    assert synced.returncode == 0, synced.stderr
    assert len(github.requests("RepositoryFiles")) == 1
    assert _modules(env, 501) == ["gizmos"]
    assert vllm_bot(env, "sync", "--week", "2026-W23").returncode == 0
    assert len(github.requests("RepositoryFiles")) == 1  # a fresh copy is not fetched again


def test_a_failed_refresh_is_not_tried_again_for_an_hour(
    github: FakeGitHub, env: dict[str, str]
) -> None:
    github.inject(status=502, times=1000, match="RepositoryFiles")
    first = vllm_bot(env, "sync", "--week", "2026-W23")
    assert first.returncode == 0, first.stderr
    assert f"labelling rules of {REPO} not refreshed" in first.stderr
    tried = len(github.requests("RepositoryFiles"))
    assert tried >= 1
    again = vllm_bot(env, "sync", "--week", "2026-W23", "--force")
    assert again.returncode == 0, again.stderr
    assert len(github.requests("RepositoryFiles")) == tried
    offline = vllm_bot(env, "pr", "501")
    assert f"labelling rules of {REPO} unavailable" in offline.stderr
