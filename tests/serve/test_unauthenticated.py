"""Unauthenticated input never produces a 500: malformed headers and bodies on every
endpoint get a 4xx and at most one short, rate-limited log line (hypothesis fuzzing)."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiohttp import web
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from slack_sdk.signature import SignatureVerifier

from bot.alerts.repository import AlertStore
from bot.alerts.webhook import WebhookReceiver
from bot.core.metrics import Metrics
from bot.reject import REJECTIONS, RejectionLog
from bot.runtime.web import Readiness, build_app
from bot.slack.app import SlackBot, slack_routes
from bot.slack.poster import slack_client
from bot.store import Store
from tests.fakes.slack import FakeSlack

SLACK_SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
HOOK_SECRET = "It's a Secret to Everybody"


@dataclass
class _Pipeline:
    db: AlertStore

    def clock(self) -> Any:
        from datetime import UTC, datetime

        return datetime.now(UTC)


class _Server:
    """The bot's web app (Slack events, GitHub webhook, probes) on its own loop."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.url = ""

    async def _start(self) -> None:
        self.store = await Store.open(f"sqlite+aiosqlite:///{self.database}")
        self.slack = await FakeSlack().start()
        bot = SlackBot(
            client=slack_client(self.slack.token, self.slack.api_url),
            context_for=lambda channel, user: None,  # type: ignore[arg-type,return-value]
            store=self.store.deliveries,
            signing_secret=SLACK_SECRET,
        )
        receiver = WebhookReceiver(
            _Pipeline(AlertStore(self.store)),  # type: ignore[arg-type]
            secret=lambda: HOOK_SECRET,
        )
        app = build_app(Readiness(None), Metrics())
        app.add_routes(slack_routes(bot))
        app.add_routes(receiver.routes())
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}"

    async def _stop(self) -> None:
        await self.runner.cleanup()
        await self.slack.close()
        await self.store.close()

    def __enter__(self) -> _Server:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(30)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[_Server, httpx.Client]]:
    running = _Server(tmp_path_factory.mktemp("unauth") / "bot.sqlite3")
    with running, httpx.Client(base_url=running.url, timeout=10) as client:
        yield running, client


# Header values a client can send: printable ASCII and Latin-1, no CR/LF/NUL.
header_text = st.text(
    st.characters(min_codepoint=0x20, max_codepoint=0xFF, blacklist_characters="\x7f"),
    max_size=80,
)
timestamps = st.one_of(
    st.sampled_from(["abc", "", "1e99", "9" * 30, "-1", "0x10", " 12", "1.5", "NaN", "٣"]),
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
    header_text,
)


# "now" is read when the test runs, not at collection: pytest-xdist workers must collect
# the same test ids, and a clock read at collection differs between them by a second.
@pytest.mark.parametrize("timestamp", ["abc", "", "1e99", "1" * 30, "now"])
def test_reported_slack_timestamps_get_401(
    server: tuple[_Server, httpx.Client], timestamp: str
) -> None:
    _, client = server
    if timestamp == "now":
        timestamp = str(int(time.time()))
    answer = client.post(
        "/slack/events",
        content=b"command=%2Fvllm&text=help",
        headers={"X-Slack-Request-Timestamp": timestamp, "X-Slack-Signature": "v0=" + "0" * 64},
    )
    assert answer.status_code == 401, answer.text


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    timestamp=st.one_of(st.none(), timestamps),
    signature=st.one_of(st.none(), header_text, st.just("v0=" + "a" * 64)),
    body=st.binary(max_size=512),
    content_type=st.sampled_from(
        ["application/json", "application/x-www-form-urlencoded", "text/plain", "", "x/\u00e9"]
    ),
)
def test_fuzzed_slack_requests_never_500(
    server: tuple[_Server, httpx.Client],
    timestamp: str | None,
    signature: str | None,
    body: bytes,
    content_type: str,
) -> None:
    _, client = server
    headers = {"Content-Type": content_type}
    if timestamp is not None:
        headers["X-Slack-Request-Timestamp"] = timestamp
    if signature is not None:
        headers["X-Slack-Signature"] = signature
    answer = client.post("/slack/events", content=body, headers=_raw(headers))
    assert answer.status_code == 401, (answer.status_code, answer.text)


@settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.binary(max_size=512), content_type=st.sampled_from(["application/json", ""]))
def test_fuzzed_bodies_signed_by_slack_never_500(
    server: tuple[_Server, httpx.Client], body: bytes, content_type: str
) -> None:
    # A body Slack signed but the bot cannot read (it should never happen, but must not
    # take the endpoint down): a 4xx or an empty ack, not a 500.
    _, client = server
    ts = str(int(time.time()))
    text = body.decode("latin-1")
    signature = SignatureVerifier(SLACK_SECRET).generate_signature(timestamp=ts, body=text)
    answer = client.post(
        "/slack/events",
        content=text.encode("latin-1"),
        headers={
            "X-Slack-Request-Timestamp": ts,
            "X-Slack-Signature": str(signature),
            "Content-Type": content_type,
        },
    )
    assert answer.status_code < 500, (answer.status_code, answer.text)


def _raw(headers: dict[str, str]) -> dict[str, bytes]:
    # Header bytes as a client may send them (any bytes but CR, LF, NUL), not ASCII only.
    # h11 refuses surrounding whitespace in a header value, as HTTP does.
    return {name: value.strip(" \t").encode("utf-8") for name, value in headers.items()}


def _sign(body: bytes) -> str:
    return "sha256=" + hmac.new(HOOK_SECRET.encode(), body, hashlib.sha256).hexdigest()


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    signature=st.one_of(st.none(), header_text, st.just("sha256=" + "0" * 64)),
    event=st.one_of(st.none(), st.sampled_from(["pull_request", "ping", "push"]), header_text),
    body=st.binary(max_size=512),
)
def test_fuzzed_webhooks_never_500(
    server: tuple[_Server, httpx.Client], signature: str | None, event: str | None, body: bytes
) -> None:
    _, client = server
    headers = {"Content-Type": "application/json"}
    if signature is not None:
        headers["X-Hub-Signature-256"] = signature
    if event is not None:
        headers["X-GitHub-Event"] = event
    answer = client.post("/github/webhook", content=body, headers=_raw(headers))
    assert answer.status_code == 401, (answer.status_code, answer.text)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=12,
)
pr_keys = st.sampled_from(
    ["number", "merged", "merged_at", "created_at", "user", "labels", "title", "additions"]
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    pull_request=st.dictionaries(pr_keys, json_values, max_size=8),
    repository=json_values,
)
def test_signed_but_malformed_pull_requests_never_500(
    server: tuple[_Server, httpx.Client], pull_request: dict[str, Any], repository: Any
) -> None:
    import json

    _, client = server
    payload = {
        "action": "closed",
        "repository": repository,
        "pull_request": {"merged": True, **pull_request},
    }
    body = json.dumps(payload).encode()
    answer = client.post(
        "/github/webhook",
        content=body,
        headers={"X-Hub-Signature-256": _sign(body), "X-GitHub-Event": "pull_request"},
    )
    assert answer.status_code < 500, (answer.status_code, answer.text)


def test_a_flood_of_rejections_logs_a_few_short_lines(
    server: tuple[_Server, httpx.Client], caplog: pytest.LogCaptureFixture
) -> None:
    _, client = server
    REJECTIONS._last.clear()
    caplog.set_level(logging.INFO)
    for index in range(200):
        path = "/slack/events" if index % 2 else "/github/webhook"
        answer = client.post(path, content=b"x", headers={"X-Slack-Request-Timestamp": "abc"})
        assert answer.status_code == 401
    lines = [r for r in caplog.records if r.name == "bot.web.rejected"]
    assert 1 <= len(lines) <= 4  # one per endpoint per 10 s
    assert all(r.exc_info is None and len(r.getMessage()) < 200 for r in lines)
    assert not [r for r in caplog.records if r.exc_info]


def test_rejection_log_counts_what_it_suppressed() -> None:
    now = [0.0]
    records: list[str] = []

    class _Capture(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    logger = logging.getLogger("bot.test.rejections")
    logger.addHandler(_Capture())
    logger.propagate = False
    rejections = RejectionLog(logger, interval=10, clock=lambda: now[0])
    for _ in range(5):
        rejections("/slack/events", "bad", "1.2.3.4")
    now[0] = 11
    rejections("/slack/events", "bad", "1.2.3.4")
    assert len(records) == 2 and "+4 more" in records[1]
