"""The `release` webhook: a published release is handed on once, whatever GitHub resends;
other actions, drafts and unsigned bodies are not."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from bot.alerts.webhook import WebhookReceiver
from tests.fakes.github import release_event

from .conftest import REPO, Env

SECRET = "release secret"


def _sign(body: bytes) -> str:
    return "sha256=" + hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()


@pytest.fixture
async def release_hook(env: Env) -> AsyncIterator[tuple]:
    published: list[tuple[str, str]] = []

    async def on_release(repo: str, tag: str) -> None:
        published.append((repo, tag))

    receiver = WebhookReceiver(
        env.pipeline, secret=lambda: SECRET, repos=[REPO], on_release=on_release
    )
    app = web.Application()
    receiver.add_to(app)
    server = TestServer(app, host="127.0.0.1")
    await server.start_server()
    session = aiohttp.ClientSession()

    async def post(payload: dict, delivery: str, *, signed: bool = True) -> int:
        body = json.dumps(payload).encode()
        headers = {"X-GitHub-Event": "release", "X-GitHub-Delivery": delivery}
        if signed:
            headers["X-Hub-Signature-256"] = _sign(body)
        async with session.post(
            server.make_url("/github/webhook"), data=body, headers=headers
        ) as r:
            await r.text()
        await receiver.drain()
        return r.status

    yield post, published
    await session.close()
    await server.close()


async def test_a_published_release_is_handed_on_once(release_hook) -> None:
    post, published = release_hook
    event = release_event(REPO, "v0.21.0rc1")
    assert await post(event, "r-1") == 202
    assert await post(event, "r-1") == 200  # GitHub's redelivery of the same delivery
    assert published == [(REPO, "v0.21.0rc1")]


async def test_other_actions_drafts_other_repos_and_unsigned_bodies_post_nothing(
    release_hook,
) -> None:
    post, published = release_hook
    assert await post(release_event(REPO, "v1.0.0", action="created"), "r-2") == 202
    draft = release_event(REPO, "v1.0.0")
    draft["release"]["draft"] = True
    assert await post(draft, "r-3") == 202
    assert await post(release_event("someone/else", "v1.0.0"), "r-4") == 202
    assert await post(release_event(REPO, "v1.0.0"), "r-5", signed=False) == 401
    assert published == []
