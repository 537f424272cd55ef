"""Running `vllm-bot` as a subprocess against the local fakes, as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.fakes.github import FakeGitHub

ROOT = Path(__file__).resolve().parents[1]


def github_env(
    github: FakeGitHub, database: Path, *, clean: bool = False, **extra: str
) -> dict[str, str]:
    """The environment of a `vllm-bot` run against the fake `github`, its store at
    `database`; `clean` drops the caller's own Slack, Discord and GitHub variables."""
    environment = {
        k: v
        for k, v in os.environ.items()
        if not (clean and k.startswith(("SLACK_", "DISCORD_", "GITHUB_")))
    }
    environment.update(
        GITHUB_TOKEN=github.token,
        GITHUB_API_URL=github.api_url,
        GITHUB_GRAPHQL_URL=github.graphql_url,
        DATABASE_URL=f"sqlite+aiosqlite:///{database}",
        # Wide enough that no table or progress line wraps under test.
        COLUMNS="200",
        **extra,
    )
    return environment


def vllm_bot(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
