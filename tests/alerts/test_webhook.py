"""The webhook receiver through a real aiohttp server on 127.0.0.1, with bodies signed
by real HMAC-SHA256."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from bot.alerts.repository import Outbox
from bot.alerts.webhook import WebhookReceiver
from bot.core.errors import GitHubUnavailable
from bot.core.models import PullRequest

from .conftest import REPO, Env, make_pr

SECRET = "It's a Secret to Everybody"
SIGNED = "signed"  # the default of `post`: sign the body with SECRET


def sign(body: bytes, secret: str = SECRET) -> str:
    # Computed here independently of bot.alerts.webhook.signature, as GitHub documents it.
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def merged_payload(number: int = 1, *, merged: bool = True, action: str = "closed") -> dict:
    pr = make_pr(number)
    return {
        "action": action,
        "number": number,
        "repository": {"full_name": REPO},
        "pull_request": {
            "number": number,
            "title": pr.title,
            "html_url": pr.url,
            "state": "closed",
            "merged": merged,
            "merged_at": pr.merged_at.isoformat().replace("+00:00", "Z") if merged else None,
            "created_at": "2026-05-30T12:00:00Z",
            "closed_at": "2026-06-01T11:59:00Z",
            "user": {"login": "alice"},
            "labels": [{"name": "ready"}],
            "additions": 3,
            "deletions": 1,
            "changed_files": 1,
            "base": {"ref": "main"},
            "body": "",
        },
    }


@dataclass
class Hook:
    receiver: WebhookReceiver
    post: Callable[..., Awaitable[tuple[int, str]]]
    fetched: list[tuple[str, int]]


class FakeGitHub:
    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []
        self.down = False

    async def fetch_pr(self, repo: str, number: int) -> PullRequest:
        self.calls.append((repo, number))
        if self.down:
            raise GitHubUnavailable("GitHub unavailable after 6 attempts: 502")
        return make_pr(number, files=["vllm/attention/layer.py", "docs/a.md"])


@pytest.fixture
async def hook(env: Env) -> AsyncIterator[tuple[Hook, FakeGitHub, dict[str, Any]]]:
    github = FakeGitHub()
    state: dict[str, Any] = {"secret": SECRET}
    receiver = WebhookReceiver(
        env.pipeline,
        secret=lambda: state["secret"],
        fetch_pr=github.fetch_pr,
        repos=[REPO],
    )
    app = web.Application()
    receiver.add_to(app)
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    session = aiohttp.ClientSession()

    async def post(
        body: bytes | dict,
        *,
        event: str = "pull_request",
        delivery: str | None = "d-1",
        signature: str | None = SIGNED,
    ) -> tuple[int, str]:
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers = {"X-GitHub-Event": event, "Content-Type": "application/json"}
        if delivery is not None:
            headers["X-GitHub-Delivery"] = delivery
        if signature == SIGNED:
            headers["X-Hub-Signature-256"] = sign(raw)
        elif signature is not None:
            headers["X-Hub-Signature-256"] = signature
        async with session.post(server.make_url("/github/webhook"), data=raw, headers=headers) as r:
            text = await r.text()
        await receiver.drain()
        return r.status, text

    yield Hook(receiver, post, github.calls), github, state
    await session.close()
    await server.close()


async def test_valid_signature_merged_pr_is_alerted(env: Env, hook) -> None:
    h, github, _ = hook
    await env.subscribe("attention")
    status, _ = await h.post(merged_payload(1))
    assert status == 202
    assert github.calls == [(REPO, 1)]
    env.clock.advance(minutes=2)
    await env.pipeline.flush()
    assert env.outbox.numbers() == [[1]]
    stored = await env.store.prs.get(REPO, 1)
    assert stored is not None and [f.path for f in stored.files] == [
        "vllm/attention/layer.py",
        "docs/a.md",
    ]


@pytest.mark.parametrize(
    "signature",
    [
        None,  # missing
        "sha256=" + "0" * 64,  # invalid
        sign(json.dumps(merged_payload(1)).encode(), secret="the wrong secret"),
        "sha1=" + hashlib.sha1(b"x").hexdigest(),  # the legacy header format
        "garbage",
    ],
    ids=["missing", "invalid", "wrong-secret", "sha1", "garbage"],
)
async def test_bad_or_missing_signature_is_401(env: Env, hook, signature, caplog) -> None:
    h, github, _ = hook
    await env.subscribe("attention")
    caplog.set_level(logging.DEBUG)
    status, _ = await h.post(merged_payload(1), signature=signature)
    assert status == 401
    assert github.calls == []
    assert await Outbox(env.store).held() == []
    assert SECRET not in caplog.text


async def test_tampered_body_is_401(env: Env, hook) -> None:
    h, _, _ = hook
    body = json.dumps(merged_payload(1)).encode()
    status, _ = await h.post(body.replace(b"alice", b"mallory"), signature=sign(body))
    assert status == 401


async def test_no_secret_configured_is_503_with_a_clear_log(env: Env, hook, caplog) -> None:
    h, _, state = hook
    state["secret"] = None
    caplog.set_level(logging.ERROR)
    status, text = await h.post(merged_payload(1))
    assert status == 503 and "secret" in text
    assert "GITHUB_WEBHOOK_SECRET is not set" in caplog.text


async def test_ping_is_answered(env: Env, hook) -> None:
    h, _, _ = hook
    status, text = await h.post({"zen": "Keep it logically awesome.", "hook_id": 1}, event="ping")
    assert (status, text.strip()) == (200, "pong")


@pytest.mark.parametrize(
    ("event", "payload"),
    [
        ("issues", {"action": "opened"}),
        ("pull_request", merged_payload(1, merged=False)),  # closed without merging
        ("pull_request", merged_payload(1, action="opened", merged=False)),
        ("pull_request", merged_payload(1, action="labeled")),
    ],
    ids=["other-event", "closed-unmerged", "opened", "labeled"],
)
async def test_other_events_are_ignored_with_2xx(env: Env, hook, event, payload) -> None:
    h, github, _ = hook
    await env.subscribe("attention")
    status, _ = await h.post(payload, event=event)
    assert 200 <= status < 300
    env.clock.advance(minutes=2)
    await env.pipeline.flush()
    assert env.outbox.sent == [] and github.calls == []


async def test_unwatched_repository_is_ignored(env: Env, hook) -> None:
    h, github, _ = hook
    await env.subscribe("attention")
    payload = merged_payload(1)
    payload["repository"]["full_name"] = "someone/else"
    status, text = await h.post(payload)
    assert status == 202 and "not watched" in text and github.calls == []


async def test_replayed_delivery_gives_no_second_alert(env: Env, hook) -> None:
    h, github, _ = hook
    await env.subscribe("attention")
    assert (await h.post(merged_payload(1), delivery="abc"))[0] == 202
    env.clock.advance(minutes=2)
    await env.pipeline.flush()
    status, text = await h.post(merged_payload(1), delivery="abc")
    assert (status, text.strip()) == (200, "duplicate delivery")
    assert len(github.calls) == 1
    # Even a new delivery id for the same merge (GitHub re-sent the event) alerts nothing.
    assert (await h.post(merged_payload(1), delivery="def"))[0] == 202
    env.clock.advance(minutes=2)
    await env.pipeline.flush()
    assert env.outbox.numbers() == [[1]]


async def test_webhook_and_poller_seeing_the_same_pr_alert_once(env: Env, hook) -> None:
    h, _, _ = hook
    await env.subscribe("attention")
    await h.post(merged_payload(1))
    await env.pipeline.submit([make_pr(1)], source="poll")
    env.clock.advance(minutes=2)
    await env.pipeline.flush()
    await env.pipeline.submit([make_pr(1)], source="poll")
    assert env.outbox.numbers() == [[1]]


async def test_github_unreachable_alerts_without_files(env: Env, hook) -> None:
    h, github, _ = hook
    github.down = True
    await env.subscribe("attention")
    assert (await h.post(merged_payload(1)))[0] == 202
    env.clock.advance(minutes=2)
    await env.pipeline.flush()
    assert env.outbox.numbers() == [[1]]
    stored = await env.store.prs.get(REPO, 1)
    assert stored is not None and stored.files_known is False


async def test_processing_failure_forgets_the_delivery_so_redelivery_works(env: Env, hook) -> None:
    h, _, _ = hook
    await env.subscribe("attention")
    original = env.pipeline.submit
    calls = 0

    async def broken(prs, *, source):
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("database went away")
        return await original(prs, source=source)

    env.pipeline.submit = broken  # type: ignore[method-assign]
    await h.post(merged_payload(1), delivery="x")
    await h.post(merged_payload(1), delivery="x")  # GitHub's "Redeliver"
    env.clock.advance(minutes=2)
    await env.pipeline.flush()
    assert calls == 2 and env.outbox.numbers() == [[1]]


async def test_bad_json_with_a_valid_signature_is_400(env: Env, hook) -> None:
    h, _, _ = hook
    status, _ = await h.post(b"{not json")
    assert status == 400


def test_payload_parsing_keeps_what_the_card_needs() -> None:
    from bot.alerts.webhook import pr_from_payload

    pr = pr_from_payload(merged_payload(7))
    assert (pr.repo, pr.number, pr.author, pr.state, pr.labels) == (
        REPO, 7, "alice", "merged", ["ready"],
    )  # fmt: skip
    assert pr.merged_at == make_pr(7).merged_at
    assert pr.files_known is False


async def test_shutdown_refuses_new_deliveries_and_lists_those_in_flight(env: Env, hook) -> None:
    h, github, _ = hook
    await env.subscribe("attention")
    gate = asyncio.Event()
    fetch = h.receiver.fetch_pr
    assert fetch is not None

    async def slow_fetch(repo: str, number: int) -> PullRequest:
        await gate.wait()
        return await fetch(repo, number)

    h.receiver.fetch_pr = slow_fetch
    h.receiver.drain = _no_wait  # type: ignore[method-assign]  # keep it in flight
    status, _ = await h.post(merged_payload(1), delivery="d-slow")
    assert status == 202
    [name] = h.receiver.in_flight().values()
    assert name == "webhook delivery d-slow"
    h.receiver.stop_accepting()
    status, text = await h.post(merged_payload(2), delivery="d-late")
    assert (status, text) == (503, "shutting down\n")
    gate.set()
    await asyncio.wait_for(asyncio.gather(*h.receiver.in_flight()), 5)
    assert github.calls == [(REPO, 1)]  # the accepted one finished, the late one never ran


async def _no_wait() -> None:
    return None
