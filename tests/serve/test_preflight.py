"""Missing tokens for a configured platform: one clear line, exit 2, before anything runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.core.config import Environment
from bot.core.errors import ConfigError
from bot.serve import missing_tokens, preflight
from tests.serve.conftest import make_config

ROOT = Path(__file__).resolve().parents[2]
SLACK_TARGET = {"platform": "slack", "channel": "C0123"}
DISCORD_TARGET = {"platform": "discord", "channel": "111"}


def problems(env: dict[str, str], **config) -> list[str]:
    return missing_tokens(make_config(**config), Environment(**env))


def test_nothing_configured_needs_nothing() -> None:
    assert problems({}) == []


def test_slack_target_without_bot_token() -> None:
    found = problems({}, digest={"targets": [SLACK_TARGET]})
    assert any("SLACK_BOT_TOKEN is not set" in p and "C0123" in p for p in found)


def test_socket_mode_needs_the_app_token() -> None:
    found = problems({"slack_bot_token": "xoxb-1"}, slack={"mode": "socket"})
    assert found == [
        'SLACK_APP_TOKEN (xapp-…) is not set but [slack] mode = "socket"; set it, '
        'or use mode = "http" with SLACK_SIGNING_SECRET'
    ]
    assert problems({"slack_bot_token": "xoxb-1", "slack_app_token": "xapp-1"}) == []


def test_http_mode_needs_the_signing_secret() -> None:
    found = problems({"slack_bot_token": "xoxb-1"}, slack={"mode": "http"})
    assert len(found) == 1 and "SLACK_SIGNING_SECRET is not set" in found[0]
    ok = {"slack_bot_token": "xoxb-1", "slack_signing_secret": "s"}
    assert problems(ok, slack={"mode": "http"}) == []


def test_empty_token_counts_as_missing() -> None:
    found = problems({"slack_bot_token": "xoxb-1", "slack_app_token": "  "})
    assert len(found) == 1 and "SLACK_APP_TOKEN" in found[0]


def test_discord_target_needs_a_token_unless_it_has_a_webhook(monkeypatch) -> None:
    monkeypatch.setenv("TEST_DISCORD_WEBHOOK", "https://discord.example/api/webhooks/1/x")
    assert "DISCORD_BOT_TOKEN is not set" in problems({}, digest={"targets": [DISCORD_TARGET]})[0]
    hooked = DISCORD_TARGET | {"webhook_url_env": "TEST_DISCORD_WEBHOOK"}
    assert problems({}, digest={"targets": [hooked]}) == []
    assert problems({"discord_bot_token": "t"}, digest={"targets": [DISCORD_TARGET]}) == []


def test_preflight_raises_one_line_config_error() -> None:
    config = make_config(digest={"targets": [SLACK_TARGET, DISCORD_TARGET]})
    with pytest.raises(ConfigError) as info:
        preflight(config, Environment())
    message = str(info.value)
    assert "\n" not in message
    assert "SLACK_BOT_TOKEN" in message and "DISCORD_BOT_TOKEN" in message
    assert info.value.exit_code == 2


@pytest.mark.subprocess
def test_vllm_bot_serve_exits_2_with_one_line(tmp_path: Path) -> None:
    config = tmp_path / "bot.toml"
    config.write_text('[[digest.targets]]\nplatform = "slack"\nchannel = "C0123"\n')
    result = subprocess.run(
        [sys.executable, "-m", "bot", "--config", str(config), "serve", "--port", "0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: cannot serve: SLACK_BOT_TOKEN is not set")


def test_bad_cron_fails_when_the_config_is_read() -> None:
    # Every command refuses it, not only serve (issue 14).
    with pytest.raises(
        ValidationError, match=r"digest\.targets\.0\.cron\n.*bad cron '0 25 \* \* MON'"
    ):
        make_config(digest={"targets": [SLACK_TARGET | {"cron": "0 25 * * MON"}]})


def test_webhook_variable_must_be_set(monkeypatch) -> None:
    hooked = DISCORD_TARGET | {"webhook_url_env": "TEST_DISCORD_WEBHOOK_UNSET"}
    monkeypatch.delenv("TEST_DISCORD_WEBHOOK_UNSET", raising=False)
    with pytest.raises(ConfigError, match="TEST_DISCORD_WEBHOOK_UNSET"):
        problems({}, digest={"targets": [hooked]})
