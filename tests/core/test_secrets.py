"""Secrets are read stripped, refused with control characters inside, and never shown in
any form: replies, stderr, logs (text and JSON), metrics labels or the store."""

from __future__ import annotations

import io
import json
import logging
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.commands.reply import Reply
from bot.core.config import Environment
from bot.core.errors import ConfigError
from bot.core.logging import configure_logging
from bot.core.metrics import Counter
from bot.core.secrets import REDACTED, forms, redact, register
from tests.fakes.background import BackgroundFake
from tests.fakes.github import FakeGitHub
from tests.fakes.prdata import make_prs
from tests.fakes.slack import FakeSlack

REPO = "vllm-project/vllm"


def test_secrets_are_stripped_when_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "  ghp_pasted_token_123\n")
    monkeypatch.setenv("SLACK_SIGNING_SECRET", "\tsigning-secret-456\r\n")
    env = Environment()
    assert env.github_token is not None and env.slack_signing_secret is not None
    assert env.github_token.get_secret_value() == "ghp_pasted_token_123"
    assert env.slack_signing_secret.get_secret_value() == "signing-secret-456"


@pytest.mark.parametrize("inside", ["\n", "\t", "\r", "\x1b", "\x7f"])
def test_control_character_inside_a_secret_is_refused_without_its_value(
    monkeypatch: pytest.MonkeyPatch, inside: str
) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", f"xoxb-first{inside}second-half")
    with pytest.raises(ConfigError) as caught:
        Environment()
    message = str(caught.value)
    assert "SLACK_BOT_TOKEN" in message and "\n" not in message
    assert "xoxb" not in message and "first" not in message and "second" not in message


def test_every_form_is_redacted() -> None:
    secret = "ghp_Form\"Test'Token\\42"
    register([secret + "\n"])
    texts = [
        f"Illegal header value b'Bearer {secret}\\n'",
        repr(f"Bearer {secret}\n"),
        json.dumps({"msg": f"Bearer {secret}"}),
        json.dumps(repr(secret)),
        repr(f"Bearer {secret}".encode()),
        f"https://x.invalid/?token={__import__('urllib.parse').parse.quote(secret, safe='')}",
    ]
    for text in texts:
        cleaned = redact(text)
        assert REDACTED in cleaned, text
        for shape in forms(secret):
            assert shape not in cleaned, (text, shape)


def test_replies_and_metric_labels_are_redacted() -> None:
    register(["xoxb-reply-secret-77"])
    reply = Reply.error("GitHub failed: Illegal header value b'Bearer xoxb-reply-secret-77'")
    assert "xoxb-reply-secret-77" not in reply.text and REDACTED in reply.text
    counter = Counter("t_total", "test", ["kind"])
    counter.inc(kind="boom xoxb-reply-secret-77")
    assert "xoxb-reply-secret-77" not in "\n".join(counter.samples())


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_logs_redact_escaped_forms(fmt: str) -> None:
    secret = "ghp_log_secret_9000"
    stream = io.StringIO()
    handler = configure_logging(fmt, "INFO", [secret], stream=stream)
    try:
        log = logging.getLogger("bot.test.secrets")
        try:
            header = f"Bearer {secret}\n".encode()
            raise ValueError(f"Illegal header value {header!r}")
        except ValueError:
            log.exception("request failed: %r", f"{secret}\n", extra={"header": repr(secret)})
    finally:
        logging.getLogger().removeHandler(handler)
    written = stream.getvalue()
    assert REDACTED in written
    for shape in forms(secret):
        assert shape not in written, shape


# ---------------------------------------------------------------------------- a full run


class _Run:
    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.outputs: list[str] = []

    def __call__(self, *args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [sys.executable, "-m", "bot", *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        self.outputs += [done.stdout, done.stderr]
        return done


@pytest.fixture
def services_up() -> Iterator[tuple[FakeGitHub, FakeSlack]]:
    from datetime import UTC, datetime

    start, end = datetime(2026, 6, 1, tzinfo=UTC), datetime(2026, 6, 8, tzinfo=UTC)
    github = FakeGitHub({REPO: make_prs(12, start, end, seed=5, first_number=41000)})
    slack = FakeSlack()
    with BackgroundFake(github), BackgroundFake(slack):
        yield github, slack


@pytest.mark.subprocess
def test_full_run_shows_no_secret_in_any_form(
    services_up: tuple[FakeGitHub, FakeSlack], tmp_path: Path
) -> None:
    import os

    github, slack = services_up
    database = tmp_path / "secrets.sqlite3"
    webhook_secret = "whsec_webhook_secret_31"
    openai_key = "sk-openai-secret-key-64"
    env = dict(os.environ)
    env.update(
        # Pasted with the newline a terminal adds: the reported leak.
        GITHUB_TOKEN=github.token + "\n",
        GITHUB_API_URL=github.api_url,
        GITHUB_GRAPHQL_URL=github.graphql_url,
        SLACK_BOT_TOKEN=slack.token + "\n",
        SLACK_API_URL=slack.api_url,
        SLACK_SIGNING_SECRET=" slack-signing-secret-88 ",
        GITHUB_WEBHOOK_SECRET=webhook_secret,
        OPENAI_API_KEY=openai_key,
        DATABASE_URL=f"sqlite+aiosqlite:///{database}",
        COLUMNS="200",
    )
    run = _Run(env)
    assert run("pr", "41003").returncode == 0, run.outputs[-1]
    assert run("chat", "/vllm pr 41004").returncode == 0, run.outputs[-1]
    assert run("--debug", "chat", "/vllm pr #41005").returncode == 0, run.outputs[-1]
    assert run("digest", "--week", "2026-W23", "--post", "slack:C1").returncode == 0
    assert run("--debug", "doctor").returncode in (0, 1)
    # Failures quote what they were given; the secret must still not appear.
    env_wrong = dict(env, GITHUB_TOKEN="ghp_wrong_token_value_1\n")
    wrong = _Run(env_wrong)
    wrong("--debug", "sync", "--week", "2026-W22", "--force")
    wrong("chat", "/vllm pr 1")
    env_slack_down = dict(env, SLACK_API_URL="http://127.0.0.1:9/api/")
    down = _Run(env_slack_down)
    down("digest", "--week", "2026-W23", "--post", "slack:C2")

    with sqlite3.connect(database) as db:
        stored = "\n".join(db.iterdump())
    everything = "\n".join([*run.outputs, *wrong.outputs, *down.outputs, stored])
    secrets = [
        github.token,
        slack.token,
        "slack-signing-secret-88",
        webhook_secret,
        openai_key,
        "ghp_wrong_token_value_1",
    ]
    leaks = [
        (secret, shape) for secret in secrets for shape in forms(secret) if shape in everything
    ]
    assert leaks == []
    assert "Illegal header" not in everything
