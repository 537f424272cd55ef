"""`serve` with a real Slack bot mounted: SIGTERM drains slash-command work, /metrics counts
commands, alerts and errors, and each command and post logs one structured line."""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import socket
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace
from typing import Any

import httpx
import pytest

from bot.alerts.pipeline import AlertPipeline
from bot.alerts.render import BotCards
from bot.alerts.subscriptions import SubscriptionService
from bot.commands import Context
from bot.core.logging import configure_logging
from bot.core.metrics import Metrics
from bot.core.settings import ServeConfig
from bot.core.tasks import Admission
from bot.core.weeks import parse_week
from bot.platform import Route
from bot.runtime.integrations import Integrations
from bot.runtime.leader import AlwaysLeader
from bot.serve import Server, serve_forever
from bot.slack.app import SlackBot
from bot.slack.http import events_route
from bot.slack.platform import SlackPlatform
from bot.slack.poster import SlackPoster, slack_client
from bot.usecases.digest import DigestScope
from formatters.slack import render_slack
from tests.alerts.conftest import MODULES, T0, Clock, FakeAnalyzer, Outbox, make_pr, settings
from tests.commands.fakes import NOW, REPO, bench_context
from tests.commands.fakes import make_pr as card_pr
from tests.fakes.backend import Bench, seed_week
from tests.fakes.slack import FakeSlack
from tests.serve.conftest import FakeServices, make_config
from tests.slack.helpers import SECRET, command_body, signed_headers, stalled


class GatedPoster(SlackPoster):
    """Posts normally, but holds part 3 until shutdown has begun: the signal then lands
    in the middle of a multi-part post, every time."""

    def __init__(self, fake: FakeSlack) -> None:
        super().__init__(slack_client(fake.token, fake.api_url), min_interval=0)
        self.posted = 0
        self.two_posted = asyncio.Event()
        self.shutting_down = asyncio.Event()

    async def post_message(self, channel: str, payload: dict[str, Any], **kw: Any) -> Any:
        if self.posted == 2:
            await self.shutting_down.wait()
        sent = await super().post_message(channel, payload, **kw)
        self.posted += 1
        if self.posted == 2:
            self.two_posted.set()
        return sent


@dataclass
class SlackSetup:
    fake: FakeSlack
    bot: SlackBot
    bench: Bench
    metrics: Metrics

    def route(self) -> Route:
        return events_route(self.bot)


@pytest.fixture
async def slack(bench: Bench) -> AsyncIterator[SlackSetup]:
    metrics = Metrics()
    seed_week(bench)  # a digest of several messages

    def context_for(channel: str | None, user: str | None) -> Context:
        return replace(bench_context(bench), channel=channel, user=user)

    async with FakeSlack() as fake:
        poster = GatedPoster(fake)
        bot = SlackBot(
            client=slack_client(fake.token, fake.api_url),
            context_for=context_for,
            store=None,  # type: ignore[arg-type]  # set per test (the serve store)
            signing_secret=SECRET,
            poster=poster,
            platform=SlackPlatform(lambda: poster, render=render_slack),
            render=render_slack,
            metrics=metrics,
        )
        yield SlackSetup(fake, bot, bench, metrics)


async def until(condition: Callable[[], bool]) -> None:
    """Wait (at most 5 s) for a state the code under test reaches on its own; the gateway
    offers no event to wait on, so it is polled."""
    async with asyncio.timeout(5):
        while True:
            if condition():
                return
            await asyncio.sleep(0.005)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def send_command(
    port: int, fake: FakeSlack, text: str, key: str, user: str = "U1"
) -> httpx.Response:
    body = command_body(text, fake.response_url(key), "C1", user)
    headers = signed_headers(body, content_type="application/x-www-form-urlencoded")
    async with httpx.AsyncClient() as client:
        return await client.post(
            f"http://127.0.0.1:{port}/slack/events", content=body, headers=headers
        )


async def test_sigterm_during_a_slash_command_digest_post_finishes_it(
    store, slack: SlackSetup
) -> None:
    slack.bot.store = store.deliveries
    poster = slack.bot.poster
    assert isinstance(poster, GatedPoster)
    original = slack.bot.stop_accepting

    def stop_accepting() -> None:
        original()
        poster.shutting_down.set()

    slack.bot.stop_accepting = stop_accepting  # type: ignore[method-assign]
    services = FakeServices(make_config(), store)
    options: dict[str, Any] = {
        "integrations": Integrations(routes=[slack.route()]),
        "leadership": AlwaysLeader(),
        "sync": None,
        "metrics": slack.metrics,
    }
    port = free_port()  # serve_forever builds its Server inside: choose the port here
    task = asyncio.create_task(serve_forever(services, **{**options, "port": port}))
    for _ in range(200):  # until it listens
        try:
            async with httpx.AsyncClient() as client:
                await client.get(f"http://127.0.0.1:{port}/healthz")
            break
        except httpx.ConnectError:
            await asyncio.sleep(0.02)

    ack = await send_command(port, slack.fake, "digest 2026-W23 post", "r1")
    assert "building the 2026-W23 digest" in ack.json()["text"]
    await asyncio.wait_for(poster.two_posted.wait(), 10)
    os.kill(os.getpid(), signal.SIGTERM)
    await asyncio.wait_for(task, 10)  # returned normally: the CLI exits 0

    window = parse_week("2026-W23", slack.bench.app.config.tz, now=NOW)
    document = await slack.bench.backend.digest(DigestScope(REPO, ()), window, "en")
    parts = render_slack(document)
    assert len(parts) > 3
    assert len(slack.fake.messages) == len(parts)  # every part, not just the first two
    replies = [body["text"] for key, body in slack.fake.responses if key == "r1"]
    assert replies == [f"posted the 2026-W23 digest in this channel ({len(parts)} messages, "
                       "details in its thread)"]  # fmt: skip


async def test_commands_refused_while_shutting_down(store, slack: SlackSetup) -> None:
    slack.bot.stop_accepting()
    async with httpx.AsyncClient() as client:
        server_app = await _serve_slack(slack, store)
        try:
            body = command_body("help", slack.fake.response_url("r1"), "C1")
            headers = signed_headers(body, content_type="application/x-www-form-urlencoded")
            response = await client.post(server_app.url, content=body, headers=headers)
        finally:
            await server_app.close()
    assert response.json()["text"] == "vllm-bot is restarting; try again in a minute"


async def test_sigterm_with_commands_queued_tells_each_unanswered_one_to_try_again(
    store, slack: SlackSetup
) -> None:
    # One worker: #1 waits on GitHub through the whole grace, #2-#4 wait behind it. Each
    # user saw "looking up…"; each must hear something before the process exits.
    slack.bot.admission = Admission(1, 10)
    for number in (1, 2, 3, 4):
        await slack.bench.add(card_pr(number), cached=False)
    github = slack.bench.github.hold()
    served = await _serve_slack(slack, store, grace=1)
    try:
        for number in (1, 2, 3, 4):
            ack = await send_command(
                served.server.port, slack.fake, f"pr {number}", f"r{number}", f"U{number}"
            )
            assert ack.json()["text"] == f"looking up #{number}…"
        assert await asyncio.to_thread(github.reached.wait, 10)
        cancelled = await served.server.shutdown()
    finally:
        github.release()
    assert cancelled == ["/vllm in C1"]  # #1, still on GitHub at the end of the grace
    told = {key: body for key, body in slack.fake.responses}
    assert told == {
        f"r{n}": {"response_type": "ephemeral", "text": "vllm-bot is restarting; try again in a "
                  "minute"}
        for n in (1, 2, 3, 4)
    }  # fmt: skip
    assert len(slack.fake.responses) == 4  # once each


async def test_queued_commands_are_answered_while_the_grace_lasts(store, slack: SlackSetup) -> None:
    backend, ctx = stalled(slack.bench)
    slack.bot.context_for = lambda channel, user: replace(ctx, channel=channel, user=user)
    slack.bot.admission = Admission(1, 10)
    for number in (1, 2, 3):
        await slack.bench.add(card_pr(number), cached=True)
    served = await _serve_slack(slack, store, grace=10)
    for number in (1, 2, 3):
        await send_command(
            served.server.port, slack.fake, f"pr {number}", f"r{number}", f"U{number}"
        )
    original = slack.bot.stop_accepting

    def stop_accepting() -> None:
        original()
        backend.go.set()  # the store answers once shutdown has begun

    slack.bot.stop_accepting = stop_accepting  # type: ignore[method-assign]
    assert await served.server.shutdown() == []
    answers = {key: body["text"] for key, body in slack.fake.responses}
    assert sorted(answers) == ["r1", "r2", "r3"]
    assert all(text.startswith(f"PR #{key[1:]}: ") for key, text in answers.items())


@dataclass
class _Served:
    url: str
    server: Server

    async def close(self) -> None:
        await self.server.shutdown()


async def _serve_slack(slack: SlackSetup, store: Any, grace: float = 5) -> _Served:
    services = FakeServices(make_config(), store)
    server = Server(
        services,
        port=0,
        integrations=Integrations(routes=[slack.route()]),
        leadership=AlwaysLeader(),
        sync=None,
        metrics=slack.metrics,
        catch_up=False,
        settings=ServeConfig(shutdown_grace_seconds=grace),
    )
    await server.start()
    return _Served(f"http://127.0.0.1:{server.port}/slack/events", server)


async def test_metrics_count_commands_alerts_and_errors(store, slack: SlackSetup) -> None:
    metrics = slack.metrics
    slack.bench.github.inject(status=502, times=float("inf"))  # GitHub is down
    served = await _serve_slack(slack, store)
    try:
        await send_command(served.server.port, slack.fake, "help", "r1")  # cached: in the ack
        await send_command(served.server.port, slack.fake, "pr 7", "r2")  # GitHub down
        await asyncio.wait_for(slack.bot.drain(), 10)

        # An alert, through the same pipeline the webhook and poller feed, and one whose
        # platform is down.
        clock = Clock()
        analyzer, outbox = FakeAnalyzer(), Outbox()
        pipeline = AlertPipeline(
            store,
            settings(),
            analyzer_for=lambda repo: analyzer,
            sender=outbox,
            cards=BotCards(),  # the cards production wires
            clock=clock,
            metrics=metrics,
        )
        subscriptions = SubscriptionService(
            store,
            settings(),
            MODULES,
            clock=Clock(T0.replace(hour=11)),
            on_change=pipeline.invalidate,
        )
        await subscriptions.subscribe(
            platform="slack", channel="C1", user="U1", modules=["attention"], filters=_filters()
        )
        await pipeline.submit([make_pr(1)], source="poll")
        outbox.fail = True
        await pipeline.submit([make_pr(2)], source="poll")

        async with httpx.AsyncClient() as client:
            scraped = (await client.get(f"http://127.0.0.1:{served.server.port}/metrics")).text
    finally:
        await served.close()
    assert 'vllm_bot_command_duration_seconds_count{platform="slack",command="help"} 1' in scraped
    assert 'vllm_bot_command_duration_seconds_count{platform="slack",command="pr"} 1' in scraped
    assert 'vllm_bot_alerts_posted_total{platform="slack"} 1' in scraped
    # The failed `pr 7` (GitHub down) and the failed alert send, each under its kind.
    assert 'vllm_bot_errors_total{kind="command"} 1' in scraped
    assert 'vllm_bot_errors_total{kind="internal"} 1' in scraped


def _filters() -> Any:
    from bot.core.filters import SubscriptionFilters

    return SubscriptionFilters()


async def test_json_logs_have_one_structured_line_per_command_and_post(
    store, slack: SlackSetup
) -> None:
    slack.bot.store = store.deliveries
    poster = slack.bot.poster
    assert isinstance(poster, GatedPoster)
    poster.shutting_down.set()  # no gate here
    stream = io.StringIO()
    served = await _serve_slack(slack, store)
    configure_logging("json", "INFO", [SECRET, slack.fake.token], stream)
    try:
        await send_command(served.server.port, slack.fake, "digest 2026-W23 post", "r1")
        await asyncio.wait_for(slack.bot.drain(), 10)
    finally:
        await served.close()
    entries = [json.loads(line) for line in stream.getvalue().splitlines()]
    [post] = [e for e in entries if e.get("event") == "post"]
    assert {k: post[k] for k in ("platform", "channel", "document", "outcome")} == {
        "platform": "slack",
        "channel": "C1",
        "document": "digest:vllm-project/vllm:2026-W23:en",
        "outcome": "posted",
    }
    assert isinstance(post["seconds"], float)
    [command] = [e for e in entries if e.get("event") == "command"]
    assert {k: command[k] for k in ("platform", "command", "outcome", "channel")} == {
        "platform": "slack",
        "command": "digest",
        "outcome": "ok",
        "channel": "C1",
    }
    assert isinstance(command["seconds"], float)
    text = stream.getvalue()
    assert SECRET not in text and slack.fake.token not in text


# ---------------------------------------------------------------------------- Discord gateway


class FlakyClient:
    """A discord.Client stand-in: the first `failures` clients fail to log in (Discord
    down at start, which discord.py does not retry); `fatal` makes the session end as
    discord.py ends one it will not reconnect."""

    made = 0

    def __init__(self, failures: int, fatal: bool = False) -> None:
        FlakyClient.made += 1
        self.fails = FlakyClient.made <= failures
        self.fatal = fatal
        self.connected = asyncio.Event()
        self.closed = asyncio.Event()

    async def login(self, token: str) -> None:
        if self.fails:
            raise ConnectionResetError("gateway handshake failed")

    async def connect(self, *, reconnect: bool) -> None:
        assert reconnect  # discord.py's own reconnect and backoff stay on
        if self.fatal:
            raise ConnectionError("close code 4004: authentication failed")
        self.connected.set()
        await self.closed.wait()

    def is_ready(self) -> bool:
        return self.connected.is_set() and not self.closed.is_set()

    async def close(self) -> None:
        self.closed.set()


async def test_discord_gateway_retries_with_backoff_and_readyz_says_down(store) -> None:
    from bot.core.config import Environment
    from bot.discord.gateway import DiscordGateway
    from bot.runtime.web import Readiness

    FlakyClient.made = 0
    services = FakeServices(make_config(), store, Environment(discord_bot_token="discord-token-1"))
    gateway = DiscordGateway(
        services, lambda _: FlakyClient(failures=2), backoff=0.05, max_backoff=0.1
    )
    assert [gateway.delay(n) for n in (1, 2, 3, 4)] == [0.05, 0.1, 0.1, 0.1]  # capped
    readiness = Readiness(services, [gateway], cache_seconds=0)
    await gateway.start()
    try:
        await until(lambda: gateway.failure is not None)  # the first attempt failed
        _, body = await readiness.check()
        down = body["checks"]["discord"]
        assert down["ok"] is False and "gateway handshake failed; retrying in" in down["detail"]
        client = gateway.client
        await until(lambda: FlakyClient.made == 3 and gateway.client.is_ready())
        assert gateway.failures == 2 and gateway.failure is None
        assert gateway.ready() is not None and gateway.ready().ok  # type: ignore[union-attr]
        assert client is not gateway.client  # a fresh client per attempt
    finally:
        await asyncio.wait_for(gateway.stop(), 5)
    assert gateway.task is None


async def test_a_session_discord_py_gives_up_on_is_reported_not_retried(store) -> None:
    from bot.core.config import Environment
    from bot.discord.gateway import DiscordGateway

    FlakyClient.made = 0
    services = FakeServices(make_config(), store, Environment(discord_bot_token="discord-token-1"))
    gateway = DiscordGateway(
        services, lambda _: FlakyClient(failures=0, fatal=True), backoff=0.01, max_backoff=0.01
    )
    await gateway.start()
    try:
        await until(lambda: gateway.task is not None and gateway.task.done())
        probe = gateway.ready()
        assert probe is not None and not probe.ok
        assert "authentication failed; not retried" in probe.detail
        assert FlakyClient.made == 1  # no second client: the same close would follow
    finally:
        await asyncio.wait_for(gateway.stop(), 5)
