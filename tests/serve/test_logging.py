"""Structured logs never contain a configured secret."""

from __future__ import annotations

import io
import json
import logging

from bot.core.config import Environment
from bot.core.logging import REDACTED, configure_logging, secret_values
from tests.serve.conftest import FakeServices, make_config

TOKEN = "xoxb-very-secret-token"
WEBHOOK = "https://discord.example/api/webhooks/123/webhook-secret-part"


def _emit(fmt: str) -> str:
    stream = io.StringIO()
    configure_logging(fmt, "INFO", [TOKEN, "short", WEBHOOK], stream=stream)
    log = logging.getLogger("bot.test")
    log.info("token in the message %s", TOKEN)
    log.info("in an extra field", extra={"url": f"https://slack.test/?t={TOKEN}"})
    try:
        raise RuntimeError(f"request to {WEBHOOK} failed")
    except RuntimeError:
        log.exception("posting failed")
    log.info("a short value stays: short")
    return stream.getvalue()


def test_text_logs_redact_secrets_everywhere() -> None:
    out = _emit("text")
    assert TOKEN not in out and WEBHOOK not in out
    assert out.count(REDACTED) == 3  # message, extra field, exception text
    assert "Traceback" in out  # the traceback is kept, only the secret is gone
    assert "a short value stays: short" in out


def test_json_logs_are_one_object_per_line_and_redacted() -> None:
    out = _emit("json")
    entries = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert next(e["msg"] for e in entries) == f"token in the message {REDACTED}"
    assert entries[1]["url"] == f"https://slack.test/?t={REDACTED}"
    assert entries[2]["level"] == "ERROR" and "RuntimeError" in entries[2]["exc"]
    assert {"ts", "level", "logger", "msg"} <= set(entries[0])
    assert TOKEN not in out and WEBHOOK not in out


def test_secret_values_cover_tokens_database_password_and_webhooks(store, monkeypatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:db-password-1@db/bot")
    monkeypatch.setenv("TEST_DISCORD_WEBHOOK", WEBHOOK)
    target = {"platform": "discord", "channel": "1", "webhook_url_env": "TEST_DISCORD_WEBHOOK"}
    services = FakeServices(
        make_config(digest={"targets": [target]}),
        store,
        Environment(slack_bot_token=TOKEN, github_webhook_secret="hook-secret"),
    )
    values = set(secret_values(services.env, services.config))
    assert {TOKEN, "hook-secret", "db-password-1", WEBHOOK, "webhook-secret-part"} <= values
