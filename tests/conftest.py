"""Shared test set-up: every test gets its own database and a clean environment."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# CI replays the same examples every run (a red build is reproducible, never luck); a
# developer's run explores new ones. Deadlines are off: a loaded 2-core box is not a bug.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

SHARED = Path(__file__).resolve().parents[1].parent / "shared"

_ENV_VARS = (
    "VLLM_BOT_CONFIG",
    "DATABASE_URL",
    "GITHUB_TOKEN",
    "GITHUB_API_URL",
    "GITHUB_GRAPHQL_URL",
    "GITHUB_WEBHOOK_SECRET",
    "SLACK_BOT_TOKEN",
    "SLACK_SIGNING_SECRET",
    "SLACK_APP_TOKEN",
    "SLACK_API_URL",
    "DISCORD_BOT_TOKEN",
    "DISCORD_API_URL",
    "DISCORD_GATEWAY_URL",
    "OPENAI_BASE_URL",
    "OPENAI_API_KEY",
)


@pytest.fixture(autouse=True)
def _isolated_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The developer's own tokens or database must never leak into a test.
    for name in _ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}")
    monkeypatch.setenv("GITHUB_API_URL", "http://127.0.0.1:9/unreachable")
    monkeypatch.setenv("GITHUB_GRAPHQL_URL", "http://127.0.0.1:9/unreachable/graphql")
    monkeypatch.setenv("SLACK_API_URL", "http://127.0.0.1:9/unreachable/")
    monkeypatch.setenv("DISCORD_API_URL", "http://127.0.0.1:9/unreachable")
