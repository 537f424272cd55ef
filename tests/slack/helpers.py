"""A running Slack bot in HTTP mode on loopback, and Slack-style signed requests."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlencode

import aiohttp
from aiohttp import web
from slack_sdk.signature import SignatureVerifier

from bot.commands import Context
from bot.commands.context import Backend
from bot.core.document import Document
from bot.slack.app import SlackBot, slack_web_app
from bot.slack.platform import SlackPlatform
from bot.slack.poster import SlackPoster, slack_client
from formatters.slack import render_slack
from tests.commands.fakes import bench_context
from tests.fakes.backend import Bench
from tests.fakes.slack import FakeSlack

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"


def signed_headers(
    body: str, *, secret: str = SECRET, timestamp: int | None = None, content_type: str
) -> dict[str, str]:
    ts = str(int(time.time()) if timestamp is None else timestamp)
    signature = SignatureVerifier(secret).generate_signature(timestamp=ts, body=body)
    assert signature is not None
    return {
        "X-Slack-Request-Timestamp": ts,
        "X-Slack-Signature": signature,
        "Content-Type": content_type,
    }


def command_body(text: str, response_url: str, channel: str = "C1", user: str = "U1") -> str:
    return urlencode(
        {
            "token": "deprecated-verification-token",
            "team_id": "T1",
            "team_domain": "fake",
            "channel_id": channel,
            "channel_name": "vllm",
            "user_id": user,
            "user_name": "alice",
            "command": "/vllm",
            "text": text,
            "api_app_id": "A1",
            "response_url": response_url,
            "trigger_id": "1.2.3",
        }
    )


def event_body(event: dict[str, Any]) -> str:
    return json.dumps(
        {
            "token": "deprecated-verification-token",
            "team_id": "T1",
            "api_app_id": "A1",
            "event": event,
            "type": "event_callback",
            "event_id": "Ev1",
            "event_time": int(time.time()),
            "authorizations": [{"team_id": "T1", "user_id": "UBOT", "is_bot": True}],
        }
    )


@dataclass
class Running:
    bot: SlackBot
    url: str
    session: aiohttp.ClientSession
    fake: FakeSlack
    bench: Bench

    async def command(
        self,
        text: str,
        *,
        key: str = "r1",
        channel: str = "C1",
        user: str = "U1",
        secret: str = SECRET,
        timestamp: int | None = None,
    ) -> aiohttp.ClientResponse:
        body = command_body(text, self.fake.response_url(key), channel, user)
        headers = signed_headers(
            body,
            secret=secret,
            timestamp=timestamp,
            content_type="application/x-www-form-urlencoded",
        )
        return await self.session.post(self.url, data=body, headers=headers)

    async def event(self, event: dict[str, Any]) -> aiohttp.ClientResponse:
        body = event_body(event)
        headers = signed_headers(body, content_type="application/json")
        return await self.session.post(self.url, data=body, headers=headers)


@asynccontextmanager
async def running_bot(
    fake: FakeSlack,
    bench: Bench,
    poster: SlackPoster,
    *,
    subscriptions: bool = False,
    language: str | None = None,
    context: Context | None = None,
) -> AsyncIterator[Running]:
    """The Slack bot over the real backend of `bench` (`context`: its commands' Context,
    for a channel and user given per command)."""
    base = context or bench_context(bench, subscriptions=subscriptions, language=language)

    def context_for(channel: str | None, user: str | None) -> Context:
        return replace(base, channel=channel, user=user)

    bot = SlackBot(
        client=slack_client(fake.token, fake.api_url),
        context_for=context_for,
        store=bench.store.deliveries,
        signing_secret=SECRET,
        poster=poster,
        platform=SlackPlatform(lambda: poster, render=render_slack),
        render=render_slack,
    )
    runner = web.AppRunner(slack_web_app(bot), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        async with aiohttp.ClientSession() as session:
            yield Running(bot, f"http://127.0.0.1:{port}/slack/events", session, fake, bench)
    finally:
        await bot.drain()
        await runner.cleanup()


class StalledStore(Backend):
    """The real backend whose store reads for the acknowledgement wait (its pool exhausted,
    a lock held) until `go` is set: a stub, as SQLite cannot be made to stall on cue."""

    go = asyncio.Event()

    async def local_card(self, repo: str, number: int, language: str) -> Document:
        await self.go.wait()
        return await super().local_card(repo, number, language)


def stalled(bench: Bench) -> tuple[StalledStore, Context]:
    backend = StalledStore(bench.app)
    backend.go = asyncio.Event()
    return backend, replace(bench_context(bench), backend=backend)
