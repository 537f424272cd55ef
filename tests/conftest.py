"""Shared test set-up: every test gets its own database and a clean environment."""

from __future__ import annotations

from pathlib import Path

import pytest

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
