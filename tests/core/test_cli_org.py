"""`digest --org` / `--repo` repeated and `sync --org`, run as a user runs them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli import github_env, vllm_bot
from tests.core.test_cli_end_to_end import W22, W23
from tests.fakes.background import BackgroundFake
from tests.fakes.github import FakeGitHub
from tests.fakes.prdata import make_prs

VLLM, ASCEND = "vllm-project/vllm", "vllm-project/vllm-ascend"


@pytest.fixture(scope="module")
def github() -> Iterator[FakeGitHub]:
    repos = {
        VLLM: make_prs(40, *W23, seed=3) + make_prs(20, *W22, seed=4, first_number=19000),
        ASCEND: make_prs(15, *W23, seed=5) + make_prs(10, *W22, seed=6, first_number=19000),
    }
    with BackgroundFake(FakeGitHub(repos)) as fake:
        yield fake


@pytest.fixture
def env(github: FakeGitHub, tmp_path: Path) -> dict[str, str]:
    config = tmp_path / "bot.toml"
    config.write_text("[digest]\nhistory_weeks = 0\n", encoding="utf-8")
    return github_env(github, tmp_path / "cli.sqlite3", VLLM_BOT_CONFIG=str(config))


def test_sync_org_then_digest_repos_offline(env) -> None:
    synced = vllm_bot(env, "sync", "--org", "vllm-project", "--week", "2026-W23")
    assert synced.returncode == 0, synced.stderr
    assert f"{VLLM} 40, {ASCEND} 15; 1 requests" in synced.stdout
    done = vllm_bot(
        env,
        "digest",
        "--repo",
        VLLM,
        "--repo",
        ASCEND,
        "--week",
        "2026-W23",
        "--no-sync",
        "--format",
        "json",
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["repo"] == f"{VLLM},{ASCEND}"
    assert {r["repo"]: r["totals"]["merged"] for r in data["repos"]} == {VLLM: 40, ASCEND: 15}


def test_digest_org_markdown(env) -> None:
    done = vllm_bot(env, "digest", "--org", "vllm-project", "--week", "2026-W23")
    assert done.returncode == 0, done.stderr
    assert "vllm-project weekly digest, 2026 week 23 (2 repositories)" in done.stdout
    assert "| vllm-ascend | 15 |" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--org", "vllm-project", "--repo", VLLM], "not both"),
        (["--exclude", ASCEND], "--exclude only applies with --org"),
        (["--org", "bad/org"], "org: bad organisation 'bad/org': expected a GitHub login such as"),
        (["--org", "vllm-project", "--exclude", "other/x"], "exclude lists repositories of"),
    ],
)
def test_bad_scopes_are_one_line_and_exit_2(env, args, message) -> None:
    done = vllm_bot(env, "digest", *args, "--no-sync")
    assert done.returncode == 2
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr
